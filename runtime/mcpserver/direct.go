package mcpserver

// This file covers the cost of the SDK's stateless tools/call: for every
// request the SDK builds a session, decodes the message again, and encodes
// the answer three times (structured content compacted, the same JSON
// escaped as a text block, the result compacted once more inside the
// JSON-RPC response). The direct path below writes the same bytes once.
// No upstream issue was found as of 2026-12. TestSDKToolCallCopiesTheBody
// (sdk_test.go) shows the cost against the pinned SDK and fails once the
// SDK's path allocates less than three times the body; the direct path
// (and DirectToolCalls) can then go. TestDirectToolCallsMatchTheSDK holds
// the two paths to the same bytes while both exist.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// The direct path answers a stateless tools/call for a tool added with Add
// without the SDK's per-request session: the SDK would build a session,
// decode the message again, and encode the 10-50 KB answer three times
// (structured content compacted, the text block escaped, the result
// compacted once more inside the JSON-RPC response). The direct path writes
// the bytes the SDK would write, once; anything it is not sure of (an
// unusual header, a params member it does not know, a protocol version it
// has not checked with the SDK) goes to the SDK instead.

// perRequestVersion is the first MCP protocol version whose requests carry
// their protocol metadata themselves (SEP-2575): _meta keys and the
// Mcp-Method and Mcp-Name headers, resultType and the server's identity in
// every result, and HTTP 400 for -32602.
const perRequestVersion = "2026-07-28"

// perRequestProtocol reports whether version is perRequestVersion or later
// (protocol versions are dates, so they order as strings).
func perRequestProtocol(version string) bool { return version >= perRequestVersion }

// directVersions are the MCP protocol versions whose tools/call answer the
// direct path writes byte for byte as SDK v1.8 does ("" is a request
// without the MCP-Protocol-Version header). From 2026-07-28 on the result
// also carries resultType.
var directVersions = map[string]bool{
	"":                true,
	"2024-11-05":      true,
	"2025-03-26":      true,
	"2025-06-18":      true,
	"2025-11-25":      true,
	perRequestVersion: true,
}

// Header values every direct answer carries, shared rather than built per
// call. Their capacity equals their length, so an Add by a wrapper copies
// instead of writing into the shared array; nothing sets an element in place.
var (
	noCacheHeader   = []string{"no-cache, no-transform"}[:1:1]
	jsonContentType = []string{"application/json"}[:1:1]
)

// serveDirect answers req if the direct path applies and reports whether
// it did; otherwise nothing has been written.
func (h *httpHandler) serveDirect(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, adm *ucpcore.Admission) bool {
	if req.Method != "tools/call" || !req.ID.IsValid() {
		return false
	}
	version := headerValue(r.Header, "Mcp-Protocol-Version")
	if !directVersions[version] || !directHeaders(r) {
		return false
	}
	served := h.versionServed(version)
	if !served.ok {
		return false
	}
	name, args, meta, ok := directParams(req.Params)
	if !ok || !directMeta(version, meta, r.Header, name) {
		return false
	}
	tool := h.learned(name)
	if tool == nil {
		return false
	}
	rep, rpcErr := invoke(r.Context(), tool, args)
	// The SDK marks every JSON answer as not to be cached or transformed.
	w.Header()["Cache-Control"] = noCacheHeader
	if rpcErr != nil {
		adm.Release()
		writeDirectError(w, req.ID, rpcErr, version)
		return true
	}
	// The bound is checked before the answer is framed, so an answer over
	// it is never copied.
	if !answerFits(rep.body, int64(len(served.resultMeta)), h.opts.MaxResponseBytes) {
		ucpcore.RecycleBody(rep.body)
		adm.Release()
		h.opts.Logger.Error("mcp response exceeded the bound and was replaced by an error", "limit", h.opts.MaxResponseBytes)
		writeProtocolError(w, http.StatusInternalServerError, req.ID, jsonrpc.CodeInternalError, fmt.Sprintf("response exceeds %d bytes", h.opts.MaxResponseBytes))
		return true
	}
	data, err := directResponse(req.ID, rep, served.resultMeta)
	ucpcore.RecycleBody(rep.body)
	// The answer is produced: writing it must not hold the server's
	// capacity for as long as a slow reader takes.
	adm.Release()
	if err != nil {
		h.opts.Logger.Error("ucp tool result could not be encoded", "tool", name, "err", err)
		writeDirectError(w, req.ID, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}, version)
		return true
	}
	w.Header()["Content-Type"] = jsonContentType
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(data))}
	w.WriteHeader(http.StatusOK)
	w.Write(data)
	// The frame is not referenced once written: the next call reuses it.
	// (The SDK path gives back neither frame nor body, since the SDK may
	// hold them after the handler returns.)
	ucpcore.RecycleBody(data)
	return true
}

