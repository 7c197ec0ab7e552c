package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// MiddlewareOptions configure Middleware.
type MiddlewareOptions struct {
	// Transport is the transport label ("mcp", "rest").
	Transport string
	// Tools are the tool names used as label values; any other name is
	// counted as "other", so a caller cannot grow the label set.
	Tools []string
	// Metrics, when set, receives every request.
	Metrics *Metrics
	// Logger, when set, receives one access line per request.
	Logger *slog.Logger
}

// knownMethods are the JSON-RPC methods kept as label values.
var knownMethods = []string{"initialize", "notifications/initialized", "ping", "tools/list", "tools/call"}

// captureLimit is how much of an answer Middleware keeps to read its
// outcome: enough for any error object the runtime writes.
const captureLimit = 32 << 10

// resultLook is how much of an answer's head is read first for a result
// member; a JSON-RPC success shows it within its first few dozen bytes.
const resultLook = 256

// TransportREST is the transport label of the REST binding, whose answers
// Middleware classifies with RESTOutcome; every other HTTP transport speaks
// JSON-RPC (Outcome).
const TransportREST = "rest"

// TransportStdio is the transport label StdioObserver records under.
const TransportStdio = "stdio"

// Bounds of the access log's fields: whatever a request sends, a line
// stays a few hundred bytes.
const (
	// MaxCallerBytes bounds the caller (an agent profile URL).
	MaxCallerBytes = 200
	// MaxIDBytes bounds the Request-Id header and a JSON-RPC string id.
	MaxIDBytes = 64
)

// Middleware wraps a transport endpoint with metrics and the access log:
// one line per request with the Request-Id header (REST), the JSON-RPC id,
// method and tool, the HTTP status, the outcome, the duration, the caller
// and what hooks noted (coordinates to 2 decimals). What it reports about
// the call comes from mcpserver.CallNote, filled in by the endpoint itself,
// so the log describes the call that ran. Every field the client chose is
// cut to a bound (LogText).
func Middleware(next http.Handler, o MiddlewareOptions) http.Handler {
	rest := o.Transport == TransportREST
	var inFlight prometheus.Gauge
	if o.Metrics != nil {
		inFlight = o.Metrics.inFlight.WithLabelValues(o.Transport)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// Fields hooks note are for the log alone.
		ctx, note := mcpserver.WithCallNoteFor(r.Context(), o.Logger != nil)
		if inFlight != nil {
			inFlight.Inc()
			defer inFlight.Dec()
		}
		rec := &capture{ResponseWriter: w, status: http.StatusOK, rest: rest}
		next.ServeHTTP(rec, r.WithContext(ctx))
		method, id, tool, caller, fields := note.Read()
		var outcome string
		var cursor bool
		if rest {
			outcome, cursor = RESTOutcome(rec.status, rec.head.Bytes())
		} else {
			outcome, cursor = Outcome(rec.status, rec.head.Bytes())
		}
		if caller == "" {
			caller = ucpcore.RemoteHost(r.RemoteAddr)
		}
		o.record(exchange{requestID: r.Header.Get("Request-Id"), rpcID: id.Raw(), method: method, tool: tool, caller: caller,
			status: rec.status, outcome: outcome, cursor: cursor, d: time.Since(start), fields: fields})
	})
}

// StdioObserver records each message of a stdio session
// (mcpserver.StdioTransport.Observe) as Middleware records an HTTP request,
// under the transport label "stdio" and with the outcomes of the same
// vocabulary (StdioOutcome); the line's status is 0, as stdio has none.
func StdioObserver(o MiddlewareOptions) func(mcpserver.StdioExchange) {
	o.Transport = TransportStdio
	return func(ex mcpserver.StdioExchange) {
		outcome, cursor := StdioOutcome(ex.Error)
		o.record(exchange{rpcID: ex.ID.Raw(), method: ex.Method, tool: ex.Tool, caller: ex.Caller, outcome: outcome, cursor: cursor, d: ex.Duration})
	}
}

// exchange is one request as the metrics and the access log see it.
type exchange struct {
	requestID    string
	rpcID        any
	method, tool string
	caller       string
	status       int
	outcome      string
	cursor       bool
	d            time.Duration
	fields       []any
}

