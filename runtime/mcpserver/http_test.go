package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestHTTPProtocolErrors checks that every refusal before a tool runs is a
// JSON-RPC error object with the HTTP status the transport uses, not a
// plain-text body a JSON-RPC client cannot read.
func TestHTTPProtocolErrors(t *testing.T) {
	var calls atomic.Int64
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		calls.Add(1)
		return emptyResult(ctx, loc)
	}))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{MaxBodyBytes: 256 << 10})
	batch := "[" + strings.Repeat(callBody(1, "search", `{"meta":`+meta+`,"location":{}}`)+",", 599) + callBody(600, "search", `{"meta":`+meta+`,"location":{}}`) + "]"
	cases := []struct {
		name    string
		body    string
		header  []string
		status  int
		code    int64
		id      string
		message string
	}{
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,`, nil, 400, -32700, "null", "parse error"},
		{"empty body", ``, nil, 400, -32700, "null", "parse error"},
		{"not JSON", `hello`, nil, 400, -32700, "null", "parse error"},
		{"batch array", `[` + callBody(1, "search", `{"meta":`+meta+`,"location":{}}`) + `]`, nil, 400, -32600, "null", "batch"},
		{"600-call batch", batch, nil, 400, -32600, "null", "batch"},
		{"empty batch", `[]`, nil, 400, -32600, "null", "batch"},
		{"scalar", `42`, nil, 400, -32600, "null", "must be an object"},
		{"no method", `{"jsonrpc":"2.0","id":1}`, nil, 400, -32600, "null", "invalid request"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, nil, 400, -32600, "null", "invalid request"},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"tools/explode","params":{}}`, nil, 400, -32601, "7", "method not found"},
		{"body over the bound", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 300<<10) + `"}}`, nil, 413, -32600, "null", "exceeds"},
		{"wrong content type", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, []string{"Content-Type", "text/plain"}, 415, -32600, "3", "Content-Type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, r, raw := post(t, url, tc.body, tc.header...)
			if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("status %d %q, want %d application/json: %s", resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, raw)
			}
			if r.Error == nil || r.Error.Code != tc.code || !strings.Contains(r.Error.Message, tc.message) || string(r.ID) != tc.id && !(tc.id == "null" && r.ID == nil) {
				t.Fatalf("reply %s, want code %d id %s mentioning %q", raw, tc.code, tc.id, tc.message)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the hook ran %d times for refused requests", n)
	}
}

// TestBodyFormIsRefused: a POST whose headers say the body is gzip, in
// Latin-1, or of two media types is refused with the status the REST
// binding gives it (415, 415 with Accept-Encoding: identity, 400) as a
// JSON-RPC error naming the header, on the direct path and the SDK path,
// and no tool runs; UTF-8 and the identity coding are served.
func TestBodyFormIsRefused(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			var calls atomic.Int64
			s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
				calls.Add(1)
				return emptyResult(ctx, loc)
			}))
			url := serveHTTP(t, s, &mcpserver.HTTPOptions{DirectToolCalls: direct})
			warmDirect(t, url, "search")
			warm := calls.Load()
			body := callBody(5, "search", `{"meta":`+meta+`,"location":{}}`)
			for _, c := range []struct {
				name   string
				header []string
				status int
				names  string
			}{
				{"gzip", []string{"Content-Encoding", "gzip"}, 415, "Content-Encoding"},
				{"identity, br", []string{"Content-Encoding", "identity, br"}, 415, "Content-Encoding"},
				{"latin-1", []string{"Content-Type", "application/json; charset=iso-8859-1"}, 415, "Content-Type"},
				{"two media types", []string{"+Content-Type", "application/x-www-form-urlencoded"}, 400, "Content-Type"},
			} {
				resp, r, raw := post(t, url, body, c.header...)
				if resp.StatusCode != c.status || r.Error == nil || r.Error.Code != -32600 || !strings.HasPrefix(r.Error.Message, c.names+":") {
					t.Errorf("%s: %d %s, want %d -32600 naming %s", c.name, resp.StatusCode, raw, c.status, c.names)
				}
				if c.names == "Content-Encoding" && resp.Header.Get("Accept-Encoding") != "identity" {
					t.Errorf("%s: Accept-Encoding %q, want identity", c.name, resp.Header.Get("Accept-Encoding"))
				}
			}
			if n := calls.Load() - warm; n != 0 {
				t.Errorf("the hook ran %d times for refused requests", n)
			}
			for _, header := range [][]string{{"Content-Type", "application/json; charset=utf-8"}, {"Content-Encoding", "identity"}} {
				if resp, r, raw := post(t, url, body, header...); resp.StatusCode != 200 || r.Error != nil {
					t.Errorf("%v: %d %s, want an answer", header, resp.StatusCode, raw)
				}
			}
		})
	}
}

