package mcpserver

// This file covers how the SDK reads a JSON-RPC message. Its decoder keeps
// the last of a repeated top-level member (so {"id":1,"id":2} is answered
// as id 2 while a proxy in front may have read id 1), and it holds a number
// id as an int64 made from a float64, so an id beyond 2^53, with a
// fraction or an exponent, comes back as another number and a client
// cannot match the answer to its call. Upstream: the id half is
// modelcontextprotocol/go-sdk pull requests 1178 and 1253 (open as of
// 2026-12); for repeated members no upstream issue was found as of
// 2026-12. TestSDKReadsMessagesLoosely (sdk_test.go) shows both against the
// pinned SDK and fails once the SDK refuses them itself; preparse and
// readEnvelope can then shrink to the batch check.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/runtime/jsonmember"
)

// preparse classifies a POST body before the SDK sees it: nil request and
// nil error for a JSON-RPC response or notification, the request for a
// call, or the protocol error to answer.
func preparse(body []byte) (*jsonrpc.Request, *jsonrpc.Error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: empty body"}
	}
	// The scanner settles well-formed bodies; encoding/json has the last
	// word on everything else (nesting beyond the scanner's depth included).
	// An object's members are checked in the same walk.
	if trimmed[0] != '{' {
		if !jsonmember.Scans(trimmed) && !json.Valid(trimmed) {
			return nil, errNotJSON
		}
		if trimmed[0] == '[' {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: JSON-RPC batch arrays are not supported (MCP 2025-06-18 removed batching); send one request per message"}
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: a JSON-RPC message must be an object"}
	}
	env, scanned, perr := readEnvelope(trimmed)
	if !scanned && !json.Valid(trimmed) {
		return nil, errNotJSON
	}
	if perr != nil {
		return nil, perr
	}
	if scanned {
		if req, ok := env.plainRequest(); ok {
			return req, nil
		}
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + err.Error()}
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error == nil && len(resp.Result) == 0 {
		// A response must carry a result or an error; without either it is
		// neither a request nor a response (a request missing its method).
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: a request needs a method, a response a result or an error"}
	}
	req, _ := msg.(*jsonrpc.Request)
	return req, nil
}

// plainRequest decodes a request of the plain form, as the SDK's
// DecodeMessage would: "jsonrpc" exactly "2.0", "method" a string without
// escapes, an optional "id" that is an integer or a string without escapes,
// an optional "params" object, and no other member. ok is false for any
// other shape, which DecodeMessage then reads: the SDK's decoder allocates
// tens of kilobytes per message, more than the rest of a search. e came
// from readEnvelope without an error (no repeated member, an exact id) and
// its object passed the scanner.
func (e envelope) plainRequest() (req *jsonrpc.Request, ok bool) {
	version, method, id, params := e.version, e.method, e.id, e.params
	var err error
	if e.other || string(version) != `"2.0"` || method == nil || (params != nil && params[0] != '{') {
		return nil, false
	}
	if method[0] != '"' {
		return nil, false
	}
	name, plain := jsonmember.PlainString(method)
	if !plain {
		return nil, false
	}
	req = &jsonrpc.Request{Method: name, Params: params}
	switch {
	case id == nil:
	case id[0] == '"':
		s, plain := jsonmember.PlainString(id)
		if !plain {
			return nil, false
		}
		if req.ID, err = jsonrpc.MakeID(s); err != nil {
			return nil, false
		}
	default:
		// readEnvelope let only integers within 2^53 through, which a
		// float64 (the SDK's reading) holds exactly.
		n, perr := strconv.ParseInt(string(id), 10, 64)
		if perr != nil {
			return nil, false
		}
		if req.ID, err = jsonrpc.MakeID(float64(n)); err != nil {
			return nil, false
		}
	}
	return req, true
}

// errNotJSON answers a body that does not parse.
var errNotJSON = &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: the body is not valid JSON"}

// envelope is what readEnvelope finds of a request object's members: the
// four a JSON-RPC request has, and whether it has any other.
type envelope struct {
	version, method, id, params json.RawMessage
	other                       bool
}

// readEnvelope walks the members of a request object once, keeping what
// plainRequest reads, and refuses what the SDK would read differently from
// how it is written: a repeated top-level member (the SDK keeps the last
// one), and a numeric id it cannot echo exactly. The SDK holds a number id
// as an int64 made from a float64, so a fraction, an exponent, -0 or an
// integer beyond ±2^53 would come back as another number. An object that
// does not parse is a parse error. scanned is jsonmember.EachScanned's:
// false when the walk stopped early.
func readEnvelope(obj []byte) (_ envelope, scanned bool, _ *jsonrpc.Error) {
	var e envelope
	var seen jsonmember.Names
	var perr *jsonrpc.Error
	scanned, err := jsonmember.EachScanned(obj, func(key string, value json.RawMessage) error {
		if seen.Add(key) {
			perr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: member %q appears more than once", key)}
			return errStop
		}
		switch key {
		case "jsonrpc":
			e.version = value
		case "method":
			e.method = value
		case "id":
			if !exactID(value) {
				perr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: id %.40s cannot be echoed exactly: use a string, or an integer from -2^53 to 2^53 without a fraction or exponent", value)}
				return errStop
			}
			e.id = value
		case "params":
			e.params = value
		default:
			e.other = true
		}
		return nil
	})
	if err != nil && perr == nil {
		return e, false, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: " + err.Error()}
	}
	return e, scanned, perr
}

// errStop ends an eachMember walk early.
var errStop = errors.New("stop")

// maxExactID is 2^53: every integer up to it survives float64.
const maxExactID = 1 << 53

// exactID reports whether a raw id is one the SDK echoes unchanged: any
// value that is not a number (the SDK refuses the wrong types itself), or
// a plain integer within ±2^53 other than -0.
func exactID(raw json.RawMessage) bool {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return true
	}
	if bytes.ContainsAny(raw, ".eE") || string(raw) == "-0" {
		return false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -maxExactID && n <= maxExactID
}
