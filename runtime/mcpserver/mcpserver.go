// Package mcpserver serves the tools of runtime/ucpcore over MCP with the
// official Go SDK: Add registers a tool on an *mcp.Server, Handler serves
// the server over streamable HTTP (hardened in front of the SDK), and
// StdioTransport over newline-delimited stdio. The call itself (decode,
// validate, charge, negotiate, run, encode) is ucpcore's; this package maps
// its typed errors to the JSON-RPC codes the UCP MCP binding requires and
// returns structured content plus the same JSON as text.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// answerSize bounds from above the encoded JSON-RPC response that carries
// body both as structured content and as a text block: the body, the body
// as a JSON string, and the envelope.
func answerSize(body []byte) int64 {
	return int64(len(body)) + quotedLen(body) + 256
}

// answerFits reports whether answerSize(body)+extra is at most limit. The
// body is scanned only when its crude bound, every byte escaped to six,
// does not already settle it: a page far below the bound costs no pass.
func answerFits(body []byte, extra, limit int64) bool {
	if 7*int64(len(body))+2+256+extra <= limit {
		return true
	}
	return answerSize(body)+extra <= limit
}

// quotedLen bounds from above the length of body written as a JSON string:
// '"' and '\' take two bytes, other ASCII that needs escaping (controls,
// '<', '>', '&') six, and U+2028 and U+2029 six for three; invalid UTF-8 is
// counted at six bytes a byte.
func quotedLen(body []byte) int64 {
	if !utf8.Valid(body) {
		return 6*int64(len(body)) + 2
	}
	n := int64(2)
	for i, c := range body {
		switch {
		case c == '"' || c == '\\':
			n += 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += 6
		case c == 0xE2 && i+2 < len(body) && body[i+1] == 0x80 && (body[i+2] == 0xA8 || body[i+2] == 0xA9):
			n += 4
		default:
			n++
		}
	}
	return n
}

// Add registers t on server with opts; the same tool is also answered by
// Handler's direct path when HTTPOptions.DirectToolCalls is set.
func Add(server *mcp.Server, t ucpcore.Tool, opts *ucpcore.Options) {
	ep := ucpcore.NewEndpoint(t, opts)
	server.AddTool(&mcp.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  t.InputSchema,
		OutputSchema: t.OutputSchema,
	}, handler(ep))
}

func handler(ep *ucpcore.Endpoint) mcp.ToolHandler {
	name, opts := ep.Tool().Name, ep.Options()
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var call *callState
		if req.Extra != nil {
			call = callOf(ctx, req.Extra.Header)
		}
		if call != nil {
			// The HTTP request's budget, note and cancellation (see
			// sdkcontext.go), so the call is charged and stopped there.
			var cancel context.CancelFunc
			ctx, cancel = callerContext(ctx, call)
			defer cancel()
			call.noteRan(ep)
		}
		rep, rpcErr := invoke(ctx, ep, req.Params.Arguments)
		if rpcErr != nil {
			if call != nil {
				call.noteError(rpcErr)
			}
			return nil, rpcErr
		}
		var limit int64
		if call != nil {
			limit = call.limit
		}
		if limit = opts.ResponseLimit(limit); !answerFits(rep.body, 0, limit) {
			// Refused before toolResult copies the body into a string and
			// the SDK encodes both again.
			if call != nil {
				call.noteOverflow()
			}
			ucpcore.LoggerOf(opts).Error("mcp response exceeded the bound and was replaced by an error", "tool", name, "limit", limit)
			return nil, &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: fmt.Sprintf("response exceeds %d bytes", limit)}
		}
		return rep.toolResult(), nil
	}
}

// reply is a tool's answer: either body, the binding's success (the
// response as structured content and the same JSON as a text block), or
// res, a result of another shape (an isError result).
type reply struct {
	// body is the response in encoding/json's canonical form (compact,
	// HTML-escaped), so the direct path can write it without scanning it
	// again.
	body []byte
	// spans are where body copies encodings its Source keeps, whose
	// escaped text the direct path copies into the text block.
	spans []jsonenc.Span
	res   *mcp.CallToolResult
}

// toolResult is the reply as the SDK sends it. The success result is built
// here, on the SDK path only, since its text block copies the whole body.
func (r reply) toolResult() *mcp.CallToolResult {
	if r.body == nil {
		return r.res
	}
	return &mcp.CallToolResult{
		StructuredContent: json.RawMessage(r.body),
		Content:           []mcp.Content{&mcp.TextContent{Text: string(r.body)}},
	}
}

// invoke runs one call through the core and returns its result or the
// JSON-RPC error the binding prescribes. The arguments are always well
// formed: the direct path scanned the whole request, and the SDK decoded
// it with encoding/json, which checks the syntax of what it keeps raw.
func invoke(ctx context.Context, ep *ucpcore.Endpoint, args json.RawMessage) (reply, *jsonrpc.Error) {
	body, spans, err := ep.CallSpansScanned(ctx, args)
	if err != nil {
		res, rpcErr := toolError(err, ep.Options())
		return reply{res: res}, rpcErr
	}
	return reply{body: body, spans: spans}, nil
}

// toolError turns a typed error into the JSON-RPC error (or isError result)
// the UCP binding prescribes.
func toolError(err error, opts *ucpcore.Options) (*mcp.CallToolResult, *jsonrpc.Error) {
	if ip, ok := rpcerr.AsInvalidParams(err); ok && opts.InvalidArgumentsAsToolErrors {
		body, _ := json.Marshal(map[string]any{"error": "invalid arguments", "violations": violations(ip.Bounded())})
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}, nil
	}
	return nil, RPCError(err, opts.Logger)
}

func violations(ip *rpcerr.InvalidParams) []rpcerr.Violation {
	if len(ip.Violations) == 0 {
		return []rpcerr.Violation{}
	}
	return ip.Violations
}

// RPCError maps any error to the JSON-RPC error sent to the client. Errors
// that are not typed runtime errors become -32603 with a fixed message; their
// text goes to the logger only.
func RPCError(err error, logger *slog.Logger) *jsonrpc.Error {
	if ip, ok := rpcerr.AsInvalidParams(err); ok {
		// Bounded, so the refusal stays small whatever the request held.
		data, _ := json.Marshal(map[string]any{"violations": violations(ip.Bounded())})
		return &jsonrpc.Error{Code: rpcerr.CodeInvalidParams, Message: ip.Summary(), Data: data}
	}
	if tr, ok := rpcerr.AsTransport(err); ok {
		d := map[string]any{"status": tr.HTTPStatus}
		if tr.RetryAfter > 0 {
			secs := int64((tr.RetryAfter + 999_999_999) / 1_000_000_000)
			d["retry_after"] = secs
		}
		data, _ := json.Marshal(d)
		return &jsonrpc.Error{Code: rpcerr.CodeTransport, Message: tr.Message, Data: data}
	}
	if dc, ok := rpcerr.AsDiscovery(err); ok {
		d := map[string]any{"code": dc.Code, "content": dc.Content}
		if dc.ContinueURL != "" {
			d["continue_url"] = dc.ContinueURL
		}
		data, _ := json.Marshal(d)
		return &jsonrpc.Error{Code: rpcerr.CodeDiscovery, Message: dc.Content, Data: data}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	if errors.Is(err, ucpcore.ErrInternal) {
		// Already logged where it happened (a panic, with its stack).
		return &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: "internal error"}
	}
	if logger == nil {
		logger = slog.Default()
	}
	logger.Error("ucp tool failed", "err", err)
	return &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: "internal error"}
}
