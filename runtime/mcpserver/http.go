package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// HTTPOptions configure the streamable HTTP endpoint. The zero value keeps
// the body, response and request-memory bounds but sets no in-flight cap
// and no rate limit.
type HTTPOptions struct {
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// MaxResponseBytes bounds what one response may buffer before it is
	// sent; default 8 MiB. A larger response becomes -32603 and HTTP 500,
	// so no request can make the server hold an unbounded answer.
	MaxResponseBytes int64
	// Budget is the in-flight cap, request memory and rate buckets the
	// endpoint draws on; share one Budget between endpoints so that they
	// share their limits. Nil builds one from MaxInFlight, MaxRequestMemory
	// and RateLimit.
	Budget *ucpcore.Budget
	// MaxInFlight caps the POST requests being served at once; 0 means no
	// cap. Requests above it get -32000 with HTTP 503 and Retry-After.
	MaxInFlight int
	// MaxRequestMemory is BudgetOptions.MaxRequestMemory: each request
	// reserves a multiple of its body size from it before it is served.
	MaxRequestMemory int64
	// RateLimit limits tools/call per caller (nil: no limit); refused calls
	// get -32000 with HTTP 429 and Retry-After.
	RateLimit *ucpcore.RateLimit
	// MinWriteRate is the slowest a client may read an answer, in bytes per
	// second, once WriteGrace has passed; a slower connection is closed.
	// 0 means DefaultMinWriteRate, a negative value no minimum. The
	// request's in-flight slot and memory are given back before the answer
	// is written, so a slow reader holds only its connection.
	MinWriteRate int64
	// WriteGrace is how long an answer may take before MinWriteRate
	// applies; 0 means DefaultWriteGrace.
	WriteGrace time.Duration
	// Stateful keeps MCP sessions across requests; the default is stateless,
	// which suits UCP's read-only tools and horizontal scaling.
	Stateful bool
	// DirectToolCalls answers stateless tools/call requests for tools added
	// with Add without the SDK's per-request session, writing the same
	// bytes once instead of three times (about twice the throughput on
	// 10-location pages, docs/benchmarks.md). The server's receiving
	// middleware does not see those calls, so it is off by default; other
	// requests, and calls in a shape the direct path does not know, still go
	// through the SDK, and so does one tools/list per protocol version, which
	// asks the SDK whether the server speaks it. TestDirectToolCallsMatchTheSDK
	// holds the two paths to the same status, headers and bytes. It has no
	// effect with Stateful.
	DirectToolCalls bool
	// Logger receives responses that exceeded MaxResponseBytes.
	Logger *slog.Logger
}

// Default bounds of HTTPOptions.
const (
	DefaultMaxBodyBytes     = ucpcore.DefaultMaxBodyBytes
	DefaultMaxResponseBytes = ucpcore.DefaultMaxResponseBytes
	DefaultMinWriteRate     = 64 << 10
	DefaultWriteGrace       = time.Second
)

// errResponseTooLarge stops the SDK writing a response past the bound.
var errResponseTooLarge = errors.New("response exceeds the configured bound")

