package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/heapgoal"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// defaultLimits are the limits parseFlags gives with no flags.
func defaultLimits(t *testing.T) limits {
	t.Helper()
	c, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.limits
}

// TestLimitFlags checks the limit flags: defaults generous enough that
// interactive use and test suites never meet them, every server timeout
// set, and out-of-range values refused.
func TestLimitFlags(t *testing.T) {
	l := defaultLimits(t)
	if l.rate < 100 || l.rateBurst < 100 {
		t.Errorf("default rate %v/s burst %d, want at least 100", l.rate, l.rateBurst)
	}
	if l.itemsRate <= 0 || l.itemsRate >= l.rate {
		t.Errorf("items rate %v/s should be on and stricter than %v/s", l.itemsRate, l.rate)
	}
	if l.readHeaderTimeout <= 0 || l.readTimeout <= 0 || l.writeTimeout <= 0 || l.idleTimeout <= 0 || l.maxHeaderBytes <= 0 || l.maxInFlight <= 0 || l.shutdownGrace <= 0 {
		t.Errorf("a default limit is off: %+v", l)
	}
	if l.otherRate <= 0 || l.otherBurst < 1 || l.maxRequestMemory != ucpcore.DefaultMaxRequestMemory || l.minWriteRate != mcpserver.DefaultMinWriteRate || l.writeGrace <= 0 || l.gcHeadroom != heapgoal.DefaultHeadroom {
		t.Errorf("a default limit is off: %+v", l)
	}
	c, err := parseFlags([]string{"--rate", "3", "--rate-burst", "4", "--items-rate", "0.5", "--items-burst", "1", "--max-inflight", "7", "--read-timeout", "2s", "--idle-timeout", "3s", "--write-timeout", "4s", "--shutdown-grace", "5s", "--max-header-bytes", "1000",
		"--other-rate", "2", "--other-burst", "5", "--max-request-memory", "1000000", "--min-write-rate", "-1", "--write-grace", "3s", "--gc-headroom", "0"})
	if err != nil {
		t.Fatal(err)
	}
	want := l
	want.rate, want.rateBurst, want.itemsRate, want.itemsBurst, want.maxInFlight = 3, 4, 0.5, 1, 7
	want.otherRate, want.otherBurst, want.maxRequestMemory, want.minWriteRate, want.writeGrace = 2, 5, 1000000, -1, 3*time.Second
	want.readTimeout, want.idleTimeout, want.writeTimeout, want.shutdownGrace, want.maxHeaderBytes = 2*time.Second, 3*time.Second, 4*time.Second, 5*time.Second, 1000
	want.gcHeadroom = 0
	if c.limits != want {
		t.Errorf("limits = %+v, want %+v", c.limits, want)
	}
	for _, args := range [][]string{{"--rate", "-1"}, {"--rate-burst", "0"}, {"--read-timeout", "0s"}, {"--max-inflight", "-2"}, {"--max-header-bytes", "0"},
		{"--other-rate", "-1"}, {"--other-burst", "0"}, {"--max-request-memory", "0"}, {"--min-write-rate", "0"}, {"--write-grace", "0s"}, {"--gc-headroom", "-1"}} {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: err = %v, want it to name %s", args, err, args[0])
		}
	}
	srv, err := httpServer(config{limits: l}, nil, "http://127.0.0.1:1", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if srv.ReadTimeout != l.readTimeout || srv.WriteTimeout != l.writeTimeout || srv.IdleTimeout != l.idleTimeout || srv.ReadHeaderTimeout != l.readHeaderTimeout || srv.MaxHeaderBytes != l.maxHeaderBytes {
		t.Errorf("server timeouts %v %v %v %v %d do not follow the flags", srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.ReadHeaderTimeout, srv.MaxHeaderBytes)
	}
}

// served is a storefinder serving HTTP on a loopback port.
type served struct {
	url  string
	addr string
	stop context.CancelFunc
	done chan error
}

// startHTTP runs the example's HTTP server (httpServer and serveUntil, as
// run uses them) on 127.0.0.1 with c.
func startHTTP(t *testing.T, c config) *served {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	server, _, err := newServer(c, logger)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	srv, err := httpServer(c, server, base, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{url: base + "/ucp/mcp", addr: ln.Addr().String(), stop: cancel, done: make(chan error, 1)}
	go func() { s.done <- serveUntil(ctx, srv, ln, c.limits.shutdownGrace, logger) }()
	t.Cleanup(func() {
		cancel()
		<-s.done
	})
	return s
}

// rpc posts one JSON-RPC body and returns the status, Retry-After and the
// decoded reply.
func rpc(t *testing.T, client *http.Client, url, body string) (int, string, rpcResult) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r rpcResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("reply is not JSON-RPC (%d): %v\n%s", resp.StatusCode, err, raw)
	}
	r.raw = string(raw)
	return resp.StatusCode, resp.Header.Get("Retry-After"), r
}