// writeDirectError sends a tool's JSON-RPC error as the SDK path does:
// HTTP 200, unless a -32000 error names its status or (from 2026-07-28,
// SEP-2575) the error is -32602, which is a 400.
func writeDirectError(w http.ResponseWriter, id jsonrpc.ID, err *jsonrpc.Error, version string) {
	status := http.StatusOK
	if perRequestProtocol(version) && err.Code == jsonrpc.CodeInvalidParams {
		status = http.StatusBadRequest
	}
	writeResponse(w, statusFor(w, status, err), id, err)
}

// directResponse is the JSON-RPC response carrying rep, as the SDK encodes
// it. resultMeta is the result _meta of the per-request protocol (the
// server's identity), nil before 2026-07-28; with it comes resultType.
func directResponse(id jsonrpc.ID, rep reply, resultMeta json.RawMessage) ([]byte, error) {
	b := slices.Grow(ucpcore.Buffer(), len(resultMeta)+2*len(rep.body)+len(rep.body)/8+192)
	b, err := appendResponseHead(b, id)
	if err != nil {
		return nil, err
	}
	b = append(b, `"result":{`...)
	if resultMeta != nil {
		b = append(b, `"_meta":`...)
		b = append(b, resultMeta...)
		b = append(b, ',')
	}
	if rep.body != nil {
		// result(body): one text block and the structured content, both
		// the canonical body.
		b = append(b, `"content":[{"type":"text","text":`...)
		b = jsonenc.AppendJSONAsStringSpans(b, rep.body, rep.spans)
		b = append(b, `}],"structuredContent":`...)
		b = append(b, rep.body...)
	} else {
		if rep.res.Meta != nil {
			return nil, fmt.Errorf("a tool result with _meta of its own")
		}
		res, err := json.Marshal(rep.res)
		if err != nil {
			return nil, err
		}
		b = append(b, res[1:len(res)-1]...)
	}
	if resultMeta != nil {
		b = append(b, `,"resultType":"complete"`...)
	}
	return append(b, "}}"...), nil
}

// responseHead is how the SDK begins a response to an integer id (the
// form nearly every client sends), before its "result" member.
const responseHead = `{"jsonrpc":"2.0","id":`

// appendResponseHead appends the JSON-RPC response envelope up to its
// "result" member, the id written exactly as the SDK writes it: an integer
// id directly, any other through the SDK's encoder around a stand-in
// result, cut before it.
func appendResponseHead(b []byte, id jsonrpc.ID) ([]byte, error) {
	if n, ok := id.Raw().(int64); ok {
		b = strconv.AppendInt(append(b, responseHead...), n, 10)
		return append(b, ','), nil
	}
	frame, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: json.RawMessage("0")})
	if err != nil {
		return b, err
	}
	head, ok := bytes.CutSuffix(frame, []byte(`"result":0}`))
	if !ok {
		return b, fmt.Errorf("unexpected JSON-RPC framing %.80q", frame)
	}
	return append(b, head...), nil
}

// directParams reads tools/call params of the plain form: an object with
// name (a string), arguments (an object) and optionally _meta (an object),
// each once. Any other shape is left to the SDK. params is part of a body
// preparse accepted, so it is well formed and walked as such.
func directParams(params json.RawMessage) (name string, args, meta json.RawMessage, ok bool) {
	var seenName, seenArgs, seenMeta bool
	// once marks a member seen, and reports whether it was already.
	once := func(seen *bool) bool {
		again := *seen
		*seen = true
		return again
	}
	err := jsonmember.EachValid(params, func(key string, raw json.RawMessage) error {
		switch key {
		case "name":
			if once(&seenName) {
				return errNotDirect
			}
			if plain, ok := plainString(raw); ok {
				name = plain
			} else if json.Unmarshal(raw, &name) != nil {
				return errNotDirect
			}
		case "arguments":
			if once(&seenArgs) {
				return errNotDirect
			}
			args = raw
		case "_meta":
			if once(&seenMeta) || raw[0] != '{' {
				return errNotDirect
			}
			meta = raw
		default:
			return errNotDirect
		}
		return nil
	})
	if err != nil || len(args) == 0 || args[0] != '{' || !seenName {
		return "", nil, nil, false
	}
	return name, args, meta, true
}

// plainString is raw's text when raw is a JSON string that decodes to
// itself (see jsonmember.PlainString); ok is false for any other value.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return jsonmember.PlainString(raw)
}

// errNotDirect stops directParams at the first sign of a shape it leaves to
// the SDK.
var errNotDirect = errors.New("not a plain tools/call")

// The _meta keys of the per-request protocol (MCP 2026-07-28, SEP-2575).
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaReserved           = "io.modelcontextprotocol/"
)