// TestHTTPTransportStatus checks that a hook's -32000 error sets the HTTP
// status and Retry-After it names.
func TestHTTPTransportStatus(t *testing.T) {
	s := newServer(nil, echoTool("search", func(context.Context, map[string]any) (any, error) {
		return nil, rpcerr.RateLimited("slow down", 3*time.Second)
	}))
	resp, r, raw := post(t, serveHTTP(t, s, nil), callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || r.Error == nil || r.Error.Code != -32000 {
		t.Fatalf("%d Retry-After %q: %s", resp.StatusCode, resp.Header.Get("Retry-After"), raw)
	}
}

// TestHTTPResponseBound checks that a response larger than the bound is
// replaced by -32603 and logged, instead of being buffered whole.
func TestHTTPResponseBound(t *testing.T) {
	big := strings.Repeat("x", 256<<10)
	logger, logs := quietLogger()
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["big"] != nil {
			return map[string]any{"locations": []any{map[string]any{"name": big}}}, nil
		}
		return emptyResult(ctx, loc)
	}))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{MaxResponseBytes: 128 << 10, Logger: logger})
	resp, r, raw := post(t, url, callBody(5, "search", `{"meta":`+meta+`,"location":{"big":true}}`))
	if resp.StatusCode != 500 || r.Error == nil || r.Error.Code != -32603 || string(r.ID) != "5" || len(raw) > 1024 {
		t.Fatalf("%d: %.300s", resp.StatusCode, raw)
	}
	if !strings.Contains(logs.String(), "exceeded the bound") {
		t.Errorf("not logged: %s", logs)
	}
	if _, r, raw := post(t, url, callBody(6, "search", `{"meta":`+meta+`,"location":{}}`)); r.Result == nil {
		t.Fatalf("small response after a big one: %s", raw)
	}
}

// TestHTTPInFlightCap checks that requests above MaxInFlight get -32000,
// 503 and Retry-After, and that capacity comes back when calls finish.
func TestHTTPInFlightCap(t *testing.T) {
	release := make(chan struct{})
	var entered sync.WaitGroup
	entered.Add(2)
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["hold"] != nil {
			entered.Done()
			<-release
		}
		return emptyResult(ctx, loc)
	}))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{MaxInFlight: 2})
	var held sync.WaitGroup
	for i := 0; i < 2; i++ {
		held.Add(1)
		go func() {
			defer held.Done()
			if _, r, raw := post(t, url, callBody(i, "search", `{"meta":`+meta+`,"location":{"hold":true}}`)); r.Result == nil {
				t.Errorf("held call: %s", raw)
			}
		}()
	}
	entered.Wait()
	resp, r, raw := post(t, url, callBody(3, "search", `{"meta":`+meta+`,"location":{}}`))
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || r.Error == nil || r.Error.Code != -32000 {
		t.Fatalf("over the cap: %d Retry-After %q: %s", resp.StatusCode, resp.Header.Get("Retry-After"), raw)
	}
	var d struct{ Status int }
	json.Unmarshal(r.Error.Data, &d)
	if d.Status != 503 {
		t.Errorf("data = %s", r.Error.Data)
	}
	close(release)
	held.Wait()
	if _, r, raw := post(t, url, callBody(4, "search", `{"meta":`+meta+`,"location":{}}`)); r.Result == nil {
		t.Fatalf("after the held calls ended: %s", raw)
	}
}

