package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	// asks the SDK whether the server speaks it, and the first call of each
	// tool, from which the handler learns that the SDK runs it through Add
	// (no table is shared between handlers). TestDirectToolCallsMatchTheSDK
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
	h.direct = opts.DirectToolCalls && !opts.Stateful
	h.inner = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           !opts.Stateful,
		JSONResponse:        true,
		MaxRequestBodyBytes: h.opts.MaxBodyBytes,
		// For 2026-07-28 and later the SDK ties the tool handler's context
		// to the request itself; callerContext covers the older versions.
		PropagateRequestCancellation: true,
	})
	h.chain = h.buildChain()
	return h
}

type httpHandler struct {
	opts HTTPOptions
	// chain is the composed POST path (buildChain); inner the SDK's handler.
	chain  http.Handler
	inner  http.Handler
	budget *ucpcore.Budget
	// calls are the requests in flight the SDK path serves (sdkcontext.go).
	calls callTable
	// direct says whether the direct path is on; tools are the Add-ed
	// tools it has learned, by name, and versions caches versionServed.
	direct   bool
	mu       sync.Mutex
	tools    map[string]*ucpcore.Endpoint
	versions map[string]servedVersion
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.chain.ServeHTTP(w, r)
}

// buildChain composes the POST path in front of the SDK, one concern per
// handler, outermost first: the method gate, write pacing, the body cap,
// admission, the preparse (with the charge of requests that run no tool),
// the budget context, the direct path, and the SDK call. The body form
// check comes right after the method gate.
func (h *httpHandler) buildChain() http.Handler {
	var next http.Handler = http.HandlerFunc(h.serveSDK)
	if h.direct {
		next = h.withDirect(next)
	}
	next = h.withPreparse(next)
	next = h.withAdmission(next)
	next = h.withBody(next)
	next = h.withPacing(next)
	next = h.withBodyForm(next)
	return h.withMethods(next)
}

// post is what the handlers in front of the SDK learn about one POST, as
// each learns it: the body, its admission and its JSON-RPC request (nil for
// a response or notification).
type post struct {
	body []byte
	adm  *ucpcore.Admission
	req  *jsonrpc.Request
}

// id is the request's JSON-RPC id, or the zero id while it is not known.
func (p *post) id() jsonrpc.ID {
	if p == nil || p.req == nil {
		return jsonrpc.ID{}
	}
	return p.req.ID
}

type postKey struct{}

// postOf is the post withBody put in r's context.
func postOf(r *http.Request) *post {
	p, _ := r.Context().Value(postKey{}).(*post)
	return p
}

// withMethods answers every method but POST (see serveNotPost).
func (h *httpHandler) withMethods(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h.serveNotPost(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withBodyForm refuses a POST whose headers say its body is not plain
// UTF-8 JSON (ucpcore.CheckBodyForm): the SDK would read a gzip body as
// text and a Latin-1 one as UTF-8. The REST binding refuses the same
// requests with the same statuses; the refusal is charged as any request
// that runs no tool.
func (h *httpHandler) withBodyForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bf := ucpcore.CheckBodyForm(r.Header)
		if bf == nil {
			next.ServeHTTP(w, r)
			return
		}
		if h.refusedOther(w, r, jsonrpc.ID{}) {
			return
		}
		if bf.Header == "Content-Encoding" {
			w.Header().Set("Accept-Encoding", ucpcore.AcceptEncoding)
		}
		writeProtocolError(w, bf.Status, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, bf.Error())
	})
}

// withBody reads the body, at most MaxBodyBytes, before anything else
// looks at the request, and puts the budget and the caller's address in
// the context, so the tool the request runs is charged there.
func (h *httpHandler) withBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		// One request copy carries both.
		ctx := context.WithValue(r.Context(), postKey{}, &post{body: body})
		ctx = ucpcore.WithBudget(ctx, h.budget, ucpcore.RemoteHost(r.RemoteAddr))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// withAdmission takes the request's in-flight slot and memory. Admission
// comes once the body is in (a client that sends its body slowly holds a
// connection, bounded by the read timeout, not a slot or memory) and
// before anything is decoded, so a request waiting for memory holds its
// body and nothing more. The handlers further in give the admission back
// as soon as the answer is produced, before it is written.
func (h *httpHandler) withAdmission(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := postOf(r)
		adm, err := h.budget.Admit(r.Context(), len(p.body))
		if err != nil {
			writeRPCError(w, jsonrpc.ID{}, RPCError(err, h.opts.Logger))
			return
		}
		defer adm.Release()
		p.adm = adm
		next.ServeHTTP(w, r)
	})
}

