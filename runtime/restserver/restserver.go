// Package restserver serves generated UCP tools over UCP's REST binding:
// one POST route per operation, the UCP-Agent header in place of MCP's
// meta["ucp-agent"], and the HTTP statuses the binding prescribes. Each call
// runs through ucpcore.Endpoint, the same decode, validate, charge,
// negotiate, run and encode path runtime/mcpserver uses for a tools/call,
// and draws on the same ucpcore.Budget, so the two transports answer and
// limit alike without either importing the other.
package restserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// Header is a request header an operation declares.
type Header struct {
	Name     string
	Required bool
	// Format is the header schema's format ("uuid" for Request-Id).
	Format string
}

// Operation is one REST operation of the binding, generated from the
// service's OpenAPI document.
type Operation struct {
	// Tool is the operationId, the name of the tool it calls.
	Tool string
	// Method and Path are the HTTP method and the path below the base.
	Method, Path string
	// MediaType is the one request body type accepted.
	MediaType string
	// Headers are the request headers the operation declares.
	Headers []Header
}

// OperationsOf keeps the operations of ops whose tool is among tools, so
// that a Business serving some of a service's capabilities routes only
// their operations; every other path gets the binding's JSON 404.
func OperationsOf(tools []ucpcore.Tool, ops []Operation) []Operation {
	var out []Operation
	for _, op := range ops {
		if slices.ContainsFunc(tools, func(t ucpcore.Tool) bool { return t.Name == op.Tool }) {
			out = append(out, op)
		}
	}
	return out
}

// Options configure a REST handler. The zero value serves at the root with
// its own budget (memory admission only), a 1 MiB body cap and the access
// log on slog.Default.
type Options struct {
	// Base is the path prefix of every route ("/ucp"); the advertised
	// endpoint is the server's origin followed by Base.
	Base string
	// Budget is the in-flight cap, request memory and rate buckets; share
	// the MCP endpoint's so a caller cannot escape them by switching
	// transport.
	Budget *ucpcore.Budget
	// MaxBodyBytes bounds a request body; default ucpcore.DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Logger receives the access log and server faults.
	Logger *slog.Logger
	// NoAccessLog turns the per-request log line off (for load tests).
	NoAccessLog bool
}

// Headers of the binding the handler reads or writes itself.
const (
	HeaderAgent     = "UCP-Agent"
	HeaderRequestID = "Request-Id"
	HeaderDigest    = "Content-Digest"
	// HeaderIdempotency carries meta's idempotency-key on the operations
	// that declare it.
	HeaderIdempotency = "Idempotency-Key"
)

// metaHeaders maps each member of MCP's meta that a REST header carries to
// that header, so a violation in meta names the header the client sent.
var metaHeaders = map[string]string{"ucp-agent": HeaderAgent, "idempotency-key": HeaderIdempotency}

// Refusal is the body of every non-200 answer: code and content as UCP's
// negotiation errors have them, continue_url when discovery gives one, the
// header at fault, and the violations a -32602 would carry (pointers
// relative to the body).
type Refusal struct {
	Code        string             `json:"code"`
	Content     string             `json:"content"`
	ContinueURL string             `json:"continue_url,omitempty"`
	Header      string             `json:"header,omitempty"`
	Violations  []rpcerr.Violation `json:"violations,omitempty"`
}

// route is one operation bound to its tool.
type route struct {
	op       Operation
	endpoint *ucpcore.Endpoint
	// bodyParam is the tool argument the body fills.
	bodyParam string
	// needID and uuidID say whether Request-Id is required and a UUID.
	needID, uuidID bool
	// idempotency says whether the operation declares Idempotency-Key,
	// which then reaches the tool as meta's idempotency-key.
	idempotency bool
}

// handler serves every route of one binding.
type handler struct {
	opts   Options
	mux    *http.ServeMux
	routes map[string]*route
}

