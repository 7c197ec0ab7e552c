package ucpclient

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Request is a generated request type: it validates itself and encodes
// itself exactly as the generated decoders read it.
type Request interface {
	Validate() error
	AppendJSON(b []byte) ([]byte, error)
}

// Call validates req, sends it as tool's argument and decodes the answer
// with decode, the generated decoder of the tool's response, which rejects
// anything the response schema does not accept. It is what each typed
// method of a generated client is.
func Call[Resp any](ctx context.Context, c *Conn, tool string, req Request, decode func([]byte) (*Resp, error)) (*Resp, error) {
	t, err := c.tool(tool)
	if err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, fmt.Errorf("ucpclient: %s: the request was not sent: %w", tool, err)
	}
	body, err := req.AppendJSON(nil)
	if err != nil {
		return nil, fmt.Errorf("ucpclient: %s: encode the request: %w", tool, err)
	}
	answer, id, err := c.send(ctx, t, body)
	if err != nil {
		return nil, c.callError(t, id, err)
	}
	resp, err := decode(answer)
	if err != nil {
		ir := &InvalidResponseError{Err: err}
		if ip, ok := rpcerr.AsInvalidParams(err); ok {
			ir.Violations = ip.Bounded().Violations
		}
		return nil, c.callError(t, id, ir)
	}
	return resp, nil
}

// tool is the named tool, once its capability is known to be advertised.
func (c *Conn) tool(name string) (Tool, error) {
	t, ok := c.tools[name]
	if !ok {
		return Tool{}, fmt.Errorf("ucpclient: %s is not a tool of %s %s", name, c.svc.Name, c.svc.Version)
	}
	if !c.caps[t.Capability] {
		return Tool{}, &NotAdvertisedError{Tool: name, Capability: t.Capability, Advertised: c.Capabilities()}
	}
	return t, nil
}

func (c *Conn) callError(t Tool, id string, err error) error {
	return &CallError{Tool: t.Name, Transport: c.biz.Transport, Endpoint: c.biz.Endpoint, RequestID: id, Err: err}
}

// send makes one call, again after each 429 or 503 while retries are left
// and the Business asks for a wait within MaxRetryAfter and the deadline.
// It returns the answer body and the Request-Id of the last attempt.
func (c *Conn) send(ctx context.Context, t Tool, body []byte) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.CallTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		id := newRequestID()
		var answer []byte
		var err error
		if c.biz.Transport == REST {
			answer, err = c.sendREST(ctx, t, id, body)
		} else {
			answer, err = c.sendMCP(ctx, t, id, body)
		}
		if err == nil {
			return answer, id, nil
		}
		wait, retry := c.retryAfter(ctx, err, attempt)
		if !retry {
			return nil, id, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, id, fmt.Errorf("%w (while waiting %s to retry after: %w)", ctx.Err(), wait, err)
		}
	}
}

// retryAfter says whether err is a 429 or 503 worth another attempt, and
// how long to wait first.
func (c *Conn) retryAfter(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	tr, ok := rpcerr.AsTransport(err)
	if !ok || (tr.HTTPStatus != 429 && tr.HTTPStatus != 503) || attempt >= c.opts.Retries {
		return 0, false
	}
	wait := tr.RetryAfter
	if wait > c.opts.MaxRetryAfter {
		return 0, false
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= wait {
		return 0, false
	}
	return wait, true
}

// newRequestID is a random (version 4) UUID.
func newRequestID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// Page is what Pages needs of a paginated response: the cursor of the next
// page, if there is one.
type Page interface {
	// NextCursor is the cursor of the page after this one; more is false
	// on the last page.
	NextCursor() (cursor string, more bool, err error)
}

// ErrCursorLoop marks a Business that handed back a cursor it had already
// given in the same walk, which would repeat pages forever.
var ErrCursorLoop = errors.New("the Business repeated a cursor")

// Pages walks every page of a paginated tool: first is sent as given, and
// each later request is at(cursor), where cursor is the one the previous
// page of this walk returned and nothing else. It stops after the last
// page, at the first error (yielded), or when the loop breaks.
func Pages[Resp Page](ctx context.Context, first func(context.Context) (Resp, error), at func(ctx context.Context, cursor string) (Resp, error)) iter.Seq2[Resp, error] {
	return func(yield func(Resp, error) bool) {
		var zero Resp
		page, err := first(ctx)
		seen := map[string]bool{}
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			if !yield(page, nil) {
				return
			}
			cursor, more, cerr := page.NextCursor()
			if cerr != nil {
				yield(zero, cerr)
				return
			}
			if !more {
				return
			}
			if seen[cursor] {
				yield(zero, fmt.Errorf("ucpclient: %w %q; the walk stops", ErrCursorLoop, rpcerr.Truncate(cursor, 64)))
				return
			}
			seen[cursor] = true
			page, err = at(ctx, cursor)
		}
	}
}

// Items flattens pages into their items (items reads them off a page), so a
// walk reads as one list; an error ends it, yielded once.
func Items[Resp, Item any](pages iter.Seq2[Resp, error], items func(Resp) []Item) iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		var zero Item
		for page, err := range pages {
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items(page) {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}
