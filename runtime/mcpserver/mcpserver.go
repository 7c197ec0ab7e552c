// Package mcpserver is the MCP glue generated UCP tool stubs call: it parses
// the tools/call arguments, runs negotiation, maps typed runtime errors to
// the JSON-RPC codes the UCP binding requires, fills the response's ucp
// envelope, and returns structured content plus the same JSON as text.
//
// It knows nothing about any UCP service: generated code supplies each
// tool's parameter list and a Bind function that decodes and validates the
// arguments and returns the hook call to run. The one argument name it
// reads is MetaParam, which the binding defines for every tool.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Options configure every tool registered on one server.
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

// maxResponse is the bound on one answer, limit when the transport set one.
func (o *Options) maxResponse(limit int64) int64 {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	if o.MaxResponseBytes > 0 {
		limit = min(limit, o.MaxResponseBytes)
	}
	return limit
}

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

// Tool is one generated tool as the runtime sees it.
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

	// empty and emptyErr are requiredEmpty(OutputSchema), worked out once
	// when the tool is added.
	empty    []emptyMember
	emptyErr error
}

// Add registers t on server; the same tool is also answered by Handler's
// direct path when HTTPOptions.DirectToolCalls is set.
func Add(server *mcp.Server, t Tool, opts *Options) {
	if opts == nil {
		opts = &Options{}
	}
	t.empty, t.emptyErr = requiredEmpty(t.OutputSchema)
	server.AddTool(&mcp.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  t.InputSchema,
		OutputSchema: t.OutputSchema,
	}, handler(t, opts))
	registerDirect(server, t, opts)
}

func handler(t Tool, opts *Options) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var header http.Header
		if req.Extra != nil {
			header = req.Extra.Header
			var cancel context.CancelFunc
			ctx, cancel = callerContext(ctx, header)
			defer cancel()
		}
		call := callOfHeader(header)
		if call != nil {
			// The HTTP request's budget, so the call is charged here.
			ctx = context.WithValue(ctx, chargerKey{}, call.ctx.Value(chargerKey{}))
		}
		rep, rpcErr := invoke(ctx, t, opts, req.Params.Arguments)
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
		if limit = opts.maxResponse(limit); !answerFits(rep.body, 0, limit) {
			// Refused before toolResult copies the body into a string and
			// the SDK encodes both again.
			if call != nil {
				call.noteOverflow()
			}
			opts.logger().Error("mcp response exceeded the bound and was replaced by an error", "tool", t.Name, "limit", limit)
			return nil, &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: fmt.Sprintf("response exceeds %d bytes", limit)}
		}
		return rep.toolResult(), nil
	}
}