// directMeta reports whether the SDK would accept the call's protocol
// metadata. Before 2026-07-28 that is any _meta without protocol keys. From
// 2026-07-28 the SDK checks the version in _meta against the header, the
// Mcp-Method and Mcp-Name headers against the body, and decodes the client
// info and capabilities; the direct path takes only the plain form of that
// (the three keys, decodable strictly, no Mcp-Param-* headers).
func directMeta(version string, meta json.RawMessage, header http.Header, name string) bool {
	var m map[string]json.RawMessage
	if len(meta) > 0 && json.Unmarshal(meta, &m) != nil {
		return false
	}
	if !perRequestProtocol(version) {
		for k := range m {
			if strings.HasPrefix(k, metaReserved) {
				return false
			}
		}
		return true
	}
	if headerValue(header, "Mcp-Method") != "tools/call" || headerValue(header, "Mcp-Name") != name {
		return false
	}
	for k := range header {
		if strings.HasPrefix(k, "Mcp-Param-") {
			return false
		}
	}
	for k := range m {
		switch k {
		case metaProtocolVersion, metaClientInfo, metaClientCapabilities:
		default:
			if strings.HasPrefix(k, metaReserved) {
				return false
			}
		}
	}
	var v string
	if json.Unmarshal(m[metaProtocolVersion], &v) != nil || v != version {
		return false
	}
	if raw, ok := m[metaClientInfo]; ok && !strictDecode(raw, &mcp.Implementation{}) {
		return false
	}
	var caps struct {
		mcp.ClientCapabilities
		// The SDK reads roots here in its 2026-07-28 form.
		Roots *struct {
			ListChanged bool `json:"listChanged,omitempty"`
		} `json:"roots,omitempty"`
	}
	raw, ok := m[metaClientCapabilities]
	return ok && len(raw) > 0 && raw[0] == '{' && strictDecode(raw, &caps)
}

// strictDecode decodes one JSON value into v, refusing unknown members.
func strictDecode(raw json.RawMessage, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil && !dec.More()
}

// directHeaders reports whether the SDK would accept the request's
// headers: a JSON body, an Accept naming both JSON and event streams, and
// (on a loopback listener) a loopback Host, its guard against DNS
// rebinding. It is stricter than the SDK where that is simpler.
func directHeaders(r *http.Request) bool {
	// The SDK parses the media type (a parameter that does not parse is
	// 415) and refuses Last-Event-ID on a POST (400): leave both to it.
	if ct := headerValue(r.Header, "Content-Type"); ct != "application/json" {
		// Parsed only when it is not the plain type every client sends.
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return false
		}
	}
	if len(r.Header["Last-Event-Id"]) > 0 {
		return false
	}
	var jsonOK, streamOK bool
	for _, v := range r.Header["Accept"] {
		for part := range strings.SplitSeq(v, ",") {
			media, _, _ := strings.Cut(part, ";")
			switch strings.TrimSpace(media) {
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				streamOK = true
			}
		}
	}
	if !jsonOK || !streamOK {
		return false
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil {
		if localLoopback(local) && !loopback(r.Host) {
			return false
		}
	}
	return true
}

// localLoopback is loopback(local.String()), without making the string
// for the TCP address every request has.
func localLoopback(local net.Addr) bool {
	if ta, ok := local.(*net.TCPAddr); ok {
		return ta.IP.IsLoopback()
	}
	return loopback(local.String())
}

// loopback reports whether a host or host:port names the loopback
// interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// servedVersion is what the SDK said, once, about one protocol version.
type servedVersion struct {
	ok bool
	// resultMeta is the _meta the SDK adds to every result from 2026-07-28
	// on (the server's identity); nil before.
	resultMeta json.RawMessage
}

// versionServed reports whether the server accepts requests at version:
// a server may narrow the versions it speaks, which only the SDK knows, so
// each version is asked once through the SDK (tools/list, in the form that
// version wants). From 2026-07-28 the answer also shows the result _meta
// the SDK adds.
func (h *httpHandler) versionServed(version string) servedVersion {
	h.mu.Lock()
	v, ok := h.versions[version]
	h.mu.Unlock()
	if ok {
		return v
	}
	newProtocol := perRequestProtocol(version)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	if newProtocol {
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"` + metaProtocolVersion + `":"` + version + `","` + metaClientCapabilities + `":{}}}}`
	}
	probe := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "/", strings.NewReader(body))
	probe.Host = "localhost"
	probe.Header.Set("Content-Type", "application/json")
	probe.Header.Set("Accept", "application/json, text/event-stream")
	probe.Header.Set("Mcp-Method", "tools/list")
	if version != "" {
		probe.Header.Set("Mcp-Protocol-Version", version)
	}
	rec := httptest.NewRecorder()
	h.inner.ServeHTTP(rec, probe)
	var resp struct {
		Result *struct {
			Meta json.RawMessage `json:"_meta"`
		} `json:"result"`
	}
	var served servedVersion
	if rec.Code == http.StatusOK && json.Unmarshal(rec.Body.Bytes(), &resp) == nil && resp.Result != nil {
		served.ok = true
		if newProtocol {
			served.resultMeta = resp.Result.Meta
			served.ok = len(served.resultMeta) > 0
		}
	}
	h.mu.Lock()
	if h.versions == nil {
		h.versions = map[string]servedVersion{}
	}
	h.versions[version] = served
	h.mu.Unlock()
	return served
}

// headerValue is h's first value under key, "" when none. key must be in
// canonical form (http.CanonicalHeaderKey's), as a request's header map
// is keyed: reading the map directly skips canonicalising the key on each
// of the half-dozen lookups every call makes.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