// record counts one exchange and writes its access line.
func (o MiddlewareOptions) record(ex exchange) {
	method, tool := ex.method, ex.tool
	if !slices.Contains(knownMethods, method) {
		if method != "" {
			method = "other"
		}
	}
	if tool != "" && !slices.Contains(o.Tools, tool) {
		tool = "other"
	}
	if o.Metrics != nil {
		o.Metrics.request(o.Transport, method, tool, ex.outcome, ex.d, ex.cursor)
	}
	if o.Logger == nil {
		return
	}
	attrs := []any{"transport", o.Transport, "request_id", LogText(ex.requestID, MaxIDBytes), "rpc_id", LogText(idText(ex.rpcID), MaxIDBytes),
		"method", method, "tool", tool, "status", ex.status, "outcome", ex.outcome,
		"duration_ms", float64(ex.d.Microseconds()) / 1000, "caller", LogText(ex.caller, MaxCallerBytes)}
	o.Logger.Info("access", append(attrs, ex.fields...)...)
}

// idText renders a JSON-RPC id for the log ("" when absent).
func idText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// LogText is s as the access log writes a field the client chose: each
// byte that is not UTF-8 as \xNN (where the JSON decoder would have
// written a 3-byte U+FFFD, and the log handler quoted it again), and at
// most max bytes of s kept, followed, when anything was cut, by a marker
// giving the length of the whole, so that no request makes a line longer
// than a few hundred bytes and a cut value is never mistaken for a whole
// one.
func LogText(s string, max int) string {
	if len(s) <= max && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	kept := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		piece := s[i : i+size]
		if r == utf8.RuneError && size == 1 {
			piece = fmt.Sprintf(`\x%02x`, s[i])
		}
		if kept+len(piece) > max {
			fmt.Fprintf(&b, "...[cut: %d bytes]", len(s))
			return b.String()
		}
		b.WriteString(piece)
		kept += len(piece)
		i += size
	}
	return b.String()
}

// capture records the status and the head of the answer.
type capture struct {
	http.ResponseWriter
	status int
	wrote  bool
	// rest says the answer is the REST binding's: a 200 is a success
	// whatever its body, so only a refusal's head is kept.
	rest bool
	head bytes.Buffer
	// result is set once the head shows a result member: nothing more of
	// the answer needs keeping.
	result bool
}

