package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The tests in this file read what a running storefinder records of the
// requests it serves (storefinder_requests_total, the cursor rejections,
// the access log) over every transport: MCP over HTTP and REST at both
// versions, and stdio.

// startOps serves both versions as run does, with metrics and the access
// log, and returns the public base URL once the data is loaded.
func startOps(t *testing.T, args ...string) (*running, string) {
	t.Helper()
	r := startServe(t, nil, append([]string{"--supported-versions", prevVersion}, args...)...)
	base := r.waitPublic(t)
	r.waitLog(t, `msg="storefinder listening" (addr)`)
	return r, base
}

// accessLines are the access lines of sink that hold every one of want.
func accessLines(sink *logSink, want ...string) []string {
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var out []string
	for line := range strings.SplitSeq(sink.b.String(), "\n") {
		if !strings.Contains(line, `msg=access`) {
			continue
		}
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			out = append(out, line)
		}
	}
	return out
}

// TestRESTIsRecordedByOutcome: a REST answer is counted and logged by its
// status and refusal code, in the outcomes MCP's answers use: a 200 is ok,
// an invalid request invalid_params, a refused cursor also a cursor
// rejection, a header or path refusal invalid_request, at both versions.
func TestRESTIsRecordedByOutcome(t *testing.T) {
	r, base := startOps(t)
	for _, v := range bothVersions {
		search := base + restPath(v) + "/locations/search"
		for _, c := range []struct {
			url, body string
			header    []string
			status    int
		}{
			{search, `{}`, nil, 200},
			{search, `{"distance":{"center":{"latitude":1,"longitude":1},"max":-5}}`, nil, 400},
			{search, `{"pagination":{"cursor":"forged"}}`, nil, 400},
			{search, `{}`, []string{"Request-Id", ""}, 400},
			{base + restPath(v) + "/locations/x", `{}`, nil, 404},
		} {
			if got := restPost(t, c.url, c.body, c.header...); got.status != c.status {
				t.Fatalf("%s %s: %d %s, want %d", c.url, c.body, got.status, clip(got.body), c.status)
			}
		}
	}
	fams := scrape(t, r.metrics)
	for outcome, want := range map[string]float64{"ok": 2, "invalid_params": 4, "invalid_request": 4} {
		if got := value(fams, "storefinder_requests_total", map[string]string{"transport": "rest", "outcome": outcome}); got != want {
			t.Errorf("rest %s: %v, want %v", outcome, got, want)
		}
		if got := len(accessLines(r.sink, "transport=rest", "outcome="+outcome)); got != int(want) {
			t.Errorf("rest %s: %d access lines, want %v", outcome, got, want)
		}
	}
	if got := value(fams, "storefinder_cursor_rejections_total", map[string]string{"transport": "rest"}); got != 2 {
		t.Errorf("rest cursor rejections: %v, want 2", got)
	}
	for _, outcome := range []string{"rate_limited", "overloaded", "refused", "internal"} {
		if got := value(fams, "storefinder_requests_total", map[string]string{"transport": "rest", "outcome": outcome}); got > 0 {
			t.Errorf("rest %s: %v, want none", outcome, got)
		}
	}
}

// stdioSession serves the current version over in-process pipes through
// stdioTransport, as --stdio does with c, and returns a function sending
// one line (and reading its reply, unless it is a notification) and the
// process's metrics handler (nil when c has no operations).
func stdioSession(t *testing.T, c config, logger *slog.Logger) (func(line string) rpcResult, http.Handler) {
	t.Helper()
	server, _, err := newServer(c, logger)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := stdioTransport(c, logger)
	tr.In, tr.Out = inR, outW
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveStdio(ctx, server, tr, 5*time.Second, logger)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		stop()
		<-done
	})
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 8<<20)
	send := func(line string) rpcResult {
		t.Helper()
		fmt.Fprintln(inW, line)
		if strings.Contains(line, `"notifications/`) {
			return rpcResult{}
		}
		if !replies.Scan() {
			t.Fatalf("no reply over stdio to %.80s", line)
		}
		var r rpcResult
		if err := json.Unmarshal(replies.Bytes(), &r); err != nil {
			t.Fatalf("stdio reply %s: %v", replies.Bytes(), err)
		}
		r.raw = replies.Text()
		return r
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if c.ops == nil {
		return send, nil
	}
	return send, c.ops.metrics.Handler()
}