// TestHTTPRateLimit checks per-caller token buckets with a hand-driven
// clock: callers are keyed by agent profile, else remote address; calls the
// Strict predicate selects also draw from the stricter bucket.
func TestHTTPRateLimit(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	s := newServer(nil, echoTool("search", emptyResult))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{RateLimit: &ucpcore.RateLimit{
		PerSecond: 2, Burst: 3,
		Strict: func(tool string, args json.RawMessage) bool {
			var a struct {
				Location struct {
					Filters struct{ Items []string }
				}
			}
			json.Unmarshal(args, &a)
			return tool == "search" && len(a.Location.Filters.Items) > 0
		},
		StrictPerSecond: 0.5, StrictBurst: 1,
		Now: clock,
	}})
	args := func(profile, loc string) string {
		if profile == "" {
			return `{"meta":{},"location":` + loc + `}`
		}
		return `{"meta":{"ucp-agent":{"profile":"` + profile + `"}},"location":` + loc + `}`
	}
	const items = `{"filters":{"items":["sku-1"]}}`
	steps := []struct {
		name     string
		profile  string
		loc      string
		advance  time.Duration
		limited  bool
		retryHdr string
	}{
		{"a 1", "https://a.example/p", `{}`, 0, false, ""},
		{"a 2", "https://a.example/p", `{}`, 0, false, ""},
		{"a 3 (burst)", "https://a.example/p", `{}`, 0, false, ""},
		{"a 4 over", "https://a.example/p", `{}`, 0, true, "1"},
		{"b unaffected", "https://b.example/p", items, 0, false, ""},
		{"b items again: strict bucket empty", "https://b.example/p", items, 0, true, "2"},
		{"b plain search still allowed", "https://b.example/p", `{}`, 0, false, ""},
		{"a after 1s", "https://a.example/p", `{}`, time.Second, false, ""},
		{"b items after 2s more", "https://b.example/p", items, 2 * time.Second, false, ""},
		{"no profile: remote address 1", "", `{}`, 0, false, ""},
		{"no profile: remote address 2", "", `{}`, 0, false, ""},
		{"no profile: remote address 3", "", `{}`, 0, false, ""},
		{"no profile: remote address over", "", `{}`, 0, true, "1"},
	}
	for i, st := range steps {
		advance(st.advance)
		resp, r, raw := post(t, url, callBody(i, "search", args(st.profile, st.loc)))
		limited := resp.StatusCode == 429
		if limited != st.limited {
			t.Fatalf("%s: status %d, want limited=%v: %s", st.name, resp.StatusCode, st.limited, raw)
		}
		if limited && (r.Error == nil || r.Error.Code != -32000 || resp.Header.Get("Retry-After") != st.retryHdr) {
			t.Fatalf("%s: Retry-After %q want %q: %s", st.name, resp.Header.Get("Retry-After"), st.retryHdr, raw)
		}
	}
}

// TestHTTPSlowBodyHoldsNoSlot checks that a client still sending its body
// does not count against MaxInFlight, so slow senders cannot fill the cap.
func TestHTTPSlowBodyHoldsNoSlot(t *testing.T) {
	s := newServer(nil, echoTool("search", emptyResult))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{MaxInFlight: 1})
	host := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\":", host)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	// Give the server every chance to have started on the slow requests.
	time.Sleep(100 * time.Millisecond)
	if resp, r, raw := post(t, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`)); resp.StatusCode != 200 || r.Result == nil {
		t.Fatalf("with slow senders connected: %d %s", resp.StatusCode, raw)
	}
}
