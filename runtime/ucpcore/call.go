package ucpcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// serve runs one call and returns the canonical body, with the spans of it
// that copy a Source's encodings (see jsonenc.Span), or an error.
func serve(ctx context.Context, e *Endpoint, raw json.RawMessage, walk memberWalk) (_ []byte, spans []jsonenc.Span, _ error) {
	t, opts := e.tool, e.opts
	args, err := splitArguments(t.Params, raw, walk)
	if err != nil {
		return nil, nil, err
	}
	var profile string
	if i := paramIndex(t.Params, MetaParam); i >= 0 {
		profile, err = profileURL(args[i], walk)
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
		return nil, nil, cerr
	}
	if err != nil {
		return nil, nil, err
	}
	outcome, err := e.negotiator().Negotiate(ctx, profile, t.Capability)
	if err != nil {
		return nil, nil, err
	}
	if !outcome.Compatible {
		body, err := incompatible(e, outcome)
		return body, nil, err
	}
	resp, err := run(ctx)
	if err != nil {
		return nil, nil, err
	}
	body, err := encodeResponse(Buffer(), resp, outcome, &spans)
	if err != nil {
		return nil, nil, fmt.Errorf("encode %s response: %w", t.Name, err)
	}
	if opts.ValidateOutput && t.CheckOutput != nil {
		if err := t.CheckOutput(body); err != nil {
			// %v, not %w: the violations are the Business's, not the
			// caller's, so they must not reach the client as -32602.
			return nil, nil, fmt.Errorf("%s response fails its schema: %v", t.Name, err)
		}
	}
	return body, spans, nil
}

// version is the release a tool answers at without a Negotiator. The runtime
// names no release of its own: the generated Register fills Version with the
// generated package's ProtocolVersion, which comes from the input spec.
func (o *Options) version() string { return o.Version }

// incompatible builds the capabilities_incompatible outcome: a tool result,
// not a JSON-RPC error, carrying ucp.status "error" and the message. It also
// carries an empty value for every other member the tool's outputSchema
// requires (locations: []), because MCP clients validate structuredContent
// against the advertised outputSchema and would throw the outcome away.
func incompatible(e *Endpoint, outcome envelope.Outcome) ([]byte, error) {
	if e.emptyErr != nil {
		return nil, fmt.Errorf("%s outputSchema: %w", e.tool.Name, e.emptyErr)
	}
	ucp, err := json.Marshal(outcome.UCP())
	if err != nil {
		return nil, err
	}
	body := append([]byte(`{"ucp":`), ucp...)
	for _, m := range e.empty {
		if m.name == "ucp" || m.name == "messages" {
			continue
		}
		name, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		empty, err := json.Marshal(m.empty)
		if err != nil {
			return nil, err
		}
		body = append(append(append(append(body, ','), name...), ':'), empty...)
	}
	msgs, err := json.Marshal([]envelope.ErrorMessage{outcome.IncompatibleMessage()})
	if err != nil {
		return nil, err
	}
	body = append(append(append(body, `,"messages":`...), msgs...), '}')
	return body, nil
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
func splitArguments(params []Param, raw json.RawMessage, walk memberWalk) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, rpcerr.Invalid("", "type", "arguments must be an object with %s", nameList(params))
	}
	args := make([]json.RawMessage, len(params))
	var v rpcerr.InvalidParams
	var seen jsonmember.Names
	err := walk(trimmed, func(name string, value json.RawMessage) error {
		i := paramIndex(params, name)
		switch {
		case seen.Add(name):
			v.Violations = append(v.Violations, rpcerr.Violation{Pointer: "/" + rpcerr.EscapeToken(name), Keyword: "json", Message: fmt.Sprintf("duplicate member name %q", name)})
		case i >= 0:
			args[i] = value
		default:
			v.Violations = append(v.Violations, rpcerr.Violation{Pointer: "/" + rpcerr.EscapeToken(name), Keyword: "additionalProperties", Message: "is not allowed: the arguments have exactly " + countMembers(len(params)) + ", " + nameList(params)})
		}
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
func profileURL(meta json.RawMessage, walk memberWalk) (string, error) {
	at := "/" + MetaParam
	agent, err := uniqueMember(meta, agentMember, at, walk)
	if err != nil {
		return "", err
	}
	if agent == nil {
		return "", rpcerr.Invalid(at+"/"+agentMember, "required", "is required")
	}
	profile, err := uniqueMember(agent, "profile", at+"/"+agentMember, walk)
	if err != nil {
		return "", err
	}
	if profile == nil {
		return "", rpcerr.Invalid(at+"/"+agentMember+"/profile", "required", "is required (a URI of the Platform's UCP profile)")
	}
	if profile[0] == '"' {
		if url, ok := jsonmember.PlainString(profile); ok {
			return url, nil
		}
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
func uniqueMember(obj json.RawMessage, name, at string, walk memberWalk) (json.RawMessage, error) {
	var found json.RawMessage
	err := walk(obj, func(key string, value json.RawMessage) error {
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
// what it sees is what the tool runs with, and the walk can trust that
// they are well formed (jsonmember.FirstValid).
func Argument(arguments json.RawMessage, path ...string) json.RawMessage {
	v := arguments
	for _, name := range path {
		next, ok := jsonmember.FirstValid(v, name)
		if !ok {
			return nil
		}
		v = next
	}
	return v
}

// envelopeAppender is implemented by generated tool results: they encode
// themselves in one pass with the negotiated ucp member written in place.
type envelopeAppender interface {
	AppendJSONWithUCP(b, ucp []byte) ([]byte, error)
}

// spanAppender is implemented by generated tool results with a memo: they
// also report where they copied a Source's encodings.
type spanAppender interface {
	AppendJSONSpans(b, ucp []byte, spans *[]jsonenc.Span) ([]byte, error)
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
// checkout-or-error result). A result with a memo appends to spans where it
// copied a Source's encodings.
func encodeResponse(buf []byte, resp any, outcome envelope.Outcome, spans *[]jsonenc.Span) ([]byte, error) {
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
		if sa, ok := resp.(spanAppender); ok {
			return sa.AppendJSONSpans(buf[:0], ucp, spans)
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
	// Only a failure builds the error: a valid call (nearly every call)
	// allocates nothing here.
	var violations []rpcerr.Violation
	for i, err := range errs {
		if err == nil {
			continue
		}
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok {
			ip = rpcerr.Invalid("", "", "%v", err)
		}
		violations = append(violations, ip.Prefix("/"+rpcerr.EscapeToken(names[i])).Violations...)
	}
	if len(violations) == 0 {
		return nil
	}
	return &rpcerr.InvalidParams{Violations: violations}
}
