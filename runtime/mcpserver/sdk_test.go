package mcpserver_test

// The tests in this file run the pinned SDK alone, without this package,
// and pin the SDK behaviours this package works around. Each fails once an
// SDK upgrade changes that behaviour, and says which workaround can go.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkServer is an SDK server with one raw tool whose handler is run.
func sdkServer(run mcp.ToolHandler) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "probe", InputSchema: json.RawMessage(`{"type":"object"}`)}, run)
	return s
}

// sdkPost sends one JSON-RPC body to h and returns the recorded answer.
func sdkPost(ctx context.Context, h http.Handler, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

const sdkCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","arguments":{}}}`

// TestSDKToolContextOutlivesTheRequest pins that a stateless tools/call at
// a protocol version before 2026-07-28 runs under a context the end of the
// HTTP request does not cancel, even with PropagateRequestCancellation.
// When it fails, callerContext's cancellation (sdkcontext.go) can go.
func TestSDKToolContextOutlivesTheRequest(t *testing.T) {
	cancelled := make(chan bool, 1)
	started := make(chan struct{})
	s := sdkServer(func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		select {
		case <-ctx.Done():
			cancelled <- true
		case <-time.After(500 * time.Millisecond):
			cancelled <- false
		}
		return &mcp.CallToolResult{}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, PropagateRequestCancellation: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	sdkPost(ctx, h, sdkCall, "Mcp-Protocol-Version", "2025-06-18")
	if <-cancelled {
		t.Fatal("the SDK now cancels the tool handler with its HTTP request: drop the cancellation in callerContext (sdkcontext.go)")
	}
}

// TestSDKStatefulToolContextIsTheSessions pins that in stateful mode a
// tool handler's context carries the values of the request that opened
// the session, not of the request that carries the call. When it fails,
// the call table (sdkcontext.go) can give way to a context value.
func TestSDKStatefulToolContextIsTheSessions(t *testing.T) {
	type key struct{}
	seen := make(chan any, 1)
	s := sdkServer(func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		seen <- ctx.Value(key{})
		return &mcp.CallToolResult{}, nil
	})
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	tagged := func(tag string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key{}, tag)))
		})
	}
	init := sdkPost(context.Background(), tagged("initialize"), `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := init.Header().Get("Mcp-Session-Id")
	if init.Code != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d %s", init.Code, init.Body)
	}
	hdr := []string{"Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-06-18"}
	sdkPost(context.Background(), tagged("initialized"), `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr...)
	if rec := sdkPost(context.Background(), tagged("call"), sdkCall, hdr...); rec.Code != http.StatusOK {
		t.Fatalf("tools/call: %d %s", rec.Code, rec.Body)
	}
	if got := <-seen; got != "initialize" {
		t.Fatalf("the tool handler saw the values of %v, not of the session's first request: the SDK now hands it the request's own context; the call table in sdkcontext.go can go", got)
	}
}

// TestSDKRefusesInPlainText pins that the SDK's HTTP handler refuses a
// request it cannot take with a text/plain body. When it fails, the
// rewrite in statusRecorder.flush (sdkrefusals.go) can go.
func TestSDKRefusesInPlainText(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdkServer(nil) }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	rec := sdkPost(context.Background(), h, sdkCall, "Content-Type", "text/plain")
	if rec.Code != http.StatusUnsupportedMediaType || strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("the SDK now refuses with %d %q: if that is a JSON-RPC error object, drop the rewrite in statusRecorder.flush (sdkrefusals.go)", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// TestSDKReadsMessagesLoosely pins that the SDK answers a message with a
// repeated id by its last copy, and echoes an id beyond 2^53 as another
// number. When it fails, readEnvelope (envelope.go) can shrink.
func TestSDKReadsMessagesLoosely(t *testing.T) {
	s := sdkServer(func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	idOf := func(body string) string {
		t.Helper()
		rec := sdkPost(context.Background(), h, body)
		var resp struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
		}
		return string(resp.ID)
	}
	if got := idOf(`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`); got != "2" {
		t.Errorf("a repeated id is answered as %s, not as its last copy: the SDK changed; review readEnvelope (envelope.go)", got)
	}
	if got := idOf(`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`); got == "9007199254740993" {
		t.Errorf("the SDK now echoes an id beyond 2^53 exactly: exactID (envelope.go) can go")
	}
}

// TestSDKStdioEndsOnABadLine pins that the SDK's stdio transport ends the
// session at a line that is not JSON and never answers the calls after
// it. When it fails, StdioTransport (stdio.go) can give way to the SDK's.
func TestSDKStdioEndsOnABadLine(t *testing.T) {
	in := strings.NewReader("{bad\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	var out bytes.Buffer
	session, err := sdkServer(nil).Connect(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{&out}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- session.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		session.Close()
		t.Fatal("the SDK's stdio session outlived a malformed line: StdioTransport (stdio.go) may no longer be needed")
	}
	if strings.Contains(out.String(), `"id":1`) {
		t.Fatalf("the SDK answered the call after a malformed line (%s): StdioTransport (stdio.go) may no longer be needed", out.String())
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// TestSDKToolCallCopiesTheBody pins what a stateless tools/call costs
// through the SDK: more than three times the structured content it
// answers with, which the direct path (direct.go) writes once. When it
// fails, the direct path may no longer pay for itself.
func TestSDKToolCallCopiesTheBody(t *testing.T) {
	body := json.RawMessage(`{"name":"` + strings.Repeat("é<", 1<<18) + `"}`)
	s := sdkServer(func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: body, Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	sdkPost(context.Background(), h, sdkCall)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec := sdkPost(context.Background(), h, sdkCall)
	runtime.ReadMemStats(&after)
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %.200s", rec.Code, rec.Body)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("the SDK allocated %.1f MiB to answer %.1f MiB", float64(alloc)/(1<<20), float64(len(body))/(1<<20))
	if alloc < 3*uint64(len(body)) {
		t.Fatalf("the SDK answered a %d-byte body allocating only %d bytes: the direct path (direct.go) may no longer pay for itself", len(body), alloc)
	}
}
