// Package lookup holds the store-agnostic bookkeeping of the UCP Location
// Lookup capability: identifier de-duplication, the batch maximum, merging of
// Locations reached through several identifiers, refinement, and the info
// messages (batch_limit_applied, not_found) the response carries.
//
// The package knows nothing about MCP, generated types or the predicate
// engine: the store resolves identifiers through a hook, and refinement
// (distance, serves, filters) is passed in as a function.
package lookup

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// DefaultBatchMax is the number of distinct identifiers processed per request
// when Options.BatchMax is zero, chosen well above the spec's floor so typical
// Platform batches are never cut.
const DefaultBatchMax = 50

// MinBatchMax is the smallest batch maximum Options accepts, because the spec
// says a Business SHOULD accept at least 10 distinct identifiers.
const MinBatchMax = 10

// Message codes this package emits, named so callers and tests do not repeat
// string literals.
const (
	CodeBatchLimitApplied = "batch_limit_applied"
	CodeNotFound          = "not_found"
)

// IDsPointer is the JSON Pointer of the identifier list in the tool call's
// arguments, used when the list itself is rejected.
const IDsPointer = "/ids"

// Options configures one Business's lookup behaviour; the zero value is the
// recommended configuration.
type Options struct {
	// BatchMax is the number of distinct identifiers processed per request.
	// Zero means DefaultBatchMax. Values from 1 to MinBatchMax-1 and negative
	// values are rejected (see Validate) rather than silently raised, so an
	// operator's configuration never means something other than it says.
	BatchMax int
	// NotFoundMessages, when nil or true, adds one info not_found message per
	// processed identifier that resolved to no Location.
	NotFoundMessages *bool
}

// Validate reports a configuration Resolve would refuse, so a server can fail
// at start-up rather than on its first lookup.
func (o Options) Validate() error {
	switch {
	case o.BatchMax < 0:
		return fmt.Errorf("lookup options: BatchMax is %d: must be 0 (default %d) or at least %d", o.BatchMax, DefaultBatchMax, MinBatchMax)
	case o.BatchMax > 0 && o.BatchMax < MinBatchMax:
		return fmt.Errorf("lookup options: BatchMax is %d: a Business should accept at least %d distinct identifiers per request", o.BatchMax, MinBatchMax)
	}
	return nil
}

func (o Options) batchMax() int {
	if o.BatchMax == 0 {
		return DefaultBatchMax
	}
	return o.BatchMax
}

func (o Options) notFound() bool {
	return o.NotFoundMessages == nil || *o.NotFoundMessages
}

// Message is one informational message for the response's messages array;
// Type is always "info" here because lookup outcomes are never errors.
type Message struct {
	Type    string
	Code    string
	Content string
}

// Entry is one returned Location together with every request identifier that
// resolved to it, exactly as supplied and in request order, which the
// response's inputs array needs.
type Entry[L any] struct {
	Location L
	Inputs   []string
}

// Result is what a lookup produced, ready to be rendered into a response.
type Result[L any] struct {
	// Entries are the Locations that survived refinement, in the order each
	// Location was first resolved (the spec leaves order unspecified; this one
	// is deterministic for a deterministic store).
	Entries []Entry[L]
	// Messages holds batch_limit_applied first (when the batch was cut), then
	// not_found messages in request order (when enabled).
	Messages []Message
	// Processed lists the distinct identifiers that were resolved, in
	// request order.
	Processed []string
	// Unprocessed counts the distinct identifiers cut by the batch maximum.
	Unprocessed int
}

// Resolve runs a lookup: it de-duplicates ids (exact string equality, first
// occurrence kept), processes at most the batch maximum of them in request
// order, resolves each through resolve (never for the cut suffix), merges
// Locations that share a key, applies keep once per distinct Location, and
// builds the info messages.
//
// resolve returns zero, one or many Locations for one identifier (a canonical
// id or an alias); its errors are returned wrapped with the identifier. key
// gives the canonical identity used to merge Locations. keep is the refinement
// (nil keeps everything); its errors are returned wrapped, so an
// *rpcerr.InvalidParams from a predicate engine stays reachable by errors.As.
// An empty ids list yields an *rpcerr.InvalidParams at /ids.
func Resolve[L any](
	ctx context.Context,
	ids []string,
	opts Options,
	resolve func(ctx context.Context, id string) ([]L, error),
	key func(L) string,
	keep func(ctx context.Context, l L) (bool, error),
) (Result[L], error) {
	if resolve == nil {
		return Result[L]{}, errors.New("lookup: resolve hook is nil")
	}
	// One call per identifier and per Location, through the batched path,
	// so both entry points share one set of rules.
	all := func(ctx context.Context, ids []string) (map[string][]L, error) {
		out := make(map[string][]L, len(ids))
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%q: %w", id, err)
			}
			locs, err := resolve(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", id, err)
			}
			if len(locs) > 0 {
				out[id] = locs
			}
		}
		return out, nil
	}
	var refine func(ctx context.Context, locs []L) ([]bool, error)
	if keep != nil {
		refine = func(ctx context.Context, locs []L) ([]bool, error) {
			ok := make([]bool, len(locs))
			for i, l := range locs {
				v, err := keep(ctx, l)
				if err != nil {
					return nil, fmt.Errorf("%q: %w", key(l), err)
				}
				ok[i] = v
			}
			return ok, nil
		}
	}
	return ResolveAll(ctx, ids, opts, all, key, refine)
}

