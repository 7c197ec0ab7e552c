package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestRequestMemoryAdmission checks that requests are admitted by memory:
// each reserves a multiple of its body size, a request that does not fit
// waits and then gets -32000 with 503, a small one still fits, and the
// memory comes back once the held call is answered.
func TestRequestMemoryAdmission(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["hold"] != nil {
			entered <- struct{}{}
			<-release
		}
		return emptyResult(ctx, loc)
	}))
	pad := strings.Repeat("0,", 4<<10)
	big := func(id int, hold bool) string {
		return callBody(id, "search", fmt.Sprintf(`{"meta":%s,"location":{"hold":%v,"pad":[%s0]}}`, meta, hold, pad))
	}
	// One big body (about 8 KiB, so 512 KiB at 64 a byte) fits, two do
	// not; small bodies reserve 16 KiB.
	budget := ucpcore.NewBudget(ucpcore.BudgetOptions{MaxRequestMemory: 768 << 10, MemoryWait: 200 * time.Millisecond})
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{Budget: budget, DirectToolCalls: true})
	held := make(chan string, 1)
	go func() {
		_, _, raw := post(t, url, big(1, true))
		held <- raw
	}()
	<-entered
	resp, r, raw := post(t, url, big(2, false))
	if resp.StatusCode != 503 || r.Error == nil || r.Error.Code != -32000 || resp.Header.Get("Retry-After") == "" || !strings.Contains(r.Error.Message, "memory") {
		t.Fatalf("second big request while the first holds its memory: %d %s", resp.StatusCode, raw)
	}
	if resp, _, raw := post(t, url, callBody(3, "search", `{"meta":`+meta+`,"location":{}}`)); resp.StatusCode != 200 {
		t.Fatalf("small request beside the held one: %d %s", resp.StatusCode, raw)
	}
	close(release)
	if raw := <-held; !strings.Contains(raw, `"result"`) {
		t.Fatalf("held request: %s", raw)
	}
	if resp, _, raw := post(t, url, big(4, false)); resp.StatusCode != 200 {
		t.Fatalf("big request once memory is back: %d %s", resp.StatusCode, raw)
	}
	if got := budget.Reservation(8 << 10); got != 512<<10 {
		t.Errorf("reservation for 8 KiB = %d, want %d", got, 512<<10)
	}
}