// withPreparse refuses a body the SDK must not see (see envelope.go),
// notes the request, and charges every request but a tools/call, which is
// charged inside the tool from the arguments it runs with (ucpcore).
func (h *httpHandler) withPreparse(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := postOf(r)
		req, perr := preparse(p.body)
		if perr != nil {
			if h.refusedOther(w, r, jsonrpc.ID{}) {
				return
			}
			writeProtocolError(w, http.StatusBadRequest, jsonrpc.ID{}, perr.Code, perr.Message)
			return
		}
		p.req = req
		if req != nil {
			NoteOf(r.Context()).request(req.Method, req.ID)
		}
		if (req == nil || req.Method != "tools/call") && h.refusedOther(w, r, p.id()) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withDirect answers a plain tools/call on the direct path (direct.go)
// and leaves every other request to next.
func (h *httpHandler) withDirect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := postOf(r); p.req != nil && h.serveDirect(w, r, p.req, p.adm) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// serveSDK hands the request to the SDK, buffers its answer (bounded) and
// writes it with the status a tool's -32000 error names.
func (h *httpHandler) serveSDK(w http.ResponseWriter, r *http.Request) {
	p := postOf(r)
	id := p.id()
	ctx := r.Context()
	r.Body = io.NopCloser(bytes.NewReader(p.body))
	// The tool handler finds the request's state through the call table
	// (see sdkcontext.go) and leaves its JSON-RPC error there, so the
	// response need not be parsed again to find a -32000 status.
	call := &callState{ctx: ctx, limit: h.opts.MaxResponseBytes}
	r, done := h.calls.open(r, call)
	defer done()
	rec := &statusRecorder{header: http.Header{}, limit: h.opts.MaxResponseBytes}
	h.inner.ServeHTTP(rec, r)
	if ep := call.endpoint(); ep != nil && h.direct {
		h.learn(ep)
	}
	// The answer is produced: what is left is writing it, which a slow
	// reader must not make the server's capacity wait for.
	p.adm.Release()
	if rec.overflow || call.overflowed() {
		h.opts.Logger.Error("mcp response exceeded the bound and was replaced by an error", "limit", h.opts.MaxResponseBytes)
		writeProtocolError(w, http.StatusInternalServerError, id, rpcerr.CodeInternal, fmt.Sprintf("response exceeds %d bytes", h.opts.MaxResponseBytes))
		return
	}
	// A tools/call the SDK answered without running a tool (an unknown
	// tool, params it refused) still counts, on the cheaper bucket.
	if p.req != nil && p.req.Method == "tools/call" && !ucpcore.ToolCharged(ctx) && h.refusedOther(w, r, id) {
		return
	}
	rec.flush(w, id, call.toolError())
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

// withPacing writes the answer at no less than MinWriteRate after
// WriteGrace (see pacedWriter), so a client that reads slower has its
// connection closed instead of holding it for the write timeout.
func (h *httpHandler) withPacing(next http.Handler) http.Handler {
	if h.opts.MinWriteRate < 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pw := &pacedWriter{ResponseWriter: w, rc: http.NewResponseController(w), rate: h.opts.MinWriteRate, grace: h.opts.WriteGrace}
		next.ServeHTTP(pw, r)
		if pw.written > 0 && !pw.plain && pw.err == nil && pw.rc.Flush() == nil {
			// Done in time: the connection's next request gets the server's
			// own deadline again.
			pw.rc.SetWriteDeadline(time.Time{})
		}
	})
}

// pacedWriter writes in chunks whose deadlines follow a minimum rate,
// counted from its first Write.
type pacedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	rate    int64
	grace   time.Duration
	start   time.Time
	written int
	// plain is set once the connection has no deadlines (a recorder);
	// err is the first failed write.
	plain bool
	err   error
}

// Unwrap lets http.ResponseController reach the connection.
func (p *pacedWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

func (p *pacedWriter) Write(data []byte) (int, error) {
	if p.plain || p.err != nil {
		return p.ResponseWriter.Write(data)
	}
	if p.start.IsZero() {
		p.start = time.Now()
	}
	const chunk = 32 << 10
	done := 0
	for done < len(data) {
		n := min(chunk, len(data)-done)
		if rest := len(data) - done - n; rest < chunk/2 {
			// A short tail goes with this chunk: a write of its own would
			// cost a deadline and a syscall (and a small segment) for a
			// few KB, as a 35 KB page would pay on every call.
			n += rest
		}
		due := p.start.Add(p.grace + time.Duration(float64(p.written+n)/float64(p.rate)*float64(time.Second)))
		if p.rc.SetWriteDeadline(due) != nil {
			// Not a connection with deadlines: write plainly.
			p.plain = true
			m, err := p.ResponseWriter.Write(data[done:])
			return done + m, err
		}
		m, err := p.ResponseWriter.Write(data[done : done+n])
		done += m
		p.written += m
		if err != nil {
			p.err = err
			return done, err
		}
	}
	return done, nil
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

// learn records an Add-ed tool the SDK ran for this handler, so that the
// direct path answers its next calls. The direct path thus knows exactly
// the tools this handler's server runs through Add (the first call of
// each goes through the SDK), with no table shared between handlers; a
// tool removed from the server later is still answered directly.
func (h *httpHandler) learn(ep *ucpcore.Endpoint) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tools == nil {
		h.tools = map[string]*ucpcore.Endpoint{}
	}
	h.tools[ep.Tool().Name] = ep
}

// learned is the Add-ed tool called name the SDK has run, or nil.
func (h *httpHandler) learned(name string) *ucpcore.Endpoint {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tools[name]
}
