// Package ucpcore is the transport-neutral core of a UCP Business server:
// the table of operations generated code describes (Tool), the one path
// every call takes (decode, validate, charge, negotiate, run, encode,
// recover), the options of that path, the admission budget and rate limits
// every transport draws on, and the Business profile (services,
// capabilities, supported_versions).
//
// Transports are adapters over it: runtime/mcpserver serves the tools over
// MCP, runtime/restserver over UCP's REST binding, and neither knows the
// other. The core knows nothing about any UCP service: generated code
// supplies each tool's params and a Bind that decodes and validates them.
// The one argument name it reads is MetaParam, which the binding defines
// for every tool.
package ucpcore

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/ucpgen/ucpgen/runtime/envelope"
)

// Default bounds every transport applies unless told otherwise.
const (
	// DefaultMaxBodyBytes bounds one request body.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultMaxResponseBytes bounds one answer.
	DefaultMaxResponseBytes = 8 << 20
)

// Options configure every tool of one Business, whatever transport calls
// it, so MCP and REST answer a call alike.
type Options struct {
	// Negotiator resolves the Platform profile of each request. Nil means
	// negotiation is disabled: requests are processed at the Business's own
	// version and capabilities (see envelope.Fixed), which suits trusted
	// deployments and tests. runtime/domain/negotiation provides the real one.
	Negotiator envelope.Negotiator
	// Version is the UCP protocol version the Business implements; used when
	// Negotiator is nil. The generated Register sets it to the generated
	// package's ProtocolVersion when it is empty.
	Version string
	// InvalidArgumentsAsToolErrors reports invalid arguments as a tool result
	// with isError true (the MCP 2025-11-25 guidance) instead of a JSON-RPC
	// -32602 error. Off by default because the UCP binding mandates -32602.
	InvalidArgumentsAsToolErrors bool
	// ValidateOutput decodes and validates every response before it is sent
	// and turns a violation into -32603 (and a log line); for tests and debug
	// builds.
	ValidateOutput bool
	// DescribedOutputSchemas makes the generated Register advertise output
	// schemas with their descriptions, for clients that show output docs;
	// off by default because models never read them and they add about
	// 25 KB to every tools/list.
	DescribedOutputSchemas bool
	// MaxResponseBytes bounds one answer on every transport; default
	// DefaultMaxResponseBytes. The bound is checked on the encoded body,
	// before the SDK's result (which repeats the body as text) is built, so
	// an answer over it costs no copies; it becomes -32603.
	MaxResponseBytes int64
	// Logger receives unexpected hook errors, which are never sent to clients.
	Logger *slog.Logger
}

// ResponseLimit is the bound on one answer: MaxResponseBytes, or limit
// (the transport's own bound) when that is smaller; it exists so every
// transport refuses the same oversized answers.
func (o *Options) ResponseLimit(limit int64) int64 {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	if o.MaxResponseBytes > 0 {
		limit = min(limit, o.MaxResponseBytes)
	}
	return limit
}

// Run calls a tool's hook with already-validated arguments and returns the
// response value (JSON-encodable); errors are typed runtime errors or plain ones.
type Run func(ctx context.Context) (any, error)

// MetaParam is the tool argument the UCP MCP binding defines for request
// metadata: its ucp-agent.profile is the Platform profile negotiation reads.
// It is the only argument name the runtime knows; every other one comes from
// the generated Params.
const MetaParam = "meta"

// Param is one argument of a tool as its OpenRPC method lists it: the
// member name in tools/call arguments, and whether the call must carry it.
type Param struct {
	Name     string
	Required bool
}

// Tool is one generated operation as every transport sees it: its name,
// schemas and params, and the Bind that turns arguments into a hook call.
type Tool struct {
	Name        string
	Title       string
	Description string
	// Capability is the UCP capability the tool implements, e.g.
	// dev.ucp.common.location.search.
	Capability   string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Params are the tool's arguments in method order. The runtime accepts
	// exactly these members in tools/call arguments, each at most once, and
	// refuses a call that lacks a required one.
	Params []Param
	// Bind decodes and validates the arguments and returns the hook call to
	// run once negotiation succeeded. args[i] is the raw JSON of Params[i],
	// nil when an optional argument is absent. Its errors are
	// *rpcerr.InvalidParams with pointers from the arguments root
	// (/<name>/...).
	Bind func(args []json.RawMessage) (Run, error)
	// CheckOutput validates an encoded response (used with ValidateOutput).
	CheckOutput func(data []byte) error
}
