package mcpserver

// This file covers the SDK's refusals in plain text: its streamable HTTP
// handler answers a bad Content-Type or Accept, an unknown method and
// other refusals with http.Error, a text/plain body no JSON-RPC client can
// read, and it buffers an answer of any size. statusRecorder holds the
// SDK's answer up to the bound and flush rewrites a plain-text refusal as
// a JSON-RPC error object with the same HTTP status. No upstream issue was
// found as of 2026-12. TestSDKRefusesInPlainText (sdk_test.go) shows the
// behaviour against the pinned SDK and fails once the SDK answers in
// JSON-RPC itself; the rewrite in flush can then go (the bound stays).

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

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
func (s *statusRecorder) flush(w http.ResponseWriter, id jsonrpc.ID, toolErr *jsonrpc.Error) {
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
	w.Write(s.body.Bytes())
}