// New builds the handler for ops, each served by the tool of its name in
// tools with toolOpts (the options of the MCP registration). Every tool
// must take ucpcore.MetaParam and exactly one other argument, the body.
func New(tools []ucpcore.Tool, ops []Operation, toolOpts *ucpcore.Options, opts *Options) (http.Handler, error) {
	h := &handler{mux: http.NewServeMux(), routes: map[string]*route{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = ucpcore.DefaultMaxBodyBytes
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
	}
	if h.opts.Budget == nil {
		h.opts.Budget = ucpcore.NewBudget(ucpcore.BudgetOptions{})
	}
	base := strings.TrimSuffix(h.opts.Base, "/")
	byName := map[string]ucpcore.Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	allowed := map[string][]string{}
	for _, op := range ops {
		t, ok := byName[op.Tool]
		if !ok {
			return nil, fmt.Errorf("restserver: operation %s %s names tool %q, which is not among the tools", op.Method, op.Path, op.Tool)
		}
		rt := &route{op: op, endpoint: ucpcore.NewEndpoint(t, toolOpts)}
		for _, p := range t.Params {
			if p.Name != ucpcore.MetaParam {
				if rt.bodyParam != "" {
					return nil, fmt.Errorf("restserver: tool %s takes more than one argument besides %s; the REST binding carries one body", t.Name, ucpcore.MetaParam)
				}
				rt.bodyParam = p.Name
			}
		}
		if rt.bodyParam == "" {
			return nil, fmt.Errorf("restserver: tool %s takes no argument for the body", t.Name)
		}
		for _, hd := range op.Headers {
			switch {
			case strings.EqualFold(hd.Name, HeaderRequestID):
				rt.needID, rt.uuidID = hd.Required, hd.Format == "uuid"
			case strings.EqualFold(hd.Name, HeaderIdempotency):
				rt.idempotency = true
			}
		}
		p := base + op.Path
		h.mux.Handle(op.Method+" "+p, rt.serve(h))
		allowed[p] = append(allowed[p], op.Method)
	}
	// Every other path, such as the operation of a capability the
	// Business does not implement, a case or escape variant of a route, or
	// a path outside the base when the handler is mounted at the root, is
	// a JSON 404 like the binding's other refusals, charged as they are.
	h.mux.HandleFunc("/", h.notFound)
	for p, methods := range allowed {
		allow := strings.Join(methods, ", ")
		h.mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			h.refuse(w, r, http.StatusMethodNotAllowed, Refusal{Code: "method_not_allowed", Content: fmt.Sprintf("%s is not allowed here; use %s", r.Method, allow)})
		})
	}
	return h, nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			h.opts.Logger.Error("ucp rest handler panicked", "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if rec.status == 0 {
				writeRefusal(rec, http.StatusInternalServerError, Refusal{Code: "internal_error", Content: "internal error"})
			}
		}
		if !h.opts.NoAccessLog {
			// Bounded, as a request chooses both.
			h.opts.Logger.Info("ucp rest request", "method", r.Method, "path", rpcerr.Truncate(r.URL.EscapedPath(), maxPathEcho),
				"request_id", rpcerr.Truncate(strings.ToValidUTF8(r.Header.Get(HeaderRequestID), "\uFFFD"), maxIDEcho),
				"status", rec.status, "bytes", rec.bytes, "duration", time.Since(start), "remote", ucpcore.RemoteHost(r.RemoteAddr))
		}
	}()
	if !canonical(r.URL.EscapedPath()) {
		// ServeMux would redirect (307) a path with repeated slashes or
		// dot segments: a refusal in another shape, charged to no bucket.
		h.notFound(rec, r)
		return
	}
	h.mux.ServeHTTP(rec, r)
}

// notFound answers a path the binding has no operation at.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.refuse(w, r, http.StatusNotFound, Refusal{Code: "not_found", Content: "no operation at " + rpcerr.Truncate(r.URL.EscapedPath(), maxPathEcho)})
}

// maxPathEcho bounds the path a 404 repeats, so that a long request line
// does not come back whole.
const maxPathEcho = 200

// maxIDEcho bounds the Request-Id the access log repeats (a UUID is 36).
const maxIDEcho = 64

// canonical reports whether an escaped request path is one ServeMux routes
// without redirecting: rooted, with no empty, "." or ".." segment.
func canonical(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	return c == p || c+"/" == p
}