// TestStdioIsRecordedAndLimited: stdio messages are counted and logged
// like HTTP requests, under the transport "stdio" and in the same
// outcomes, and stdio tool calls meet --rate-burst as HTTP calls do.
func TestStdioIsRecordedAndLimited(t *testing.T) {
	c, err := parseFlags([]string{"--stdio", "--rate", "0.001", "--rate-burst", "5"})
	if err != nil {
		t.Fatal(err)
	}
	sink := &logSink{}
	send, metrics := stdioSession(t, c, slog.New(slog.NewTextHandler(sink, nil)))
	for i, loc := range []string{`{}`, `{"query":"coffee"}`, `{"pagination":{"cursor":"forged"}}`, nearNewYork, `{}`, `{}`} {
		r := send(toolCall(i+1, "search_locations", restProfile, loc))
		switch {
		case i == 2:
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("forged cursor: %s, want -32602", r.raw)
			}
		case i == 5:
			if r.Error == nil || r.Error.Code != -32000 || !strings.Contains(string(r.Error.Data), `"status":429`) {
				t.Errorf("sixth call: %s, want -32000 with status 429", r.raw)
			}
		case r.Result == nil:
			t.Errorf("call %d: %s, want an answer", i+1, r.raw)
		}
	}
	if r := send(`not json`); r.Error == nil || r.Error.Code != -32700 {
		t.Errorf("malformed line: %s", r.raw)
	}
	rec := httptest.NewRecorder()
	metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"tool": "search_locations", "outcome": "ok"}, 4},
		{map[string]string{"tool": "search_locations", "outcome": "invalid_params"}, 1},
		{map[string]string{"tool": "search_locations", "outcome": "rate_limited"}, 1},
		{map[string]string{"method": "", "outcome": "invalid_request"}, 1},
		{map[string]string{"method": "initialize", "outcome": "ok"}, 1},
	} {
		c.labels["transport"] = "stdio"
		if got := value(fams, "storefinder_requests_total", c.labels); got != c.want {
			t.Errorf("%v: %v, want %v", c.labels, got, c.want)
		}
	}
	if got := value(fams, "storefinder_cursor_rejections_total", map[string]string{"transport": "stdio"}); got != 1 {
		t.Errorf("stdio cursor rejections: %v, want 1", got)
	}
	if got := len(accessLines(sink, "transport=stdio", "tool=search_locations", "caller="+restProfile)); got != 6 {
		t.Errorf("%d stdio access lines for the six calls, want 6:\n%s", got, strings.Join(accessLines(sink), "\n"))
	}
}

// TestAccessLogIsBounded: whatever a request puts in the fields the access
// log repeats (the caller's profile, the Request-Id, the JSON-RPC id), its
// line stays short and says what it cut: a 1 MiB profile of bytes that are
// not UTF-8, a valid 900 KB profile URL and a 60 KB header profile, over
// MCP at both versions, REST at both versions and stdio.
func TestAccessLogIsBounded(t *testing.T) {
	r, base := startOps(t)
	invalid := strings.Repeat("\xff", 1<<20-6000)
	valid := "https://platform.example/" + strings.Repeat("a", 900_000)
	longID := `"` + strings.Repeat("7", 5000) + `"`
	for _, v := range bothVersions {
		for _, profile := range []string{invalid, valid} {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"%s"}},"location":{}}}}`, longID, profile)
			if status, _, raw := rpcRaw(t, http.DefaultClient, base+mcpPath(v), body); status >= 500 {
				t.Fatalf("%s MCP: %d %.200s", v, status, raw)
			}
		}
		header := `profile="https://platform.example/` + strings.Repeat("b", 60_000) + `"`
		restPost(t, base+restPath(v)+"/locations/search", `{}`, "UCP-Agent", header, "Request-Id", strings.Repeat("c", 3000))
	}
	lines := accessLines(r.sink)
	if len(lines) < 6 {
		t.Fatalf("%d access lines for 6 requests", len(lines))
	}
	cut := regexp.MustCompile(`\.\.\.\[cut: \d+ bytes\]`)
	for _, line := range lines {
		if len(line) > 2048 {
			t.Errorf("an access line of %d bytes: %.300s", len(line), line)
		}
		if !cut.MatchString(line) {
			t.Errorf("an access line that cut its fields says nothing of it: %.300s", line)
		}
	}

	sink := &logSink{}
	c, err := parseFlags([]string{"--stdio"})
	if err != nil {
		t.Fatal(err)
	}
	send, _ := stdioSession(t, c, slog.New(slog.NewTextHandler(sink, nil)))
	for _, profile := range []string{invalid, valid} {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"%s"}},"location":{}}}}`, longID, profile))
	}
	for _, line := range accessLines(sink, "tool=search_locations") {
		if len(line) > 2048 || !cut.MatchString(line) {
			t.Errorf("a stdio access line of %d bytes: %.300s", len(line), line)
		}
	}
}