type rpcResult struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	} `json:"result"`
	Error *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw string
}

func toolCall(id int, tool, profile, loc string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"meta":{"ucp-agent":{"profile":%q}},"location":%s}}}`, id, tool, profile, loc)
}

const nearNewYork = `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":3}}`

// TestRateLimitFlags proves the per-caller limits with low settings: a
// caller over --rate gets 429 while another caller is served, and searches
// with filters.items meet the stricter --items-rate first.
func TestRateLimitFlags(t *testing.T) {
	l := defaultLimits(t)
	l.rate, l.rateBurst, l.itemsRate, l.itemsBurst = 0.001, 3, 0.001, 1
	s := startHTTP(t, config{limits: l})
	const a, b = "https://a.example/agent.json", "https://b.example/agent.json"
	items := `{"filters":{"items":["sku-1"]}}`
	steps := []struct {
		profile, tool, loc string
		limited            bool
	}{
		{a, "search_locations", items, false},
		{a, "search_locations", items, true}, // items bucket (burst 1) is empty
		{a, "search_locations", nearNewYork, false},
		{a, "lookup_locations", `{"ids":["x"]}`, false},
		{a, "search_locations", nearNewYork, true}, // general bucket (burst 3) is empty
		{b, "search_locations", nearNewYork, false},
	}
	for i, st := range steps {
		status, retry, r := rpc(t, http.DefaultClient, s.url, toolCall(i, st.tool, st.profile, st.loc))
		if limited := status == http.StatusTooManyRequests; limited != st.limited {
			t.Fatalf("step %d: status %d, want limited=%v: %s", i, status, st.limited, r.raw)
		}
		if st.limited && (r.Error == nil || r.Error.Code != -32000 || retry == "") {
			t.Fatalf("step %d: want -32000 with Retry-After, got %q %s", i, retry, r.raw)
		}
	}
}

// holdHooks holds every search until release is closed, after telling
// entered.
type holdHooks struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (h *holdHooks) wrap(in locationHooks) locationHooks { return heldHooks{in, h} }

type heldHooks struct {
	locationHooks
	h *holdHooks
}

func (w heldHooks) SearchLocations(ctx context.Context, m *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	w.h.once.Do(func() { close(w.h.entered) })
	<-w.h.release
	return w.locationHooks.SearchLocations(ctx, m, req)
}

// TestGracefulShutdown checks that a shutdown signal (the cancelled
// context run gets from SIGTERM) stops new connections but lets a request
// in flight finish with its real answer before serveUntil returns.
func TestGracefulShutdown(t *testing.T) {
	h := &holdHooks{entered: make(chan struct{}), release: make(chan struct{})}
	l := defaultLimits(t)
	s := startHTTP(t, config{limits: l, wrap: h})
	type answer struct {
		status int
		r      rpcResult
	}
	got := make(chan answer, 1)
	go func() {
		status, _, r := rpc(t, &http.Client{}, s.url, toolCall(1, "search_locations", "https://a.example/p", nearNewYork))
		got <- answer{status, r}
	}()
	<-h.entered
	s.stop() // what SIGTERM does to run's context
	// The listener closes while the request is held...
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-s.done:
		t.Fatalf("serveUntil returned (%v) with a request in flight", err)
	default:
	}
	// ...and the held request is still answered in full.
	close(h.release)
	a := <-got
	if a.status != 200 || a.r.Result == nil || !strings.Contains(string(a.r.Result.StructuredContent), `"locations"`) {
		t.Fatalf("in-flight request: %d %s", a.status, a.r.raw)
	}
	if err := <-s.done; err != nil {
		t.Fatalf("serveUntil: %v", err)
	}
	s.done <- nil // for the cleanup
}

// TestServerTimeouts checks on raw connections that a client sending its
// body slowly, or keeping an idle connection, is cut off by the server, and
// that an oversized header block is refused.
func TestServerTimeouts(t *testing.T) {
	l := defaultLimits(t)
	l.readTimeout, l.readHeaderTimeout, l.idleTimeout, l.maxHeaderBytes = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond, 4096
	s := startHTTP(t, config{limits: l})
	closedByServer := func(t *testing.T, c net.Conn) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		buf := make([]byte, 4096)
		for {
			_, err := c.Read(buf)
			if err == nil {
				continue // a response (e.g. 408) may precede the close
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("server kept the connection open")
			}
			return
		}
	}
	t.Run("slow body", func(t *testing.T) {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /ucp/mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", s.addr)
		closedByServer(t, c)
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /.well-known/ucp HTTP/1.1\r\nHost: %s\r\n\r\n", s.addr)
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("profile: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		closedByServer(t, c)
	})
	t.Run("header block too large", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+s.addr+"/.well-known/ucp", nil)
		req.Header.Set("X-Padding", strings.Repeat("a", 16<<10))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("status %d, want 431", resp.StatusCode)
		}
	})
}

