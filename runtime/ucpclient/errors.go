package ucpclient

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// What a call may fail with besides these types: *rpcerr.InvalidParams when
// the Business refused the request's arguments (-32602 over MCP, 400
// invalid_params over REST; pointers are relative to the request body over
// both), *rpcerr.Transport for 401, 403, 409, 429 and 503 (-32000 over MCP),
// and *rpcerr.Discovery when the Business could not use the Platform's
// profile (-32001, REST 400/422/424). Each is wrapped in a *CallError.

// ErrTooLarge marks an answer larger than Options.MaxResponseBytes; the rest
// of it was never read.
var ErrTooLarge = errors.New("answer exceeds the size cap")

// NotAdvertisedError is a call to a tool whose capability the Business does
// not advertise at the Conn's version; nothing was sent.
type NotAdvertisedError struct {
	Tool, Capability string
	Advertised       []string
}

func (e *NotAdvertisedError) Error() string {
	return fmt.Sprintf("ucpclient: %s: the Business does not advertise %s (it advertises %s); nothing was sent", e.Tool, e.Capability, strings.Join(e.Advertised, ", "))
}

// CallError is a call that did not return a valid answer: Err says why.
type CallError struct {
	Tool, Transport, Endpoint string
	// RequestID is the Request-Id of the last attempt.
	RequestID string
	Err       error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("ucpclient: %s over %s at %s (Request-Id %s): %v", e.Tool, e.Transport, e.Endpoint, e.RequestID, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// InvalidResponseError is an answer that fails the response schema of its
// tool; no part of it is returned.
type InvalidResponseError struct {
	Violations []rpcerr.Violation
	// Err is the decoder's error when it is not a list of violations (the
	// answer is not JSON).
	Err error
}

func (e *InvalidResponseError) Error() string {
	if len(e.Violations) == 0 {
		return fmt.Sprintf("the answer is not a valid response: %v", e.Err)
	}
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return "the answer fails the response schema: " + strings.Join(parts, "; ")
}

func (e *InvalidResponseError) Unwrap() error { return e.Err }

// StatusError is any other refusal: an HTTP status or JSON-RPC error the
// UCP bindings give no typed meaning (404, 415, 500, -32603, ...).
type StatusError struct {
	// HTTPStatus is the HTTP status, 0 for a JSON-RPC error over HTTP 200.
	HTTPStatus int
	// RPCCode is the JSON-RPC error code over MCP, 0 over REST.
	RPCCode int64
	// Code is the REST refusal's code member, when it had one.
	Code    string
	Message string
}

func (e *StatusError) Error() string {
	var b strings.Builder
	if e.HTTPStatus != 0 {
		fmt.Fprintf(&b, "HTTP %d", e.HTTPStatus)
	}
	if e.RPCCode != 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "JSON-RPC %d", e.RPCCode)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	return b.String()
}
