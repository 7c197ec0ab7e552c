package pagination

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Page-size defaults, used when Options leaves a field at zero.
const (
	// DefaultLimit is the page size when the request has no limit, the value
	// the pagination schema recommends.
	DefaultLimit = 10
	// DefaultMaxLimit is the largest page served when Options.MaxLimit is
	// zero, so a browse stays a page and never becomes an export.
	DefaultMaxLimit = 100
)

// Request is the pagination part of a typed search request; nil fields were
// absent from the JSON.
type Request struct {
	Cursor *string
	Limit  *int
}

// Options is a Business's page-size policy; the zero value serves pages of
// DefaultLimit and at most DefaultMaxLimit.
type Options struct {
	// DefaultLimit is the page size when the request has none; 0 means
	// DefaultLimit, or MaxLimit when that is smaller.
	DefaultLimit int
	// MaxLimit is the largest page served; a larger requested limit is lowered
	// to it, as the spec allows. 0 means DefaultMaxLimit.
	MaxLimit int
}

// Validate reports a policy Fetch would refuse, so a server can fail at
// start-up rather than on its first search.
func (o Options) Validate() error {
	d, m := o.effective()
	switch {
	case o.DefaultLimit < 0:
		return fmt.Errorf("pagination options: DefaultLimit is %d: must be 0 (meaning %d) or positive", o.DefaultLimit, DefaultLimit)
	case o.MaxLimit < 0:
		return fmt.Errorf("pagination options: MaxLimit is %d: must be 0 (meaning %d) or positive", o.MaxLimit, DefaultMaxLimit)
	case o.MaxLimit >= math.MaxInt32:
		return fmt.Errorf("pagination options: MaxLimit is %d: must be below %d", o.MaxLimit, math.MaxInt32)
	case d > m:
		return fmt.Errorf("pagination options: DefaultLimit %d exceeds MaxLimit %d", d, m)
	}
	return nil
}

func (o Options) effective() (def, max int) {
	def, max = o.DefaultLimit, o.MaxLimit
	if max == 0 {
		max = DefaultMaxLimit
	}
	if def == 0 {
		def = min(DefaultLimit, max)
	}
	return def, max
}

// Limit returns the page size a request gets under these options: the
// default when absent, lowered to MaxLimit when larger, and an
// *rpcerr.InvalidParams at LimitPointer when below 1.
func (o Options) Limit(requested *int) (int, error) {
	if err := o.Validate(); err != nil {
		return 0, err
	}
	def, max := o.effective()
	if requested == nil {
		return def, nil
	}
	n := *requested
	if n < 1 {
		return 0, rpcerr.Invalid(LimitPointer, "minimum", "must be at least 1, got %d", n)
	}
	if n > max {
		return max, nil
	}
	return n, nil
}

// Page is one page of results plus what the response's pagination object
// needs.
type Page[L any] struct {
	Items []L
	// HasNextPage reports whether another page exists.
	HasNextPage bool
	// Cursor resumes after the last item; it is non-empty exactly when
	// HasNextPage is true.
	Cursor string
	// TotalCount is set only when the store could count matches cheaply.
	TotalCount *int
	// Limit is the page size applied, after the default and maximum.
	Limit int
}

// Fetch serves one page of a keyset-paginated search.
//
// It resolves the page size (see Options.Limit), verifies the request's cursor
// against digest (see Signer.Verify), and asks source for limit+1 items in the
// store's stable order strictly after the cursor's sort key (nil after means
// from the start). The extra item only tells whether a next page exists; it is
// not returned, and the next cursor carries key() of the last returned item, so
// items inserted or deleted between pages never cause a repeat or a skip of an
// item that existed throughout.
//
// count, when non-nil, supplies total_count; it reports ok=false when the
// store cannot count cheaply. Errors from source and count are wrapped; a
// source returning more than limit+1 items is an error, not a silent trim.
func Fetch[L any](
	ctx context.Context,
	s *Signer,
	opts Options,
	req Request,
	digest [32]byte,
	source func(ctx context.Context, after *string, n int) ([]L, error),
	key func(L) string,
	count func(ctx context.Context) (int, bool, error),
) (Page[L], error) {
	var zero Page[L]
	if s == nil {
		return zero, errors.New("pagination: signer is nil")
	}
	if source == nil {
		return zero, errors.New("pagination: source hook is nil")
	}
	if key == nil {
		return zero, errors.New("pagination: key function is nil")
	}
	limit, err := opts.Limit(req.Limit)
	if err != nil {
		return zero, err
	}
	var after *string
	if req.Cursor != nil {
		k, err := s.Verify(*req.Cursor, digest)
		if err != nil {
			return zero, err
		}
		after = &k
	}

	items, err := source(ctx, after, limit+1)
	if err != nil {
		return zero, fmt.Errorf("pagination: source: %w", err)
	}
	if len(items) > limit+1 {
		return zero, fmt.Errorf("pagination: source returned %d items, asked for at most %d", len(items), limit+1)
	}

	page := Page[L]{Items: items, Limit: limit}
	if len(items) > limit {
		page.Items = items[:limit:limit]
		page.HasNextPage = true
		c, err := s.Sign(key(page.Items[limit-1]), digest)
		if err != nil {
			return zero, fmt.Errorf("pagination: next cursor: %w", err)
		}
		page.Cursor = c
	}

	if count != nil {
		n, ok, err := count(ctx)
		if err != nil {
			return zero, fmt.Errorf("pagination: count: %w", err)
		}
		if ok {
			if n < 0 {
				return zero, fmt.Errorf("pagination: count returned %d: must not be negative", n)
			}
			page.TotalCount = &n
		}
	}
	return page, nil
}
