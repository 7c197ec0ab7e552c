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
	"time"

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

// Middleware wraps a transport endpoint with metrics and the access log:
// one line per request with the Request-Id header (REST), the JSON-RPC id,
// method and tool, the HTTP status, the outcome, the duration, the caller
// and what hooks noted (coordinates to 2 decimals). What it reports about
// the call comes from mcpserver.CallNote, filled in by the endpoint itself,
// so the log describes the call that ran.
func Middleware(next http.Handler, o MiddlewareOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ctx, note := mcpserver.WithCallNote(r.Context())
		if o.Metrics != nil {
			g := o.Metrics.inFlight.WithLabelValues(o.Transport)
			g.Inc()
			defer g.Dec()
		}
		rec := &capture{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r.WithContext(ctx))
		d := time.Since(start)
		method, id, tool, caller, fields := note.Read()
		outcome, cursor := Outcome(rec.status, rec.head.Bytes())
		if !slices.Contains(knownMethods, method) {
			if method != "" {
				method = "other"
			}
		}
		if tool != "" && !slices.Contains(o.Tools, tool) {
			tool = "other"
		}
		if o.Metrics != nil {
			o.Metrics.request(o.Transport, method, tool, outcome, d, cursor)
		}
		if o.Logger == nil {
			return
		}
		if caller == "" {
			caller = ucpcore.RemoteHost(r.RemoteAddr)
		}
		attrs := []any{"transport", o.Transport, "request_id", r.Header.Get("Request-Id"), "rpc_id", idText(id.Raw()),
			"method", method, "tool", tool, "status", rec.status, "outcome", outcome,
			"duration_ms", float64(d.Microseconds()) / 1000, "caller", caller}
		o.Logger.Info("access", append(attrs, fields...)...)
	})
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

// capture records the status and the head of the answer.
type capture struct {
	http.ResponseWriter
	status int
	wrote  bool
	head   bytes.Buffer
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
	Code int64 `json:"code"`
	Data struct {
		Violations []struct {
			Pointer string `json:"pointer"`
		} `json:"violations"`
	} `json:"data"`
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
	switch {
	case status == http.StatusTooManyRequests:
		return OutcomeRateLimited, false
	case status == http.StatusServiceUnavailable:
		return OutcomeOverloaded, false
	case status >= 500:
		return OutcomeInternal, false
	}
	e, ok := answerError(body)
	switch {
	case !ok || (e == nil && status >= 400):
		return OutcomeInvalidRequest, false
	case e == nil:
		return OutcomeOK, false
	}
	switch e.Code {
	case -32602:
		for _, v := range e.Data.Violations {
			if v.Pointer == "/location/pagination/cursor" {
				return OutcomeInvalidParams, true
			}
		}
		return OutcomeInvalidParams, false
	case -32603:
		return OutcomeInternal, false
	case -32600, -32601, -32700:
		return OutcomeInvalidRequest, false
	}
	return OutcomeRefused, false
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