// serve answers one request of the route.
func (rt *route) serve(h *handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bf := ucpcore.CheckBodyForm(r.Header); bf != nil {
			code := "unsupported_media_type"
			if bf.Status != http.StatusUnsupportedMediaType {
				code = "invalid_header"
			}
			if bf.Header == "Content-Encoding" {
				w.Header().Set("Accept-Encoding", ucpcore.AcceptEncoding)
			}
			h.refuse(w, r, bf.Status, Refusal{Code: code, Content: bf.Error(), Header: bf.Header})
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != rt.op.MediaType {
			h.refuse(w, r, http.StatusUnsupportedMediaType, Refusal{Code: "unsupported_media_type", Content: "the body must be " + rt.op.MediaType, Header: "Content-Type"})
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				h.refuse(w, r, http.StatusRequestEntityTooLarge, Refusal{Code: "body_too_large", Content: fmt.Sprintf("the body exceeds %d bytes", mbe.Limit)})
				return
			}
			h.refuse(w, r, http.StatusBadRequest, Refusal{Code: "invalid_request", Content: "could not read the body"})
			return
		}
		// The slot and memory are taken once the body is in, as for MCP.
		adm, err := h.opts.Budget.Admit(r.Context(), len(body))
		if err != nil {
			h.fail(w, r, err, true)
			return
		}
		defer adm.Release()
		if ref, ok := rt.check(r, body); !ok {
			h.refuse(w, r, http.StatusBadRequest, ref)
			return
		}
		profile, ref, ok := agentProfile(r.Header)
		if !ok {
			h.refuse(w, r, http.StatusBadRequest, ref)
			return
		}
		meta := map[string]any{"ucp-agent": map[string]string{"profile": profile}}
		if rt.idempotency {
			switch keys := r.Header.Values(HeaderIdempotency); len(keys) {
			case 0:
			case 1:
				meta["idempotency-key"] = keys[0]
			default:
				h.refuse(w, r, http.StatusBadRequest, Refusal{Code: "invalid_header", Content: "Idempotency-Key must be sent once", Header: HeaderIdempotency})
				return
			}
		}
		args, err := arguments(meta, rt.bodyParam, body)
		if err != nil {
			h.refuse(w, r, http.StatusInternalServerError, Refusal{Code: "internal_error", Content: "internal error"})
			return
		}
		ctx := ucpcore.WithBudget(r.Context(), h.opts.Budget, ucpcore.RemoteHost(r.RemoteAddr))
		out, err := h.call(ctx, rt.endpoint, args)
		if err != nil {
			h.fail(w, r, bodyRelative(err, rt.bodyParam), ucpcore.ToolCharged(ctx))
			return
		}
		sum := sha256.Sum256(out)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(HeaderDigest, "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(http.StatusOK)
		w.Write(out)
		ucpcore.RecycleBody(out)
	})
}

// call runs one call through the core and returns its body, or a typed
// error the binding answers, or ucpcore.ErrInternal for a fault that is not
// the caller's (logged here, never sent).
func (h *handler) call(ctx context.Context, ep *ucpcore.Endpoint, args json.RawMessage) ([]byte, error) {
	name := ep.Tool().Name
	body, err := ep.Call(ctx, args)
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
		if !errors.Is(err, ucpcore.ErrInternal) {
			ucpcore.LoggerOf(ep.Options()).Error("ucp tool failed", "tool", name, "err", err)
		}
		return nil, ucpcore.ErrInternal
	}
	if limit := ep.Options().ResponseLimit(0); int64(len(body)) > limit {
		ucpcore.LoggerOf(ep.Options()).Error("ucp response exceeded the bound and was replaced by an error", "tool", name, "limit", limit)
		ucpcore.RecycleBody(body)
		return nil, ucpcore.ErrInternal
	}
	return body, nil
}

// check refuses a request whose Request-Id or Content-Digest is wrong, or
// whose body is not JSON, before any tool sees it.
func (rt *route) check(r *http.Request, body []byte) (Refusal, bool) {
	ids := r.Header.Values(HeaderRequestID)
	id := r.Header.Get(HeaderRequestID)
	switch {
	case len(ids) > 1:
		return Refusal{Code: "invalid_header", Content: "Request-Id must be sent once; a request has one id", Header: HeaderRequestID}, false
	case id == "" && rt.needID:
		return Refusal{Code: "invalid_header", Content: "Request-Id is required", Header: HeaderRequestID}, false
	case id != "" && rt.uuidID && !isUUID(id):
		return Refusal{Code: "invalid_header", Content: "Request-Id must be a UUID", Header: HeaderRequestID}, false
	case id != "" && rt.uuidID && sentinelUUID(id):
		return Refusal{Code: "invalid_header", Content: "Request-Id must identify the request; the nil and max UUIDs (RFC 9562 sections 5.9 and 5.10) identify none", Header: HeaderRequestID}, false
	}
	if vals := r.Header.Values(HeaderDigest); len(vals) > 0 {
		if ref, ok := checkDigest(vals, body); !ok {
			return ref, false
		}
	}
	if !json.Valid(body) {
		return Refusal{Code: "invalid_json", Content: "the body is not valid JSON"}, false
	}
	return Refusal{}, true
}

