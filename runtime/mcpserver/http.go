package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// HTTPOptions configure the streamable HTTP endpoint.
type HTTPOptions struct {
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// Stateful keeps MCP sessions across requests; the default is stateless,
	// which suits UCP's read-only tools and horizontal scaling.
	Stateful bool
}

// Handler serves server over MCP streamable HTTP with JSON responses, a
// request body limit, and the HTTP status the UCP binding asks for when a
// tool fails with a -32000 transport error (401, 403, 409, 429, 503, with a
// Retry-After header when the error carries retry_after).
func Handler(server *mcp.Server, opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = 1 << 20
	}
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           !opts.Stateful,
		JSONResponse:        true,
		MaxRequestBodyBytes: limit,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			inner.ServeHTTP(w, r)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		rec := &statusRecorder{header: http.Header{}}
		inner.ServeHTTP(rec, r)
		rec.flush(w)
	})
}

// statusRecorder buffers a JSON response so its HTTP status can follow the
// JSON-RPC error inside it.
type statusRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (s *statusRecorder) Header() http.Header { return s.header }
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.body.Write(b)
}
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}

func (s *statusRecorder) flush(w http.ResponseWriter) {
	for k, v := range s.header {
		w.Header()[k] = v
	}
	status := s.status
	if status == 0 {
		status = http.StatusOK
	}
	if status == http.StatusOK && strings.HasPrefix(s.header.Get("Content-Type"), "application/json") {
		if st, retry := transportStatus(s.body.Bytes()); st != 0 {
			status = st
			if retry > 0 {
				w.Header().Set("Retry-After", strconv.FormatInt(retry, 10))
			}
		}
	}
	w.WriteHeader(status)
	w.Write(s.body.Bytes())
}

// transportStatus extracts the HTTP status of a -32000 JSON-RPC error.
func transportStatus(body []byte) (int, int64) {
	var msg struct {
		Error *struct {
			Code int64 `json:"code"`
			Data struct {
				Status     int   `json:"status"`
				RetryAfter int64 `json:"retry_after"`
			} `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Error == nil || msg.Error.Code != rpcerr.CodeTransport {
		return 0, 0
	}
	if msg.Error.Data.Status < 400 || msg.Error.Data.Status > 599 {
		return 0, 0
	}
	return msg.Error.Data.Status, msg.Error.Data.RetryAfter
}

// ProfileHandler serves a Business profile document at /.well-known/ucp.
func ProfileHandler(profile []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Write(profile)
	})
}

// ProfileService and ProfileCapability describe what a Business advertises.
type ProfileService struct {
	Name      string // e.g. dev.ucp.common
	Version   string
	Spec      string
	Schema    string
	Transport string
	Endpoint  string
}

// ProfileCapability is one advertised capability.
type ProfileCapability struct {
	Name    string
	Version string
	Spec    string
	Schema  string
}

// BusinessProfile renders the /.well-known/ucp document for the given
// services and capabilities; payment_handlers is present and empty, as the
// Location capability needs none.
func BusinessProfile(version string, services []ProfileService, caps []ProfileCapability) ([]byte, error) {
	type entry map[string]string
	svc := map[string][]entry{}
	for _, s := range services {
		e := entry{"version": s.Version, "transport": s.Transport, "endpoint": s.Endpoint}
		if s.Spec != "" {
			e["spec"] = s.Spec
		}
		if s.Schema != "" {
			e["schema"] = s.Schema
		}
		svc[s.Name] = append(svc[s.Name], e)
	}
	cp := map[string][]entry{}
	for _, c := range caps {
		e := entry{"version": c.Version, "schema": c.Schema}
		if c.Spec != "" {
			e["spec"] = c.Spec
		}
		cp[c.Name] = append(cp[c.Name], e)
	}
	return json.MarshalIndent(map[string]any{"ucp": map[string]any{
		"version":          version,
		"services":         svc,
		"capabilities":     cp,
		"payment_handlers": map[string]any{},
	}}, "", "  ")
}