// TestStdioMalformedLine runs the example binary over stdio, sends a line
// that is not JSON between two calls, and checks that it gets -32700 and
// that the process keeps serving instead of exiting.
func TestStdioMalformedLine(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the example binary (not in -short mode)")
	}
	bin := storefinderBinary(t)
	cmd := exec.Command(bin, "--stdio")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	replies := bufio.NewScanner(out)
	replies.Buffer(nil, 4<<20)
	next := func() rpcResult {
		t.Helper()
		if !replies.Scan() {
			t.Fatalf("no reply: the process ended (%v)", replies.Err())
		}
		var r rpcResult
		if err := json.Unmarshal(replies.Bytes(), &r); err != nil {
			t.Fatalf("reply is not JSON-RPC: %s", replies.Bytes())
		}
		r.raw = replies.Text()
		return r
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := next(); r.Error != nil {
		t.Fatalf("initialize: %s", r.raw)
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call",`)
	if r := next(); r.Error == nil || r.Error.Code != -32700 {
		t.Fatalf("malformed line: %s, want -32700", r.raw)
	}
	fmt.Fprintln(in, `[`+toolCall(3, "search_locations", "https://a.example/p", nearNewYork)+`]`)
	if r := next(); r.Error == nil || r.Error.Code != -32600 {
		t.Fatalf("batch line: %s, want -32600", r.raw)
	}
	fmt.Fprintln(in, toolCall(4, "search_locations", "https://a.example/p", nearNewYork))
	if r := next(); string(r.ID) != "4" || r.Result == nil {
		t.Fatalf("call after the bad lines: %s", r.raw)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("process exit after end of input: %v", err)
	}
}

// TestSIGTERMStopsCleanly runs the example binary over HTTP, serves a call,
// sends SIGTERM and checks that the process takes the graceful path
// (serveUntil, tested with a call in flight by TestGracefulShutdown) and
// exits with status 0.
func TestSIGTERMStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the example binary (not in -short mode)")
	}
	bin := storefinderBinary(t)
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	logs := bufio.NewScanner(stderr)
	var endpoint string
	for endpoint == "" && logs.Scan() {
		if _, rest, ok := strings.Cut(logs.Text(), "endpoint="); ok {
			endpoint, _, _ = strings.Cut(rest, " ")
		}
	}
	if endpoint == "" {
		t.Fatal("the server never logged its endpoint")
	}
	status, _, r := rpc(t, http.DefaultClient, endpoint, toolCall(1, "search_locations", "https://a.example/p", nearNewYork))
	if status != 200 || r.Result == nil {
		t.Fatalf("call before SIGTERM: %d %s", status, r.raw)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for logs.Scan() {
		rest.WriteString(logs.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, rest.String())
	}
	if !strings.Contains(rest.String(), "storefinder stopped") {
		t.Errorf("no clean stop logged:\n%s", rest.String())
	}
}

// TestStdioShutdownDrains checks the stdio side of a shutdown signal: the
// call in flight is answered before serveStdio returns without error.
func TestStdioShutdownDrains(t *testing.T) {
	h := &holdHooks{entered: make(chan struct{}), release: make(chan struct{})}
	server, _, err := newServer(config{wrap: h}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	ctx, signal := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(ctx, server, &mcpserver.StdioTransport{In: inR, Out: outW}, time.Minute, slog.New(slog.DiscardHandler))
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 4<<20)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !replies.Scan() {
		t.Fatal("no initialize reply")
	}
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(inW, toolCall(2, "search_locations", "https://a.example/p", nearNewYork))
	<-h.entered
	signal() // what SIGTERM does to run's context
	close(h.release)
	if !replies.Scan() {
		t.Fatal("the call in flight was dropped")
	}
	var r rpcResult
	if err := json.Unmarshal(replies.Bytes(), &r); err != nil || string(r.ID) != "2" || r.Result == nil {
		t.Fatalf("reply %s", replies.Bytes())
	}
	if err := <-done; err != nil {
		t.Fatalf("serveStdio: %v", err)
	}
}
