package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// ErrInternal is what Endpoint.Call returns for a fault that is not the
// caller's (a hook error, a panic, an answer over the bound): the cause is
// logged and never reaches the client.
var ErrInternal = errors.New("internal error")

// Endpoint is one tool as a transport other than MCP (the REST binding)
// calls it: the same decode, validate, charge, negotiate, run, encode and
// recover path as a tools/call, so both transports answer alike.
type Endpoint struct {
	tool Tool
	opts *Options
}

// NewEndpoint prepares t for calls from another transport; opts are the
// same options the MCP registration of t uses.
func NewEndpoint(t Tool, opts *Options) *Endpoint {
	if opts == nil {
		opts = &Options{}
	}
	t.empty, t.emptyErr = requiredEmpty(t.OutputSchema)
	return &Endpoint{tool: t, opts: opts}
}

// Tool is the tool the endpoint calls.
func (e *Endpoint) Tool() Tool { return e.tool }

// Call runs one call with arguments, the object a tools/call would carry
// ({meta, location}). It returns the canonical response body (the bytes MCP
// sends as structuredContent), or an *rpcerr.InvalidParams (pointers from
// the arguments root), *rpcerr.Transport or *rpcerr.Discovery, or
// ErrInternal. Under a context from WithBudget the call is charged there.
func (e *Endpoint) Call(ctx context.Context, arguments json.RawMessage) (body []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.opts.logger().Error("ucp tool panicked", "tool", e.tool.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			body, err = nil, ErrInternal
		}
	}()
	rep, err := serve(ctx, e.tool, e.opts, arguments)
	if err != nil {
		if _, ok := rpcerr.AsInvalidParams(err); ok {
			return nil, err
		}
		if _, ok := rpcerr.AsTransport(err); ok {
			return nil, err
		}
		if _, ok := rpcerr.AsDiscovery(err); ok {
			return nil, err
		}
		e.opts.logger().Error("ucp tool failed", "tool", e.tool.Name, "err", err)
		return nil, ErrInternal
	}
	if limit := e.opts.maxResponse(0); int64(len(rep.body)) > limit {
		e.opts.logger().Error("ucp response exceeded the bound and was replaced by an error", "tool", e.tool.Name, "limit", limit)
		return nil, ErrInternal
	}
	return rep.body, nil
}
