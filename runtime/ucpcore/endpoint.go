package ucpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/jsonmember"
)

// ErrInternal stands for a fault that is not the caller's (a hook error, a
// panic, an answer over the bound): transports answer it with their
// internal-error shape, and its cause is logged, never sent.
var ErrInternal = errors.New("internal error")

// Endpoint is one tool ready to be called by any transport: the Tool, its
// Options, and what the core works out once from the tool's output schema.
// Every transport calls the same Endpoint.Call, so MCP and REST decode,
// validate, charge, negotiate, run, encode and recover alike.
type Endpoint struct {
	tool Tool
	opts *Options
	// empty and emptyErr are requiredEmpty(tool.OutputSchema).
	empty    []emptyMember
	emptyErr error
	// fixed is the negotiator of calls without opts.Negotiator, made once
	// per release rather than once per call (see negotiator).
	fixed atomic.Pointer[fixedNegotiator]
}

// fixedNegotiator is envelope.Fixed at version for the endpoint's tool.
type fixedNegotiator struct {
	version string
	neg     envelope.Negotiator
}

// negotiator is opts.Negotiator, or the fixed one that answers at
// opts.Version, made again only if Version has changed since.
func (e *Endpoint) negotiator() envelope.Negotiator {
	if n := e.opts.Negotiator; n != nil {
		return n
	}
	v := e.opts.version()
	if f := e.fixed.Load(); f != nil && f.version == v {
		return f.neg
	}
	f := &fixedNegotiator{version: v, neg: envelope.Fixed(v, map[string]string{e.tool.Capability: v})}
	e.fixed.Store(f)
	return f.neg
}

// NewEndpoint prepares t for calls with opts (nil: the zero Options).
func NewEndpoint(t Tool, opts *Options) *Endpoint {
	if opts == nil {
		opts = &Options{}
	}
	e := &Endpoint{tool: t, opts: opts}
	e.empty, e.emptyErr = requiredEmpty(t.OutputSchema)
	return e
}

// Tool is the tool the endpoint calls.
func (e *Endpoint) Tool() Tool { return e.tool }

// Options are the options the endpoint calls its tool with.
func (e *Endpoint) Options() *Options { return e.opts }

// Call runs one call with arguments, the object a tools/call would carry
// ({meta, location}), and returns the canonical response body (compact,
// HTML-escaped, as encoding/json writes it: the bytes MCP sends as
// structuredContent). Its error is what the pipeline met: an
// *rpcerr.InvalidParams (pointers from the arguments root),
// *rpcerr.Transport or *rpcerr.Discovery, a hook's own error (which a
// transport must log and not send), or ErrInternal for a panic, which is
// logged here with its stack. Under a context from WithBudget the call is
// charged there. The body is the caller's; once written it may be given
// back with RecycleBody.
func (e *Endpoint) Call(ctx context.Context, arguments json.RawMessage) (body []byte, err error) {
	body, _, err = e.CallSpans(ctx, arguments)
	return body, err
}

// CallSpans is Call that also returns where the body copies encodings its
// Source keeps (see jsonenc.Span), for a transport that repeats the body
// as a JSON string: it copies their escaped text instead of escaping them.
func (e *Endpoint) CallSpans(ctx context.Context, arguments json.RawMessage) (body []byte, spans []jsonenc.Span, err error) {
	return e.callSpans(ctx, arguments, jsonmember.Each)
}

// CallSpansScanned is CallSpans for arguments the transport already knows
// to be well-formed JSON, such as the arguments of an MCP request it
// scanned or decoded whole: the core's own walks over them (the split into
// parameters, the profile) then skip checking the syntax a second time.
// Given malformed arguments it still never panics, but which error it
// returns is unspecified.
func (e *Endpoint) CallSpansScanned(ctx context.Context, arguments json.RawMessage) (body []byte, spans []jsonenc.Span, err error) {
	return e.callSpans(ctx, arguments, jsonmember.EachValid)
}

// memberWalk is how the core walks the members of an object in the
// arguments: jsonmember.Each, or EachValid for well-formed arguments.
type memberWalk func(obj []byte, f func(key string, value json.RawMessage) error) error

func (e *Endpoint) callSpans(ctx context.Context, arguments json.RawMessage, walk memberWalk) (body []byte, spans []jsonenc.Span, err error) {
	defer func() {
		// A panic in a hook must not end the process and every call in it
		// (the MCP SDK runs each request in its own goroutine without a
		// recover).
		if p := recover(); p != nil {
			LoggerOf(e.opts).Error("ucp tool panicked", "tool", e.tool.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			body, spans, err = nil, nil, ErrInternal
		}
	}()
	return serve(ctx, e, arguments, walk)
}

// LoggerOf is opts.Logger, or slog.Default when it is nil or opts is nil,
// so every transport logs a tool's faults to the same place.
func LoggerOf(opts *Options) *slog.Logger {
	if opts != nil && opts.Logger != nil {
		return opts.Logger
	}
	return slog.Default()
}

// buffers recycles response bodies, which would otherwise allocate (and
// collect) two or three times a page's size per call.
var buffers sync.Pool

// maxPooledBuffer keeps one unusually large answer from pinning its buffer.
const maxPooledBuffer = 1 << 20

// Buffer is an empty buffer from the pool RecycleBody returns to, so a
// transport's own frames reuse memory the way bodies do.
func Buffer() []byte {
	if p, ok := buffers.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return make([]byte, 0, 16<<10)
}

// RecycleBody gives back a body returned by Endpoint.Call (or any buffer a
// transport is done with) for the next call to reuse. Call it only once
// nothing refers to b any more; a transport that hands the body to code
// that may keep it (an SDK) must not.
func RecycleBody(b []byte) {
	if b == nil || cap(b) > maxPooledBuffer {
		return
	}
	b = b[:0]
	buffers.Put(&b)
}
