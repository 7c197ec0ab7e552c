package mcpserver

// This file covers the context the SDK runs a tool handler under. It is
// the MCP session's, not the HTTP request's: in stateless mode it carries
// the request's values but never its cancellation for protocol versions
// before 2026-07-28 (StreamableHTTPOptions.PropagateRequestCancellation,
// which Handler sets, covers only 2026-07-28 and later), so a hook would
// go on working after the caller left; in stateful mode it is the context
// of the request that opened the session, so its values belong to another
// request. Upstream: modelcontextprotocol/go-sdk issue 1093 (closed by
// adding PropagateRequestCancellation for the new protocol only); for the
// stateful values no upstream issue was found as of 2026-12.
//
// So Handler keeps each request's state in a table of its own (calls, no
// package-level state), under a random key it sets in requestKeyHeader,
// and puts the table in the request context; whichever request's context
// the SDK hands the tool handler, it came through the same Handler and
// carries the same table, and RequestExtra.Header names the request that
// carries this call. TestSDKToolContextOutlivesTheRequest and
// TestSDKStatefulToolContextIsTheSessions (sdk_test.go) show both
// behaviours against the pinned SDK and fail once the SDK hands the
// handler the request's own context; callerContext and the table can then
// go, and the state travel as a context value.

import (
	"context"
	"crypto/rand"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// requestKeyHeader carries, from Handler to the tool handler, the key of
// the HTTP request's state in the Handler's call table. Handler overwrites
// any value a client sent, and keys are random, so a caller cannot reach
// another request's state.
const requestKeyHeader = "X-Ucpgen-Request-Key"

// callTable is one Handler's requests in flight, by their request key.
type callTable struct {
	mu sync.Mutex
	m  map[string]*callState
}

type callTableKey struct{}

// open registers a request's state and returns the request, carrying its
// key and the table, and a func that forgets the state once the SDK has
// answered.
func (t *callTable) open(r *http.Request, c *callState) (*http.Request, func()) {
	key := rand.Text()
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]*callState{}
	}
	t.m[key] = c
	t.mu.Unlock()
	r = r.WithContext(context.WithValue(r.Context(), callTableKey{}, t))
	r.Header.Set(requestKeyHeader, key)
	return r, func() {
		t.mu.Lock()
		delete(t.m, key)
		t.mu.Unlock()
	}
}

// callOf is the state of the HTTP request that carried a tool call: ctx is
// the tool handler's, header the request's (RequestExtra.Header). It is nil
// for a call that did not come through Handler (stdio, a plain SDK
// handler).
func callOf(ctx context.Context, header http.Header) *callState {
	t, _ := ctx.Value(callTableKey{}).(*callTable)
	if t == nil || header == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[header.Get(requestKeyHeader)]
}

// callState is what the HTTP layer and the tool handler share about one
// request: its context, and what the tool handler reports back.
type callState struct {
	ctx context.Context
	// limit is the endpoint's MaxResponseBytes, which the tool handler
	// checks before it builds the SDK's result.
	limit    int64
	mu       sync.Mutex
	err      *jsonrpc.Error
	overflow bool
	// ran is the endpoint of the Add-ed tool that ran, which the direct
	// path learns from.
	ran *ucpcore.Endpoint
}

// noteOverflow records that the answer would exceed the bound.
func (c *callState) noteOverflow() {
	c.mu.Lock()
	c.overflow = true
	c.mu.Unlock()
}

func (c *callState) overflowed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.overflow
}

// noteError records the error the tool handler returned.
func (c *callState) noteError(err *jsonrpc.Error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
}

func (c *callState) toolError() *jsonrpc.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// noteRan records the endpoint whose tool ran.
func (c *callState) noteRan(ep *ucpcore.Endpoint) {
	c.mu.Lock()
	c.ran = ep
	c.mu.Unlock()
}

func (c *callState) endpoint() *ucpcore.Endpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ran
}

// callerContext returns ctx with the call state of the HTTP request that
// carried the call (its budget, observer and note), cancelled as well when
// that request ends (the client went away or the server shut down).
func callerContext(ctx context.Context, call *callState) (context.Context, context.CancelFunc) {
	caller := call.ctx
	ctx = ucpcore.CarryCall(ctx, caller)
	if n := NoteOf(caller); n != nil {
		ctx = context.WithValue(ctx, noteKey{}, n)
	}
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	return merged, func() {
		stop()
		cancel(nil)
	}
}