func (c *capture) WriteHeader(status int) {
	if !c.wrote {
		c.status, c.wrote = status, true
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *capture) Write(p []byte) (int, error) {
	c.wrote = true
	if c.rest && c.status == http.StatusOK {
		return c.ResponseWriter.Write(p)
	}
	if room := captureLimit - c.head.Len(); room > 0 && !c.result {
		keep := p[:min(room, len(p))]
		if look := resultLook - c.head.Len(); look > 0 {
			// The head alone first: once its result member has begun the
			// answer is a success whatever follows (Outcome reads no
			// further), so a 10-50 KB page is not copied to learn that.
			c.head.Write(keep[:min(len(keep), look)])
			keep = keep[min(len(keep), look):]
			if e, ok := answerError(c.head.Bytes()); ok && e == nil {
				c.result = true
				keep = nil
			}
		}
		c.head.Write(keep)
	}
	return c.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (write
// deadlines, flushing) through the capture.
func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// rpcError is the part of a JSON-RPC error object Outcome reads.
type rpcError struct {
	Code int64     `json:"code"`
	Data errorData `json:"data"`
}

// errorData is the part of an error's data Outcome reads: the violations
// of a -32602 and the HTTP status a -32000 names.
type errorData struct {
	Violations []struct {
		Pointer string `json:"pointer"`
	} `json:"violations"`
	Status int `json:"status"`
}

// namesCursor reports whether a violation is at pointer, the pagination
// cursor's place in the request.
func (d errorData) namesCursor(pointer string) bool {
	return slices.ContainsFunc(d.Violations, func(v struct {
		Pointer string `json:"pointer"`
	}) bool {
		return v.Pointer == pointer
	})
}

// answerError reads the top-level members of a JSON-RPC answer until its
// result (nil, true) or its error; ok is false when body is not one.
func answerError(body []byte) (e *rpcError, ok bool) {
	if resultHead(body) {
		return nil, true
	}
	return answerErrorDecoded(body)
}

// answerErrorDecoded is answerError through encoding/json's token walk.
func answerErrorDecoded(body []byte) (e *rpcError, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch tok {
		case "result":
			return nil, true
		case "error":
			var re rpcError
			if dec.Decode(&re) != nil {
				return nil, false
			}
			return &re, true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, false
		}
	}
	return nil, false
}

// resultHead reports whether body begins as the runtime frames a success,
// {"jsonrpc":"2.0","id":ID,"result":, with an integer id or a string id
// without escapes: what answerError would find, read without a decoder.
func resultHead(body []byte) bool {
	rest, ok := bytes.CutPrefix(body, []byte(`{"jsonrpc":"2.0","id":`))
	if !ok || len(rest) == 0 {
		return false
	}
	n := 0
	if rest[0] == '"' {
		end := bytes.IndexAny(rest[1:], "\"\\")
		if end < 0 || rest[1+end] != '"' || bytes.ContainsFunc(rest[1:1+end], func(r rune) bool { return r < 0x20 }) {
			return false
		}
		n = end + 2
	} else {
		if rest[0] == '-' {
			n++
		}
		start := n
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == start || (rest[start] == '0' && n-start > 1) {
			return false
		}
	}
	return bytes.HasPrefix(rest[n:], []byte(`,"result":`))
}

// Outcome classifies an answer by its HTTP status and JSON-RPC error code,
// and reports whether it refused the pagination cursor.
func Outcome(status int, body []byte) (outcome string, cursorRejected bool) {
	if o, ok := statusOutcome(status); ok {
		return o, false
	}
	e, ok := answerError(body)
	switch {
	case !ok || (e == nil && status >= 400):
		return OutcomeInvalidRequest, false
	case e == nil:
		return OutcomeOK, false
	}
	return e.outcome()
}

// outcome classifies a JSON-RPC error by its code and, for -32000 (which
// over HTTP the status has already classified), the status in its data.
func (e *rpcError) outcome() (string, bool) {
	switch e.Code {
	case -32602:
		return OutcomeInvalidParams, e.Data.namesCursor("/location/pagination/cursor")
	case -32603:
		return OutcomeInternal, false
	case -32600, -32601, -32700:
		return OutcomeInvalidRequest, false
	case -32000:
		if o, ok := statusOutcome(e.Data.Status); ok {
			return o, false
		}
	}
	return OutcomeRefused, false
}

// statusOutcome classifies the HTTP statuses whose outcome every transport
// shares (429, 503, any other 5xx); ok is false for the rest.
func statusOutcome(status int) (outcome string, ok bool) {
	switch {
	case status == http.StatusTooManyRequests:
		return OutcomeRateLimited, true
	case status == http.StatusServiceUnavailable:
		return OutcomeOverloaded, true
	case status >= 500:
		return OutcomeInternal, true
	}
	return "", false
}

// StdioOutcome classifies the error a stdio message was answered with (nil:
// a result, or a notification) in Outcome's vocabulary.
func StdioOutcome(e *jsonrpc.Error) (outcome string, cursorRejected bool) {
	if e == nil {
		return OutcomeOK, false
	}
	re := rpcError{Code: e.Code}
	if len(e.Data) > 0 {
		_ = json.Unmarshal(e.Data, &re.Data)
	}
	return re.outcome()
}

// RESTOutcome classifies a REST binding answer, in Outcome's vocabulary,
// by its HTTP status and the code of its refusal body ({code, content,
// violations?}): 400 invalid_params is invalid_params (a cursor rejection
// when a violation is at /pagination/cursor), a negotiation failure
// (invalid_profile_url, 422, 424) and 401, 403 and 409 are refused, every
// other 4xx (a header, the body's form, the path or method) is
// invalid_request.
func RESTOutcome(status int, body []byte) (outcome string, cursorRejected bool) {
	if status == http.StatusOK {
		return OutcomeOK, false
	}
	if o, ok := statusOutcome(status); ok {
		return o, false
	}
	var ref struct {
		Code string `json:"code"`
		errorData
	}
	_ = json.Unmarshal(body, &ref)
	switch {
	case status == http.StatusBadRequest && ref.Code == "invalid_params":
		return OutcomeInvalidParams, ref.namesCursor("/pagination/cursor")
	case status == http.StatusBadRequest && ref.Code == "invalid_profile_url",
		status == http.StatusUnauthorized, status == http.StatusForbidden, status == http.StatusConflict,
		status == http.StatusUnprocessableEntity, status == http.StatusFailedDependency:
		return OutcomeRefused, false
	}
	return OutcomeInvalidRequest, false
}

// Truncate cuts a coordinate to 2 decimals toward zero, as LOCATION.md
// section 10 asks of logs (about a kilometre).
func Truncate(deg float64) float64 { return math.Trunc(deg*100) / 100 }

// Coarse formats a point for a log: both coordinates truncated to 2
// decimals.
// It is fmt's "%.2f,%.2f" written with strconv, since every search with
// a circle or a served point logs one.
func Coarse(lat, lon float64) string {
	var buf [48]byte
	b := strconv.AppendFloat(buf[:0], Truncate(lat), 'f', 2, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, Truncate(lon), 'f', 2, 64)
	return string(b)
}