// ResolveAll is Resolve for a store that answers in batches: resolveAll gets
// every processed identifier (distinct, request order, never the cut suffix)
// in one call and returns the Locations each one names (an identifier absent
// from the map resolved to nothing), and refine gets every distinct resolved
// Location in one call and reports which ones to keep (nil keeps all). A
// lookup then costs one resolveAll call and at most one refine call, however
// many identifiers it carries, so a database makes one round trip, not one
// per identifier. Errors are wrapped; an *rpcerr.InvalidParams stays
// reachable by errors.As.
func ResolveAll[L any](
	ctx context.Context,
	ids []string,
	opts Options,
	resolveAll func(ctx context.Context, ids []string) (map[string][]L, error),
	key func(L) string,
	refine func(ctx context.Context, locs []L) ([]bool, error),
) (Result[L], error) {
	var zero Result[L]
	if err := opts.Validate(); err != nil {
		return zero, err
	}
	if resolveAll == nil {
		return zero, errors.New("lookup: resolve hook is nil")
	}
	if key == nil {
		return zero, errors.New("lookup: key function is nil")
	}
	if len(ids) == 0 {
		return zero, rpcerr.Invalid(IDsPointer, "minItems", "must hold at least one identifier")
	}
	distinct := dedupe(ids)
	max := opts.batchMax()
	processed := distinct
	unprocessed := 0
	if len(distinct) > max {
		processed = distinct[:max:max]
		unprocessed = len(distinct) - max
	}
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf("lookup: resolve: %w", err)
	}
	byID, err := resolveAll(ctx, append([]string(nil), processed...))
	if err != nil {
		return zero, fmt.Errorf("lookup: resolve %d identifiers: %w", len(processed), err)
	}
	type slot struct {
		loc    L
		inputs []string
	}
	var slots []*slot
	byKey := make(map[string]*slot)
	var missing []string
	for _, id := range processed {
		locs := byID[id]
		if len(locs) == 0 {
			missing = append(missing, id)
			continue
		}
		for _, l := range locs {
			k := key(l)
			if k == "" {
				return zero, fmt.Errorf("lookup: resolve %q: a returned Location has an empty key", id)
			}
			s, seen := byKey[k]
			if !seen {
				s = &slot{loc: l}
				byKey[k] = s
				slots = append(slots, s)
			}
			if n := len(s.inputs); n == 0 || s.inputs[n-1] != id {
				s.inputs = append(s.inputs, id)
			}
		}
	}
	keep := make([]bool, len(slots))
	for i := range keep {
		keep[i] = true
	}
	if refine != nil && len(slots) > 0 {
		locs := make([]L, len(slots))
		for i, s := range slots {
			locs[i] = s.loc
		}
		got, err := refine(ctx, locs)
		if err != nil {
			return zero, fmt.Errorf("lookup: refine %d locations: %w", len(locs), err)
		}
		if len(got) != len(locs) {
			return zero, fmt.Errorf("lookup: refine returned %d answers for %d locations", len(got), len(locs))
		}
		keep = got
	}
	entries := make([]Entry[L], 0, len(slots))
	for i, s := range slots {
		if keep[i] {
			entries = append(entries, Entry[L]{Location: s.loc, Inputs: s.inputs})
		}
	}
	return Result[L]{
		Entries:     entries,
		Messages:    messages(opts, max, len(distinct), unprocessed, missing),
		Processed:   append([]string(nil), processed...),
		Unprocessed: unprocessed,
	}, nil
}

// messages builds batch_limit_applied (when the batch was cut) and then one
// not_found per missing identifier (when enabled), in request order.
func messages(opts Options, max, distinct, unprocessed int, missing []string) []Message {
	var msgs []Message
	if unprocessed > 0 {
		msgs = append(msgs, Message{Type: "info", Code: CodeBatchLimitApplied, Content: batchLimitContent(max, distinct)})
	}
	if opts.notFound() {
		for _, id := range missing {
			msgs = append(msgs, Message{Type: "info", Code: CodeNotFound, Content: "Unable to find the location associated with " + displayID(id) + "."})
		}
	}
	return msgs
}

// dedupe keeps the first occurrence of each identifier, in request order,
// comparing bytes exactly so that no identifier is normalised into another.
func dedupe(ids []string) []string {
	seen := make(map[string]struct{}, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if _, dup := seen[id]; dup {
			continue
		}
		seen[id] = struct{}{}
		out = append(out, id)
	}
	return out
}

// batchLimitContent states the applied maximum and how many distinct
// identifiers were left out, with correct singular and plural forms.
func batchLimitContent(max, distinct int) string {
	left := distinct - max
	leftPart := "1 identifier was not processed"
	if left != 1 {
		leftPart = strconv.Itoa(left) + " identifiers were not processed"
	}
	return fmt.Sprintf("The batch maximum is %d: processed the first %d of %d distinct %s; %s.",
		max, max, distinct, pluralNoun(distinct, "identifier", "identifiers"), leftPart)
}

func pluralNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Identifiers longer than MaxEchoedID bytes are named in messages by their
// first EchoedPrefix bytes and their length, so that a lookup of unknown
// long identifiers cannot make its answer many times larger than itself.
const (
	MaxEchoedID  = 64
	EchoedPrefix = 40
)

// displayID names an identifier in a message: bare when it is plain printable
// text without spaces, quoted otherwise so control characters and blanks
// cannot garble the sentence; a long one by its quoted start and its length.
func displayID(id string) string {
	if id == "" {
		return strconv.Quote(id)
	}
	if len(id) > MaxEchoedID {
		cut := EchoedPrefix
		for cut > 0 && !utf8.RuneStart(id[cut]) {
			cut--
		}
		return strconv.Quote(id[:cut]+"…") + " (" + strconv.Itoa(len(id)) + " bytes)"
	}
	for _, r := range id {
		if !unicode.IsGraphic(r) || unicode.IsSpace(r) || r == '"' {
			return strconv.Quote(id)
		}
	}
	return id
}