// reply is a tool's answer: either body, the binding's success (see
// result), or res, a result of another shape (an isError result).
type reply struct {
	// body is the response in encoding/json's canonical form (compact,
	// HTML-escaped), so the direct path can write it without scanning it
	// again.
	body []byte
	res  *mcp.CallToolResult
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

// invoke runs one call to t and returns its result or the JSON-RPC error
// the binding prescribes. A panic in a hook becomes -32603 and a log line:
// the SDK runs each request in its own goroutine without a recover, so it
// would otherwise end the process and every call in it.
func invoke(ctx context.Context, t Tool, opts *Options, args json.RawMessage) (rep reply, rpcErr *jsonrpc.Error) {
	defer func() {
		if p := recover(); p != nil {
			opts.logger().Error("ucp tool panicked", "tool", t.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			rep, rpcErr = reply{}, &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: "internal error"}
		}
	}()
	rep, err := serve(ctx, t, opts, args)
	if err != nil {
		res, rpcErr := toolError(err, opts)
		return reply{res: res}, rpcErr
	}
	return rep, nil
}

func (o *Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}

// serve runs one call and returns a result or a typed error.
func serve(ctx context.Context, t Tool, opts *Options, raw json.RawMessage) (reply, error) {
	args, err := splitArguments(t.Params, raw)
	if err != nil {
		return reply{}, err
	}
	var profile string
	if i := paramIndex(t.Params, MetaParam); i >= 0 {
		profile, err = profileURL(args[i])
	}
	// Validate the whole request before negotiation, so an invalid call
	// never makes the server fetch a caller-supplied profile URL.
	var run Run
	if err == nil {
		run, err = t.Bind(args)
	}
	// The call is charged here, from the arguments exactly as they were
	// decoded and validated, so that no other reading of the request (a
	// case-insensitive or last-duplicate decoder) can key or select a
	// bucket differently from the call that runs. Invalid calls are
	// charged too, to the general bucket only.
	if cerr := charge(ctx, t.Name, profile, raw, err == nil); cerr != nil {
		return reply{}, cerr
	}
	if err != nil {
		return reply{}, err
	}
	neg := opts.Negotiator
	if neg == nil {
		neg = envelope.Fixed(opts.version(), map[string]string{t.Capability: opts.version()})
	}
	outcome, err := neg.Negotiate(ctx, profile, t.Capability)
	if err != nil {
		return reply{}, err
	}
	if !outcome.Compatible {
		return incompatible(t, outcome)
	}
	resp, err := run(ctx)
	if err != nil {
		return reply{}, err
	}
	body, err := encodeResponse(getBuffer(), resp, outcome)
	if err != nil {
		return reply{}, fmt.Errorf("encode %s response: %w", t.Name, err)
	}
	if opts.ValidateOutput && t.CheckOutput != nil {
		if err := t.CheckOutput(body); err != nil {
			// %v, not %w: the violations are the Business's, not the
			// caller's, so they must not reach the client as -32602.
			return reply{}, fmt.Errorf("%s response fails its schema: %v", t.Name, err)
		}
	}
	return result(body), nil
}

// result is the binding's success: the response as structured content and
// the same JSON as a text block. body must be canonical (see reply).
func result(body []byte) reply { return reply{body: body} }

// version is the release a tool answers at without a Negotiator. The runtime
// names no release of its own: the generated Register fills Version with the
// generated package's ProtocolVersion, which comes from the input spec.
func (o *Options) version() string { return o.Version }

// incompatible builds the capabilities_incompatible outcome: a tool result,
// not a JSON-RPC error, carrying ucp.status "error" and the message. It also
// carries an empty value for every other member the tool's outputSchema
// requires (locations: []), because MCP clients validate structuredContent
// against the advertised outputSchema and would throw the outcome away.
func incompatible(t Tool, outcome envelope.Outcome) (reply, error) {
	if t.emptyErr != nil {
		return reply{}, fmt.Errorf("%s outputSchema: %w", t.Name, t.emptyErr)
	}
	ucp, err := json.Marshal(outcome.UCP())
	if err != nil {
		return reply{}, err
	}
	body := append([]byte(`{"ucp":`), ucp...)
	for _, m := range t.empty {
		if m.name == "ucp" || m.name == "messages" {
			continue
		}
		name, err := json.Marshal(m.name)
		if err != nil {
			return reply{}, err
		}
		empty, err := json.Marshal(m.empty)
		if err != nil {
			return reply{}, err
		}
		body = append(append(append(append(body, ','), name...), ':'), empty...)
	}
	msgs, err := json.Marshal([]envelope.ErrorMessage{outcome.IncompatibleMessage()})
	if err != nil {
		return reply{}, err
	}
	body = append(append(append(body, `,"messages":`...), msgs...), '}')
	return result(body), nil
}

// emptyMember is a required member and the empty value of its type.
type emptyMember struct {
	name  string
	empty any
}

// requiredEmpty lists the members a tool's output schema requires, each
// with the empty value of its declared type (array or object). A required
// member of another type has no honest empty value, so it is an error: the
// generator would have to learn how that tool reports an error outcome.
func requiredEmpty(schema json.RawMessage) ([]emptyMember, error) {
	if len(schema) == 0 {
		return nil, nil
	}
	type node struct {
		Ref        string                     `json:"$ref"`
		Type       any                        `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       map[string]json.RawMessage `json:"$defs"`
	}
	var root node
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	resolve := func(n node) (node, error) {
		for i := 0; n.Ref != "" && i < 16; i++ {
			name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
			def, found := root.Defs[name]
			if !ok || !found {
				return n, fmt.Errorf("unresolvable $ref %q", n.Ref)
			}
			var next node
			if err := json.Unmarshal(def, &next); err != nil {
				return n, fmt.Errorf("$defs/%s: %w", name, err)
			}
			n = next
		}
		return n, nil
	}
	top, err := resolve(root)
	if err != nil {
		return nil, err
	}
	required := append(append([]string(nil), root.Required...), top.Required...)
	var out []emptyMember
	seen := map[string]bool{}
	for _, name := range required {
		if seen[name] {
			continue
		}
		seen[name] = true
		if name == "ucp" || name == "messages" {
			out = append(out, emptyMember{name: name})
			continue
		}
		var prop node
		if raw, ok := top.Properties[name]; ok {
			if err := json.Unmarshal(raw, &prop); err != nil {
				return nil, fmt.Errorf("properties/%s: %w", name, err)
			}
		}
		if prop, err = resolve(prop); err != nil {
			return nil, fmt.Errorf("properties/%s: %w", name, err)
		}
		switch prop.Type {
		case "array":
			out = append(out, emptyMember{name, []any{}})
		case "object":
			out = append(out, emptyMember{name, map[string]any{}})
		default:
			return nil, fmt.Errorf("required member %q has type %v, which has no empty value for an error outcome", name, prop.Type)
		}
	}
	return out, nil
}

// splitArguments requires an object whose members are the tool's params
// and returns their raw values in params order. Unknown members are
// rejected, since the binding defines the arguments exactly, and so are
// repeated ones (as everywhere in a request): a call that says two things
// about one argument must not be read as the last one.
func splitArguments(params []Param, raw json.RawMessage) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, rpcerr.Invalid("", "type", "arguments must be an object with %s", nameList(params))
	}
	args := make([]json.RawMessage, len(params))
	var v rpcerr.InvalidParams
	seen := map[string]bool{}
	err := jsonmember.Each(trimmed, func(name string, value json.RawMessage) error {
		at := "/" + rpcerr.EscapeToken(name)
		i := paramIndex(params, name)
		switch {
		case seen[name]:
			v.Violations = append(v.Violations, rpcerr.Violation{Pointer: at, Keyword: "json", Message: fmt.Sprintf("duplicate member name %q", name)})
		case i < 0:
			v.Violations = append(v.Violations, rpcerr.Violation{Pointer: at, Keyword: "additionalProperties", Message: "is not allowed: the arguments have exactly " + countMembers(len(params)) + ", " + nameList(params)})
		default:
			args[i] = value
		}
		seen[name] = true
		return nil
	})
	if se, ok := err.(*jsonmember.SyntaxError); ok {
		at := ""
		if se.InValue {
			at = "/" + rpcerr.EscapeToken(se.Key)
		}
		return nil, rpcerr.Invalid(at, "json", "arguments are not valid JSON: %v", se.Err)
	}
	if err != nil {
		return nil, rpcerr.Invalid("", "json", "arguments are not valid JSON: %v", err)
	}
	if len(v.Violations) > 0 {
		return nil, &v
	}
	for i, p := range params {
		if !p.Required || args[i] != nil {
			continue
		}
		msg := "is required"
		if p.Name == MetaParam {
			msg = "is required (it carries ucp-agent.profile)"
		}
		v.Violations = append(v.Violations, rpcerr.Violation{Pointer: "/" + rpcerr.EscapeToken(p.Name), Keyword: "required", Message: msg})
	}
	if len(v.Violations) > 0 {
		return nil, &v
	}
	return args, nil
}

// paramIndex is the position of the param called name, or -1.
func paramIndex(params []Param, name string) int {
	for i, p := range params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// nameList is the params' names for a message: "meta, id and checkout".
func nameList(params []Param) string {
	if len(params) == 0 {
		return "no members"
	}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// countMembers says how many members the arguments have, in words for a
// message: "two members".
func countMembers(n int) string {
	words := []string{"no members", "one member", "two members", "three members", "four members", "five members"}
	if n < len(words) {
		return words[n]
	}
	return fmt.Sprintf("%d members", n)
}

// profileURL reads meta["ucp-agent"].profile for negotiation and rate
// limiting, matching member names exactly, as the generated decoder does:
// a case variant (UCP-AGENT) is another member, and a repeated ucp-agent or
// profile is -32602, so no decoy can stand in for the profile that is
// validated. The full meta schema is checked by the generated decoder.
func profileURL(meta json.RawMessage) (string, error) {
	at := "/" + MetaParam
	agent, err := uniqueMember(meta, agentMember, at)
	if err != nil {
		return "", err
	}
	if agent == nil {
		return "", rpcerr.Invalid(at+"/"+agentMember, "required", "is required")
	}
	profile, err := uniqueMember(agent, "profile", at+"/"+agentMember)
	if err != nil {
		return "", err
	}
	if profile == nil {
		return "", rpcerr.Invalid(at+"/"+agentMember+"/profile", "required", "is required (a URI of the Platform's UCP profile)")
	}
	var url string
	if json.Unmarshal(profile, &url) != nil {
		return "", rpcerr.Invalid(at+"/"+agentMember+"/profile", "type", "must be a string (a URI of the Platform's UCP profile)")
	}
	return url, nil
}

// agentMember is the member of meta that names the calling agent.
const agentMember = "ucp-agent"

// uniqueMember is the value of member name of the object obj (nil when it
// is absent); at is obj's pointer. An obj that is not an object, or that
// repeats name, is -32602.
func uniqueMember(obj json.RawMessage, name, at string) (json.RawMessage, error) {
	var found json.RawMessage
	err := jsonmember.Each(obj, func(key string, value json.RawMessage) error {
		if key != name {
			return nil
		}
		if found != nil {
			return rpcerr.Invalid(at+"/"+rpcerr.EscapeToken(name), "json", "duplicate member name %q", name)
		}
		found = value
		return nil
	})
	if ip, ok := rpcerr.AsInvalidParams(err); ok {
		return nil, ip
	}
	if err != nil {
		return nil, rpcerr.Invalid(at, "type", "must be an object with %s", name)
	}
	return found, nil
}

// Argument is the member at path inside a tool's arguments object, matched
// exactly by name (nil when any step is absent or not an object). A
// RateLimit.Strict predicate reads the call with it: it is called only once
// the arguments have been validated, so no member along path is repeated,
// and what it sees is what the tool runs with.
func Argument(arguments json.RawMessage, path ...string) json.RawMessage {
	v := arguments
	for _, name := range path {
		var next json.RawMessage
		if jsonmember.Each(v, func(key string, value json.RawMessage) error {
			if key == name && next == nil {
				next = value
			}
			return nil
		}) != nil || next == nil {
			return nil
		}
		v = next
	}
	return v
}

// toolError turns a typed error into the JSON-RPC error (or isError result)
// the UCP binding prescribes.
func toolError(err error, opts *Options) (*mcp.CallToolResult, *jsonrpc.Error) {
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
	if logger == nil {
		logger = slog.Default()
	}
	logger.Error("ucp tool failed", "err", err)
	return &jsonrpc.Error{Code: rpcerr.CodeInternal, Message: "internal error"}
}

// envelopeAppender is implemented by generated tool results: they encode
// themselves in one pass with the negotiated ucp member written in place.
type envelopeAppender interface {
	AppendJSONWithUCP(b, ucp []byte) ([]byte, error)
}

// ucpOwner is implemented by generated tool results that carry a ucp
// member: it is the ucp the hook set, which the negotiated one is merged
// into (see mergeObjects).
type ucpOwner interface {
	OwnUCP() ([]byte, error)
}

// encodeResponse writes a hook's response with the outcome's ucp member
// merged into the hook's own: in one pass for generated results (appended
// to buf) and through SetMember otherwise (unions such as a
// checkout-or-error result).
func encodeResponse(buf []byte, resp any, outcome envelope.Outcome) ([]byte, error) {
	var err error
	// The bytes json.Marshal writes for outcome.UCP(), without reflection.
	ucp := outcome.AppendUCP(make([]byte, 0, 128))
	if a, ok := resp.(envelopeAppender); ok {
		if o, ok := resp.(ucpOwner); ok {
			own, err := o.OwnUCP()
			if err != nil {
				return nil, fmt.Errorf("encode the hook's ucp member: %w", err)
			}
			if ucp, err = mergeObjects(ucp, own); err != nil {
				return nil, fmt.Errorf("the hook's ucp member: %w", err)
			}
		}
		return a.AppendJSONWithUCP(buf[:0], ucp)
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	var own json.RawMessage
	err = jsonmember.Each(body, func(k string, raw json.RawMessage) error {
		if k == "ucp" {
			own = raw
		}
		return nil
	})
	if errors.Is(err, jsonmember.ErrNotObject) {
		return nil, fmt.Errorf("response is not a JSON object")
	}
	if err != nil {
		return nil, err
	}
	if ucp, err = mergeObjects(ucp, own); err != nil {
		return nil, fmt.Errorf("the hook's ucp member: %w", err)
	}
	return SetMember(body, "ucp", json.RawMessage(ucp))
}

// mergeObjects is the negotiated ucp object with the members of the hook's
// own that negotiation does not set appended: negotiated version and
// capabilities (and status when negotiation failed) win, while an error
// branch keeps the status "error" its schema requires and a checkout keeps
// the payment_handlers the Business lists. An own value that is not an
// object (absent, null) adds nothing.
func mergeObjects(negotiated, own []byte) ([]byte, error) {
	if len(own) == 0 || own[0] != '{' {
		return negotiated, nil
	}
	set := map[string]bool{}
	if err := jsonmember.Each(negotiated, func(k string, _ json.RawMessage) error { set[k] = true; return nil }); err != nil {
		return nil, err
	}
	n := len(set)
	var extra []byte
	err := jsonmember.Each(own, func(k string, raw json.RawMessage) error {
		if set[k] {
			return nil
		}
		set[k] = true
		key, _ := json.Marshal(k)
		extra = append(append(append(append(extra, ','), key...), ':'), raw...)
		return nil
	})
	if err != nil || extra == nil {
		return negotiated, err
	}
	if n == 0 {
		extra = extra[1:]
	}
	merged := bytes.TrimSuffix(bytes.TrimSpace(negotiated), []byte("}"))
	return append(append(append([]byte(nil), merged...), extra...), '}'), nil
}

// SetMember replaces (or adds) the top-level member name of the JSON object
// obj with v, keeping the other members' order.
func SetMember(obj []byte, name string, v any) ([]byte, error) {
	val, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	key, _ := json.Marshal(name)
	b.Write(key)
	b.WriteByte(':')
	b.Write(val)
	err = jsonmember.Each(obj, func(k string, raw json.RawMessage) error {
		if k == name {
			return nil
		}
		kb, _ := json.Marshal(k)
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	})
	if errors.Is(err, jsonmember.ErrNotObject) {
		return nil, fmt.Errorf("response is not a JSON object")
	}
	if err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ArgumentErrors merges the decoding failures of a tool's arguments into one
// error, each violation under the pointer of its argument (/name/...), so
// that one -32602 lists them all; names[i] is the param errs[i] belongs to.
// It returns nil when every error is nil. Generated Bind functions call it.
func ArgumentErrors(names []string, errs ...error) error {
	var all rpcerr.InvalidParams
	for i, err := range errs {
		if err == nil {
			continue
		}
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok {
			ip = rpcerr.Invalid("", "", "%v", err)
		}
		all.Violations = append(all.Violations, ip.Prefix("/"+rpcerr.EscapeToken(names[i])).Violations...)
	}
	if len(all.Violations) == 0 {
		return nil
	}
	return &all
}