// Handler serves server over MCP streamable HTTP with JSON responses and
// hardens the POST path in front of the SDK:
//
//   - a request that is not JSON gets -32700, a JSON-RPC batch array (MCP
//     2025-06-18 removed batching) or a non-request gets -32600, and the
//     SDK's own plain-text refusals (unknown method -32601, bad headers) are
//     rewritten as JSON-RPC error objects, each keeping its HTTP status;
//   - request bodies and buffered responses are bounded;
//   - MaxInFlight and RateLimit refuse excess calls with -32000 and
//     503 or 429 plus Retry-After;
//   - a tool failing with a -32000 transport error gets the HTTP status it
//     names (401, 403, 409, 429, 503), with Retry-After when it carries
//     retry_after.
func Handler(server *mcp.Server, opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	h := &httpHandler{opts: *opts, budget: opts.Budget}
	if h.budget == nil {
		h.budget = ucpcore.NewBudget(ucpcore.BudgetOptions{MaxInFlight: opts.MaxInFlight, MaxRequestMemory: opts.MaxRequestMemory, RateLimit: opts.RateLimit})
	}
	if h.opts.MinWriteRate == 0 {
		h.opts.MinWriteRate = DefaultMinWriteRate
	}
	if h.opts.WriteGrace <= 0 {
		h.opts.WriteGrace = DefaultWriteGrace
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if h.opts.MaxResponseBytes <= 0 {
		h.opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
	}
	if opts.DirectToolCalls && !opts.Stateful {
		h.direct = server
	}
	h.inner = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           !opts.Stateful,
		JSONResponse:        true,
		MaxRequestBodyBytes: h.opts.MaxBodyBytes,
	})
	return h
}

type httpHandler struct {
	opts   HTTPOptions
	inner  http.Handler
	budget *ucpcore.Budget
	// direct is the server whose Add-ed tools the direct path answers, nil
	// when the path is off; versions caches versionServed.
	direct   *mcp.Server
	versions sync.Map
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.serveNotPost(w, r)
		return
	}
	body, err := readBody(w, r, h.opts.MaxBodyBytes)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeProtocolError(w, http.StatusRequestEntityTooLarge, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit))
			return
		}
		writeProtocolError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeParseError, "could not read the request body")
		return
	}
	// Admission comes once the body is in (a client that sends its body
	// slowly holds a connection, bounded by the read timeout, not a slot or
	// memory) and before anything is decoded, so a request waiting for
	// memory holds its body and nothing more.
	adm, err := h.budget.Admit(r.Context(), len(body))
	if err != nil {
		writeRPCError(w, jsonrpc.ID{}, RPCError(err, h.opts.Logger))
		return
	}
	defer adm.Release()
	req, perr := preparse(body)
	if perr != nil {
		if h.refusedOther(w, r, jsonrpc.ID{}) {
			return
		}
		writeProtocolError(w, http.StatusBadRequest, jsonrpc.ID{}, perr.Code, perr.Message)
		return
	}
	var id jsonrpc.ID
	if req != nil {
		id = req.ID
		NoteOf(r.Context()).request(req.Method, id)
	}
	// A tools/call is charged inside the tool, from the arguments it runs
	// with (see charge); every other request here.
	if (req == nil || req.Method != "tools/call") && h.refusedOther(w, r, id) {
		return
	}
	ctx := ucpcore.WithBudget(r.Context(), h.budget, ucpcore.RemoteHost(r.RemoteAddr))
	r = r.WithContext(ctx)
	if req != nil && h.direct != nil && h.serveDirect(w, r, req, adm) {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// The SDK does not hand the request's context to tool handlers, so work
	// would go on after the caller left; pass it by a key only we set. The
	// tool handler leaves its JSON-RPC error in the same entry, so the
	// response need not be parsed again to find a -32000 status.
	key := rand.Text()
	r.Header.Set(requestKeyHeader, key)
	call := &callState{ctx: ctx, limit: h.opts.MaxResponseBytes}
	requestContexts.Store(key, call)
	defer requestContexts.Delete(key)
	rec := &statusRecorder{header: http.Header{}, limit: h.opts.MaxResponseBytes}
	h.inner.ServeHTTP(rec, r)
	// The answer is produced: what is left is writing it, which a slow
	// reader must not make the server's capacity wait for.
	adm.Release()
	if rec.overflow || call.overflowed() {
		h.opts.Logger.Error("mcp response exceeded the bound and was replaced by an error", "limit", h.opts.MaxResponseBytes)
		writeProtocolError(w, http.StatusInternalServerError, id, rpcerr.CodeInternal, fmt.Sprintf("response exceeds %d bytes", h.opts.MaxResponseBytes))
		return
	}
	// A tools/call the SDK answered without running a tool (an unknown
	// tool, params it refused) still counts, on the cheaper bucket.
	if req != nil && req.Method == "tools/call" && !ucpcore.ToolCharged(ctx) && h.refusedOther(w, r, id) {
		return
	}
	rec.flush(w, id, call.toolError(), h.paced)
}