// TestOtherRequestsAreLimited checks that requests running no tool
// (tools/list, ping, GET, refused messages) draw from their own bucket per
// remote address, so no method escapes the rate limit, while tool calls
// keep their own bucket.
func TestOtherRequestsAreLimited(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := newServer(nil, echoTool("search", emptyResult))
	url := serveHTTP(t, s, &mcpserver.HTTPOptions{RateLimit: &ucpcore.RateLimit{
		PerSecond: 1, Burst: 1,
		OtherPerSecond: 1, OtherBurst: 3,
		Now: func() time.Time { return now },
	}})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for i := range 3 {
		if resp, _, raw := post(t, url, list); resp.StatusCode != 200 {
			t.Fatalf("tools/list %d within the burst: %d %s", i, resp.StatusCode, raw)
		}
	}
	for name, body := range map[string]string{
		"tools/list":  list,
		"ping":        `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		"parse error": `{"jsonrpc"`,
	} {
		resp, r, raw := post(t, url, body)
		if resp.StatusCode != 429 || r.Error == nil || r.Error.Code != -32000 || resp.Header.Get("Retry-After") != "1" {
			t.Errorf("%s over the other budget: %d Retry-After %q: %s", name, resp.StatusCode, resp.Header.Get("Retry-After"), raw)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 429 {
		t.Errorf("GET over the other budget: %v %v", resp.StatusCode, err)
	}
	// The tool bucket is separate: the first call passes, the second not.
	if resp, _, raw := post(t, url, callBody(3, "search", `{"meta":`+meta+`,"location":{}}`)); resp.StatusCode != 200 {
		t.Fatalf("tool call with the other budget spent: %d %s", resp.StatusCode, raw)
	}
	if resp, _, _ := post(t, url, callBody(4, "search", `{"meta":`+meta+`,"location":{}}`)); resp.StatusCode != 429 {
		t.Fatalf("second tool call: %d, want 429", resp.StatusCode)
	}
}

// TestSlowReaderReleasesItsSlot checks that clients that
// send a request and never read the answer hold no in-flight slot once the
// answer is produced (shown with no minimum write rate, so nothing else
// would free the slots), and the server stops writing to a connection that
// reads slower than MinWriteRate and closes it, instead of writing until
// the write timeout (this server has none).
func TestSlowReaderReleasesItsSlot(t *testing.T) {
	for _, direct := range []bool{true, false} {
		for _, minRate := range []int64{-1, 1 << 20} {
			t.Run(fmt.Sprintf("direct=%v/minWriteRate=%d", direct, minRate), func(t *testing.T) {
				// Each case has a server of its own and spends most of
				// its time waiting on a stalled reader or the pacing.
				t.Parallel()
				slowReaders(t, direct, minRate)
			})
		}
	}
}

// slowReaders sends two large calls that are never read to a server with
// two slots; with minRate < 0 it checks that a third caller is served,
// otherwise that the server closes both connections.
func slowReaders(t *testing.T, direct bool, minRate int64) {
	big := strings.Repeat("x", 4<<20)
	var produced atomic.Int64
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["big"] != nil {
			defer produced.Add(1)
			return map[string]any{"locations": []any{map[string]any{"name": big}}}, nil
		}
		return emptyResult(ctx, loc)
	}))
	const slots = 2
	ts := httptest.NewUnstartedServer(mcpserver.Handler(s, &mcpserver.HTTPOptions{MaxInFlight: slots, DirectToolCalls: direct, MinWriteRate: minRate, WriteGrace: 200 * time.Millisecond, MaxResponseBytes: 16 << 20}))
	var mu sync.Mutex
	closed := map[string]bool{}
	ts.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			mu.Lock()
			closed[c.RemoteAddr().String()] = true
			mu.Unlock()
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	warmDirect(t, ts.URL, "search")
	host := strings.TrimPrefix(ts.URL, "http://")
	body := callBody(1, "search", `{"meta":`+meta+`,"location":{"big":true}}`)
	var conns []net.Conn
	for range slots {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s", host, len(body), body)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	deadline := hangDeadline(t)
	if minRate < 0 {
		for produced.Load() < slots {
			if time.Now().After(deadline) {
				t.Fatal("the big answers were never produced")
			}
			time.Sleep(10 * time.Millisecond)
		}
		// Both answers are produced and stuck in writing: every other
		// caller must still be served.
		for {
			resp, _, raw := post(t, ts.URL, callBody(2, "search", `{"meta":`+meta+`,"location":{}}`))
			if resp.StatusCode == 200 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("stalled readers still hold the cap: %d %.200s", resp.StatusCode, raw)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// 4 MiB at 1 MiB/s after 0.2 s: the server gives up within about
	// 4.2 s of its first write (sooner once kernel buffers are full); on
	// the SDK path, producing the two answers first can take longer than
	// that under the race detector on busy cores, so only a hang fails.
	for _, c := range conns {
		for {
			mu.Lock()
			done := closed[c.LocalAddr().String()]
			mu.Unlock()
			if done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server still writes to a reader that reads nothing")
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestCallThatRunsNoToolDrawsOther checks that a tools/call the SDK refuses
// without running a tool (an unknown tool) is charged to the bucket of
// requests that run none, so such calls are not free either.
func TestCallThatRunsNoToolDrawsOther(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	url := serveHTTP(t, newServer(nil, echoTool("search", emptyResult)), &mcpserver.HTTPOptions{DirectToolCalls: true, RateLimit: &ucpcore.RateLimit{
		PerSecond: 1, Burst: 100, OtherPerSecond: 1, OtherBurst: 2,
		Now: func() time.Time { return now },
	}})
	for i := range 3 {
		resp, _, raw := post(t, url, callBody(i, "nope", `{"meta":`+meta+`,"location":{}}`))
		if limited := resp.StatusCode == 429; limited != (i == 2) {
			t.Fatalf("unknown tool call %d: %d, want limited=%v: %s", i, resp.StatusCode, i == 2, raw)
		}
	}
	// Calls that run a tool are on their own bucket.
	if resp, _, raw := post(t, url, callBody(4, "search", `{"meta":`+meta+`,"location":{}}`)); resp.StatusCode != 200 {
		t.Fatalf("tool call: %d %s", resp.StatusCode, raw)
	}
}

// TestArgument checks the exact reader Strict predicates use: names match
// exactly, never case-insensitively, and a missing step gives nil.
func TestArgument(t *testing.T) {
	args := json.RawMessage(`{"meta":{},"location":{"FILTERS":{"items":null},"filters":{"items":["a"]}}}`)
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"location", "filters", "items"}, `["a"]`},
		{[]string{"location", "FILTERS", "items"}, `null`},
		{[]string{"location", "Filters"}, ``},
		{[]string{"location", "filters", "items", "deeper"}, ``},
		{[]string{"nothing"}, ``},
	} {
		if got := string(ucpcore.Argument(args, tc.path...)); got != tc.want {
			t.Errorf("Argument(%v) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestRepeatedAgentIsRefused checks that meta naming ucp-agent twice, or
// its profile twice, is -32602 at that member, so no second copy can stand
// in for the profile that is validated.
func TestRepeatedAgentIsRefused(t *testing.T) {
	url := serveHTTP(t, newServer(nil, echoTool("search", emptyResult)), nil)
	for want, m := range map[string]string{
		"/meta/ucp-agent":         `{"ucp-agent":{"profile":"https://a.example/p"},"ucp-agent":{"profile":"https://b.example/p"}}`,
		"/meta/ucp-agent/profile": `{"ucp-agent":{"profile":"https://a.example/p","profile":"https://b.example/p"}}`,
	} {
		_, r, raw := post(t, url, callBody(1, "search", `{"meta":`+m+`,"location":{}}`))
		if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(string(r.Error.Data), `"pointer":"`+want+`"`) {
			t.Errorf("%s: %s", want, raw)
		}
	}
}