// checkDigest verifies an RFC 9530 Content-Digest: a dictionary whose
// sha-256 member is the byte sequence of the body's SHA-256.
func checkDigest(vals []string, body []byte) (Refusal, bool) {
	d, err := httpsfv.UnmarshalDictionary(vals)
	if err != nil {
		return Refusal{Code: "invalid_header", Content: "Content-Digest is not an RFC 8941 dictionary: " + err.Error(), Header: HeaderDigest}, false
	}
	if name, ok := repeatedMember(vals); ok {
		return Refusal{Code: "invalid_header", Content: "Content-Digest names " + name + " more than once; send each digest once", Header: HeaderDigest}, false
	}
	m, ok := d.Get("sha-256")
	if !ok {
		return Refusal{Code: "invalid_header", Content: "Content-Digest must carry sha-256, the one algorithm accepted", Header: HeaderDigest}, false
	}
	it, ok := m.(httpsfv.Item)
	want, isBytes := it.Value.([]byte)
	if !ok || !isBytes {
		return Refusal{Code: "invalid_header", Content: "Content-Digest sha-256 must be a byte sequence (:base64:)", Header: HeaderDigest}, false
	}
	got := sha256.Sum256(body)
	if !bytes.Equal(want, got[:]) {
		return Refusal{Code: "digest_mismatch", Content: "Content-Digest sha-256 does not match the body", Header: HeaderDigest}, false
	}
	return Refusal{}, true
}

// agentProfile reads UCP-Agent, an RFC 8941 dictionary, and returns its
// profile member, a string.
func agentProfile(h http.Header) (string, Refusal, bool) {
	vals := h.Values(HeaderAgent)
	if len(vals) == 0 {
		return "", Refusal{Code: "invalid_header", Content: "UCP-Agent is required: profile=\"<URI of the Platform's profile>\"", Header: HeaderAgent}, false
	}
	d, err := httpsfv.UnmarshalDictionary(vals)
	if err != nil {
		return "", Refusal{Code: "invalid_header", Content: "UCP-Agent is not an RFC 8941 dictionary: " + err.Error(), Header: HeaderAgent}, false
	}
	if name, ok := repeatedMember(vals); ok {
		// MCP refuses a repeated member of meta["ucp-agent"] too.
		return "", Refusal{Code: "invalid_header", Content: "UCP-Agent names " + name + " more than once", Header: HeaderAgent}, false
	}
	m, ok := d.Get("profile")
	if !ok {
		return "", Refusal{Code: "invalid_header", Content: "UCP-Agent has no profile member", Header: HeaderAgent}, false
	}
	it, isItem := m.(httpsfv.Item)
	s, isString := it.Value.(string)
	if !isItem || !isString {
		return "", Refusal{Code: "invalid_header", Content: "UCP-Agent profile must be a string (profile=\"https://...\")", Header: HeaderAgent}, false
	}
	return s, Refusal{}, true
}

// arguments is the tools/call arguments object a REST request stands for:
// meta from the headers that carry its members, and the body as the tool's
// argument.
func arguments(members map[string]any, bodyParam string, body []byte) (json.RawMessage, error) {
	meta, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	name, err := json.Marshal(bodyParam)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(body)+len(meta)+len(name)+16)
	b = append(b, `{"`+ucpcore.MetaParam+`":`...)
	b = append(b, meta...)
	b = append(b, ',')
	b = append(b, name...)
	b = append(b, ':')
	b = append(b, body...)
	return append(b, '}'), nil
}

// headerFault is a -32602 violation in meta. A REST request fills meta from
// its headers alone, so the fault is the header's: it is answered as
// invalid_header naming that header, as the handler's own header checks
// are, and not as a violation at a body pointer, which would blame the
// body's root.
type headerFault struct {
	header string
	v      rpcerr.Violation
}

func (f *headerFault) Error() string { return f.header + ": " + f.v.Message }

// bodyRelative rewrites a -32602's pointers from the arguments root to the
// body (/location/distance/max becomes /distance/max). A violation in meta
// came from the header carrying that member: the error becomes that
// header's fault (the first such violation), since a request with a bad
// header is refused for it before its body is considered.
func bodyRelative(err error, bodyParam string) error {
	ip, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		return err
	}
	prefix := "/" + rpcerr.EscapeToken(bodyParam)
	meta := "/" + rpcerr.EscapeToken(ucpcore.MetaParam)
	out := &rpcerr.InvalidParams{}
	for _, v := range ip.Violations {
		switch {
		case v.Pointer == meta || strings.HasPrefix(v.Pointer, meta+"/"):
			header := HeaderAgent
			member, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v.Pointer, meta), "/"), "/")
			if hd, ok := metaHeaders[member]; ok {
				header = hd
			}
			return &headerFault{header: header, v: v}
		case v.Pointer == prefix || strings.HasPrefix(v.Pointer, prefix+"/"):
			v.Pointer = strings.TrimPrefix(v.Pointer, prefix)
		}
		out.Violations = append(out.Violations, v)
	}
	return out
}