// readBody reads a request body of at most limit bytes, into a buffer of
// exactly its declared length when it has one, so that a body waiting for
// admission costs its size and not the slack of a growing buffer.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	if n := r.ContentLength; n > 0 && n <= limit {
		buf := make([]byte, n)
		if _, err := io.ReadFull(body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(body)
}

// refusedOther charges a request that runs no tool to its remote address
// and, when that caller is over its budget, answers 429 and reports true.
func (h *httpHandler) refusedOther(w http.ResponseWriter, r *http.Request, id jsonrpc.ID) bool {
	if err := h.budget.ChargeOther(ucpcore.RemoteHost(r.RemoteAddr)); err != nil {
		writeRPCError(w, id, RPCError(err, h.opts.Logger))
		return true
	}
	return false
}

// serveNotPost answers the methods other than POST: a stateless endpoint
// has none, a stateful one has GET (the SDK's event stream) and DELETE (end
// a session). Refusals are JSON-RPC errors with Allow, like every other
// refusal of the endpoint.
func (h *httpHandler) serveNotPost(w http.ResponseWriter, r *http.Request) {
	if h.refusedOther(w, r, jsonrpc.ID{}) {
		return
	}
	allow := "POST"
	if h.opts.Stateful {
		if r.Method == http.MethodGet || r.Method == http.MethodDelete {
			h.inner.ServeHTTP(w, r)
			return
		}
		allow = "GET, POST, DELETE"
	}
	w.Header().Set("Allow", allow)
	writeProtocolError(w, http.StatusMethodNotAllowed, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("method %s not allowed: use %s", r.Method, allow))
}

// paced writes an answer at no less than MinWriteRate after WriteGrace,
// in chunks whose deadlines follow that rate; a client that reads slower
// has its connection closed instead of holding it for the write timeout.
func (h *httpHandler) paced(w http.ResponseWriter, data []byte) {
	if h.opts.MinWriteRate < 0 {
		w.Write(data)
		return
	}
	rc := http.NewResponseController(w)
	start := time.Now()
	const chunk = 32 << 10
	for written := 0; written < len(data); {
		n := min(chunk, len(data)-written)
		if rest := len(data) - written - n; rest < chunk/2 {
			// A short tail goes with this chunk: a write of its own would
			// cost a deadline and a syscall (and a small segment) for a
			// few KB, as a 35 KB page would pay on every call.
			n += rest
		}
		due := start.Add(h.opts.WriteGrace + time.Duration(float64(written+n)/float64(h.opts.MinWriteRate)*float64(time.Second)))
		if rc.SetWriteDeadline(due) != nil {
			// Not a connection with deadlines (a recorder): write plainly.
			w.Write(data[written:])
			return
		}
		if _, err := w.Write(data[written : written+n]); err != nil {
			return
		}
		written += n
	}
	if rc.Flush() == nil {
		// Done in time: the connection's next request gets the server's
		// own deadline again.
		rc.SetWriteDeadline(time.Time{})
	}
}

// requestKeyHeader carries, from Handler to the tool handler, the key of
// the HTTP request's context in requestContexts. Handler overwrites any
// value a client sent, and keys are random, so a caller cannot reach another
// request's context.
const requestKeyHeader = "X-Ucpgen-Request-Key"

// requestContexts maps request keys to the *callState of requests in flight.
var requestContexts sync.Map

// callState is what the HTTP layer and the tool handler share about one
// request: its context, and the JSON-RPC error the tool returned.
type callState struct {
	ctx context.Context
	// limit is the endpoint's MaxResponseBytes, which the tool handler
	// checks before it builds the SDK's result.
	limit    int64
	mu       sync.Mutex
	err      *jsonrpc.Error
	overflow bool
}

// noteOverflow records that the answer would exceed the bound.
func (c *callState) noteOverflow() {
	c.mu.Lock()
	c.overflow = true
	c.mu.Unlock()
}

func (c *callState) overflowed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.overflow
}

// noteError records the error the tool handler returned.
func (c *callState) noteError(err *jsonrpc.Error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
}

func (c *callState) toolError() *jsonrpc.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// callOfHeader is the state of the HTTP request whose key header is set.
func callOfHeader(header http.Header) *callState {
	if header == nil {
		return nil
	}
	v, ok := requestContexts.Load(header.Get(requestKeyHeader))
	if !ok {
		return nil
	}
	return v.(*callState)
}

// callerContext returns ctx, cancelled as well when the HTTP request that
// carried the call ends (the client went away or the server shut down).
func callerContext(ctx context.Context, header http.Header) (context.Context, context.CancelFunc) {
	state := callOfHeader(header)
	if state == nil {
		return ctx, func() {}
	}
	caller := state.ctx
	if n := NoteOf(caller); n != nil {
		ctx = context.WithValue(ctx, noteKey{}, n)
	}
	merged, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	return merged, func() {
		stop()
		cancel(nil)
	}
}

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
	scanned := jsonmember.Scans(trimmed)
	if !scanned && !json.Valid(trimmed) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: the body is not valid JSON"}
	}
	if trimmed[0] == '[' {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: JSON-RPC batch arrays are not supported (MCP 2025-06-18 removed batching); send one request per message"}
	}
	if trimmed[0] != '{' {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: a JSON-RPC message must be an object"}
	}
	if perr := checkEnvelope(trimmed); perr != nil {
		return nil, perr
	}
	if scanned {
		if req, ok := plainRequest(trimmed); ok {
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
// tens of kilobytes per message, more than the rest of a search. obj has
// passed checkEnvelope (no repeated member, an exact id) and the scanner.
func plainRequest(obj []byte) (req *jsonrpc.Request, ok bool) {
	var version, method, id, params json.RawMessage
	err := jsonmember.Each(obj, func(key string, value json.RawMessage) error {
		switch key {
		case "jsonrpc":
			version = value
		case "method":
			method = value
		case "id":
			id = value
		case "params":
			params = value
		default:
			return errNotDirect
		}
		return nil
	})
	if err != nil || string(version) != `"2.0"` || method == nil || (params != nil && params[0] != '{') {
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
		// checkEnvelope let only integers within 2^53 through, which a
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

// checkEnvelope refuses what the SDK would read differently from how it
// is written: a repeated top-level member (the SDK keeps the last one), and
// a numeric id it cannot echo exactly. The SDK holds a number id as an
// int64 made from a float64, so a fraction, an exponent, -0 or an integer
// beyond ±2^53 would come back as another number.
func checkEnvelope(obj []byte) *jsonrpc.Error {
	seen := map[string]bool{}
	var perr *jsonrpc.Error
	err := jsonmember.Each(obj, func(key string, value json.RawMessage) error {
		if seen[key] {
			perr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: member %q appears more than once", key)}
			return errStop
		}
		seen[key] = true
		if key == "id" && !exactID(value) {
			perr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: id %.40s cannot be echoed exactly: use a string, or an integer from -2^53 to 2^53 without a fraction or exponent", value)}
			return errStop
		}
		return nil
	})
	if err != nil && perr == nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: " + err.Error()}
	}
	return perr
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

// writeProtocolError answers with a JSON-RPC error object and status.
func writeProtocolError(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string) {
	writeResponse(w, status, id, &jsonrpc.Error{Code: code, Message: msg})
}

// writeRPCError answers with err, using the HTTP status and Retry-After a
// -32000 error names.
func writeRPCError(w http.ResponseWriter, id jsonrpc.ID, err *jsonrpc.Error) {
	writeResponse(w, statusFor(w, http.StatusInternalServerError, err), id, err)
}

// statusFor is the HTTP status a -32000 error names in its data (400-599),
// with its Retry-After set on w when it carries retry_after; for any other
// error, or none, it is status.
func statusFor(w http.ResponseWriter, status int, err *jsonrpc.Error) int {
	if err == nil || err.Code != rpcerr.CodeTransport {
		return status
	}
	var d struct {
		Status     int   `json:"status"`
		RetryAfter int64 `json:"retry_after"`
	}
	if json.Unmarshal(err.Data, &d) != nil || d.Status < 400 || d.Status > 599 {
		return status
	}
	if d.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(d.RetryAfter, 10))
	}
	return d.Status
}

func writeResponse(w http.ResponseWriter, status int, id jsonrpc.ID, err *jsonrpc.Error) {
	data, encErr := encodeError(id, err)
	if encErr != nil {
		http.Error(w, err.Message, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// encodeError is the JSON-RPC response carrying err. Without an id (the
// request's id is not known, or it had none) the response carries
// "id": null, as JSON-RPC 2.0 requires; the SDK's encoder would leave the
// member out.
func encodeError(id jsonrpc.ID, err *jsonrpc.Error) ([]byte, error) {
	if id.IsValid() {
		return jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: err})
	}
	e, merr := json.Marshal(err)
	if merr != nil {
		return nil, merr
	}
	return append(append([]byte(`{"jsonrpc":"2.0","id":null,"error":`), e...), '}'), nil
}

// statusRecorder buffers a JSON response, up to limit bytes, so its HTTP
// status can follow the JSON-RPC error inside it.
type statusRecorder struct {
	header   http.Header
	status   int
	body     bytes.Buffer
	limit    int64
	overflow bool
}

func (s *statusRecorder) Header() http.Header { return s.header }
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if s.overflow || int64(s.body.Len()+len(b)) > s.limit {
		s.overflow = true
		s.body = bytes.Buffer{}
		return 0, errResponseTooLarge
	}
	return s.body.Write(b)
}
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}

// flush sends the buffered response; toolErr is the error the tool handler
// returned, whose -32000 status it takes.
func (s *statusRecorder) flush(w http.ResponseWriter, id jsonrpc.ID, toolErr *jsonrpc.Error, write func(http.ResponseWriter, []byte)) {
	status := s.status
	if status == 0 {
		status = http.StatusOK
	}
	isJSON := strings.HasPrefix(s.header.Get("Content-Type"), "application/json")
	if status >= 400 && !isJSON {
		// The SDK refused the request in plain text; say it in JSON-RPC.
		msg := strings.TrimSpace(s.body.String())
		code := int64(jsonrpc.CodeInvalidRequest)
		if strings.HasPrefix(msg, "JSON RPC not handled") {
			code = jsonrpc.CodeMethodNotFound
			msg = "method not found" + strings.TrimPrefix(msg, "JSON RPC not handled")
		}
		if status >= 500 {
			code = rpcerr.CodeInternal
		}
		for _, k := range []string{"Allow", "Mcp-Session-Id"} {
			if v := s.header.Get(k); v != "" {
				w.Header().Set(k, v)
			}
		}
		writeProtocolError(w, status, id, code, msg)
		return
	}
	for k, v := range s.header {
		w.Header()[k] = v
	}
	if status == http.StatusOK && isJSON {
		status = statusFor(w, status, toolErr)
	}
	// The whole body is known; saying its length lets the write be paced
	// in chunks without turning into chunked encoding.
	w.Header().Set("Content-Length", strconv.Itoa(s.body.Len()))
	w.WriteHeader(status)
	write(w, s.body.Bytes())
}