// fail answers a typed error with the status the binding gives it;
// charged says whether a tool ran and was charged for the request.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error, charged bool) {
	if _, ok := rpcerr.AsTransport(err); ok {
		h.transport(w, err)
		return
	}
	answer := writeRefusal
	if !charged {
		answer = func(w http.ResponseWriter, status int, ref Refusal) { h.refuse(w, r, status, ref) }
	}
	var hf *headerFault
	if errors.As(err, &hf) {
		answer(w, http.StatusBadRequest, Refusal{Code: "invalid_header", Content: rpcerr.Truncate(hf.Error(), rpcerr.MaxTextBytes), Header: hf.header})
		return
	}
	if ip, ok := rpcerr.AsInvalidParams(err); ok {
		b := ip.Bounded()
		answer(w, http.StatusBadRequest, Refusal{Code: "invalid_params", Content: b.Summary(), Violations: b.Violations})
		return
	}
	if dc, ok := rpcerr.AsDiscovery(err); ok {
		answer(w, discoveryStatus(dc.Code), Refusal{Code: dc.Code, Content: dc.Content, ContinueURL: dc.ContinueURL})
		return
	}
	if !errors.Is(err, ucpcore.ErrInternal) {
		h.opts.Logger.Error("ucp rest call failed", "path", r.URL.Path, "err", err)
	}
	answer(w, http.StatusInternalServerError, Refusal{Code: "internal_error", Content: "internal error"})
}

// discoveryStatus is the status LOCATION.md section 13 gives each
// negotiation failure.
func discoveryStatus(code string) int {
	switch code {
	case "invalid_profile_url":
		return http.StatusBadRequest
	case "profile_unreachable":
		return http.StatusFailedDependency
	default: // profile_malformed, version_unsupported and codes added later
		return http.StatusUnprocessableEntity
	}
}

// transportCode names a transport refusal by its status.
func transportCode(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusConflict:
		return "conflict"
	case http.StatusTooManyRequests:
		return "rate_limited"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	return "transport_error"
}

// refuse answers a request refused before any tool ran. Such requests are
// charged to the remote address's bucket for requests that run no tool,
// as over MCP, so a flood of bad requests is limited too.
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, status int, ref Refusal) {
	if err := h.opts.Budget.ChargeOther(ucpcore.RemoteHost(r.RemoteAddr)); err != nil {
		h.transport(w, err)
		return
	}
	writeRefusal(w, status, ref)
}

// transport answers an *rpcerr.Transport with its status and Retry-After.
func (h *handler) transport(w http.ResponseWriter, err error) {
	tr, _ := rpcerr.AsTransport(err)
	if tr.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((tr.RetryAfter+time.Second-1)/time.Second), 10))
	}
	writeRefusal(w, tr.HTTPStatus, Refusal{Code: transportCode(tr.HTTPStatus), Content: tr.Message})
}

func writeRefusal(w http.ResponseWriter, status int, ref Refusal) {
	data, _ := json.Marshal(ref)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// sentinelUUID reports whether s, a UUID, is the nil UUID or the max
// UUID, which RFC 9562 reserves as sentinels.
func sentinelUUID(s string) bool {
	return strings.Trim(s, "0-") == "" || strings.Trim(strings.ToLower(s), "f-") == ""
}

// repeatedMember returns the first member name that field values, already
// parsed as an RFC 8941 dictionary, give more than once. The parser keeps
// the last of a repeated name, as RFC 8941 says, which would let a wrong
// first value pass unseen; the binding refuses the repeat instead.
func repeatedMember(vals []string) (string, bool) {
	var seen []string
	for _, name := range memberNames(strings.Join(vals, ",")) {
		if slices.Contains(seen, name) {
			return name, true
		}
		seen = append(seen, name)
	}
	return "", false
}

// memberNames lists the top-level member names of a valid RFC 8941
// dictionary in order, repeats included. Members are separated by commas
// outside strings (inner lists separate by spaces, parameters by
// semicolons, and no other bare item holds a comma or a quote), and each
// begins with its key.
func memberNames(s string) []string {
	var names []string
	inString, atMember := false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == ',':
			atMember = true
		case atMember && c != ' ' && c != '\t':
			j := i
			for j < len(s) && isKeyChar(s[j]) {
				j++
			}
			if j > i {
				names = append(names, s[i:j])
				i = j - 1
			}
			atMember = false
		}
	}
	return names
}

// isKeyChar reports whether c may appear in an RFC 8941 key.
func isKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*'
}

// recorder notes the status and size of an answer for the access log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}
