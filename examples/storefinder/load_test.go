package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// Load test shape, the same in the plain and the race pass (the figures
// in docs/benchmarks.md name the duration they were measured with). 10 s
// of 64 clients is thousands of calls of every kind in the mix; each
// second more costs both cores of the CI machine for that second.
const (
	loadClients  = 64
	loadDuration = 10 * time.Second
)

// loadCase is one request of the mix and the exact answer it must get.
type loadCase struct {
	name   string
	body   string
	status int
	want   []byte // canonical JSON of the reply, taken before the load
}

// TestLoad drives the HTTP server with 64 concurrent clients for 10 s of
// mixed valid and invalid calls and requires every reply to equal the one
// the same request got on an idle server, and goroutines and memory back at
// their baseline afterwards. In a race-detector build a data race fails the
// test too; there the process RSS is only logged, because the detector's
// shadow memory is never given back.
//
// A plain build checks the process RSS and skips in -short mode. A race
// build runs even in -short mode: `go test -race -short ./...` (the race
// pass of .ci/run) is where the load meets the detector, in the binary that
// pass builds anyway, rather than in a second race build of the whole
// module started from the plain pass.
func TestLoad(t *testing.T) {
	if testing.Short() && !testshared.Race {
		t.Skip("skipping: 10 s loopback load test (not in -short mode; a -race build runs it in -short mode too)")
	}
	runLoad(t, !testshared.Race, loadDuration)
}

// runLoad runs the load test in this process for d; checkRSS adds the process
// RSS to the memory that must return to its baseline.
func runLoad(t *testing.T, checkRSS bool, d time.Duration) {
	l := defaultLimits(t)
	l.rate, l.itemsRate, l.otherRate = 0, 0, 0 // the limits have their own tests; here every call must be served
	logger := slog.New(slog.DiscardHandler)
	server, _, err := newServer(config{limits: l}, logger)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := httpServer(config{limits: l}, server, "http://"+ln.Addr().String(), logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveUntil(ctx, srv, ln, l.shutdownGrace, logger) }()
	url := "http://" + ln.Addr().String() + "/ucp/mcp"
	transport := &http.Transport{MaxIdleConnsPerHost: loadClients}
	client := &http.Client{Transport: transport}

	cases := loadMix(t, client, url)
	// A short run at full concurrency first, so that what the baseline
	// already includes (the race detector's per-goroutine state, pools,
	// lazily built indexes) is not mistaken for growth.
	loadRun(client, url, cases, 2*time.Second)
	transport.CloseIdleConnections()
	baseG, baseHeap, baseRSS := settle(t, -1)

	res := loadRun(client, url, cases, d)
	transport.CloseIdleConnections()
	endG, endHeap, endRSS := settle(t, baseG)
	stop()
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	calls, wrong, wrongMsg, peakRSS := res.calls, res.wrong, res.first, res.peakRSS

	t.Logf("race detector: %v", testshared.Race)
	t.Logf("load: %d clients, %s, %d calls (%.0f/s), %d wrong", loadClients, d, calls, float64(calls)/d.Seconds(), wrong)
	t.Logf("goroutines: baseline %d, after %d", baseG, endG)
	t.Logf("heap in use: baseline %.1f MiB, after %.1f MiB", mib(baseHeap), mib(endHeap))
	t.Logf("RSS: baseline %.1f MiB, peak %.1f MiB, after %.1f MiB", mib(baseRSS), mib(uint64(peakRSS)), mib(endRSS))
	if wrong != 0 {
		t.Errorf("%d wrong answers; first: %s", wrong, wrongMsg)
	}
	if endG > baseG {
		t.Errorf("goroutines did not return to baseline: %d, was %d", endG, baseG)
	}
	// Memory: what the heap holds after a GC must be back near the
	// baseline: a leak of 1 KiB per call would exceed the margin.
	if endHeap > baseHeap+8<<20 {
		t.Errorf("heap in use %.1f MiB after the load, baseline %.1f MiB", mib(endHeap), mib(baseHeap))
	}
	if checkRSS && endRSS > baseRSS+baseRSS/4 {
		t.Errorf("RSS %.1f MiB after the load, baseline %.1f MiB", mib(endRSS), mib(baseRSS))
	}
}

// loadResult is what one run of the load measured.
type loadResult struct {
	calls, wrong int64
	first        string
	peakRSS      int64
}

// loadRun sends the mix from loadClients clients for d and checks every
// reply against its reference.
func loadRun(client *http.Client, url string, cases []loadCase, d time.Duration) loadResult {
	var calls, wrong, peak atomic.Int64
	var firstWrong sync.Once
	var first string
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := 0; c < loadClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; time.Now().Before(deadline); i++ {
				if msg := loadCheck(client, url, &cases[i%len(cases)]); msg != "" {
					wrong.Add(1)
					firstWrong.Do(func() { first = msg })
				}
				calls.Add(1)
			}
		}()
	}
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for time.Now().Before(deadline) {
			if r := rss(); r > peak.Load() {
				peak.Store(r)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	wg.Wait()
	<-sampled
	return loadResult{calls: calls.Load(), wrong: wrong.Load(), first: first, peakRSS: peak.Load()}
}

// loadMix builds the request mix and takes each one's answer on the idle
// server as the reference.
func loadMix(t *testing.T, client *http.Client, url string) []loadCase {
	t.Helper()
	profile := "https://platform.example/agent.json"
	call := func(tool, loc string) string { return toolCall(1, tool, profile, loc) }
	cases := []loadCase{
		{name: "search near New York", body: call("search_locations", nearNewYork)},
		{name: "search with query", body: call("search_locations", `{"query":"pharmacy","pagination":{"limit":5}}`)},
		{name: "search page 2", body: ""}, // filled below from page 1's cursor
		{name: "distance without center", body: call("search_locations", `{"distance":{"max":5}}`)},
		{name: "negative radius", body: call("search_locations", `{"distance":{"center":{"latitude":40.7,"longitude":-74},"max":-5}}`)},
		{name: "duplicate location", body: toolCall(1, "search_locations", profile, `{},"location":{"query":"x"}`)},
		{name: "unknown argument", body: strings.Replace(call("search_locations", `{}`), `"location":{}`, `"location":{},"extra":true`, 1)},
		{name: "lookup", body: ""}, // filled below with ids the search found
		{name: "lookup of nothing", body: call("lookup_locations", `{"ids":["no-such-store"]}`)},
		{name: "lookup without ids", body: call("lookup_locations", `{}`)},
		{name: "missing meta", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"location":{}}}}`},
		{name: "unknown tool", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{name: "parse error", body: `{"jsonrpc":"2.0","id":1,"method":`},
		{name: "batch", body: `[` + call("search_locations", nearNewYork) + `,` + call("search_locations", nearNewYork) + `]`},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":1,"method":"tools/explode","params":{}}`},
		{name: "not an object", body: `12`},
	}
	var page struct {
		Result struct {
			StructuredContent struct {
				Locations []struct {
					ID string `json:"id"`
				} `json:"locations"`
				Pagination struct {
					Cursor string `json:"cursor"`
				} `json:"pagination"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	_, body := loadPost(client, url, cases[0].body)
	if err := json.Unmarshal(body, &page); err != nil || len(page.Result.StructuredContent.Locations) == 0 {
		t.Fatalf("search near New York: %v %s", err, body)
	}
	var ids []string
	for _, l := range page.Result.StructuredContent.Locations {
		ids = append(ids, strconv.Quote(l.ID))
	}
	cases[7].body = call("lookup_locations", `{"ids":[`+strings.Join(ids, ",")+`]}`)
	if c := page.Result.StructuredContent.Pagination.Cursor; c != "" {
		cases[2].body = call("search_locations", `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":3,"cursor":`+strconv.Quote(c)+`}}`)
	} else {
		cases[2].body = call("search_locations", `{"query":"coffee"}`)
	}
	kinds := map[string]bool{}
	for i := range cases {
		status, body := loadPost(client, url, cases[i].body)
		want, err := canonicalJSON(body)
		if err != nil {
			t.Fatalf("%s: reply is not JSON (%d): %s", cases[i].name, status, body)
		}
		cases[i].status, cases[i].want = status, want
		var r rpcResult
		json.Unmarshal(body, &r)
		kind := fmt.Sprint(status, " result")
		if r.Error != nil {
			kind = fmt.Sprint(status, " ", r.Error.Code)
		}
		kinds[kind] = true
	}
	// results, -32602, -32700, -32600 and -32601 at least
	if len(kinds) < 5 {
		t.Fatalf("the mix should see every kind of outcome, got %v", kinds)
	}
	return cases
}

// loadCheck sends one case and describes any difference from its reference.
func loadCheck(client *http.Client, url string, lc *loadCase) string {
	status, body := loadPost(client, url, lc.body)
	got, err := canonicalJSON(body)
	if err != nil || status != lc.status || !bytes.Equal(got, lc.want) {
		return fmt.Sprintf("%s: got %d %.300s, want %d %.300s", lc.name, status, body, lc.status, lc.want)
	}
	return ""
}

func loadPost(client *http.Client, url, body string) (int, []byte) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// canonicalJSON re-encodes data so member order and spacing do not matter.
func canonicalJSON(data []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// settle collects garbage and waits (up to 30 s) for the goroutine count to
// fall to target (or to stop changing when target < 0), then reports the
// goroutine count, heap in use and RSS.
func settle(t *testing.T, target int) (int, uint64, uint64) {
	t.Helper()
	prev := -1
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
		runtime.GC()
		g := runtime.NumGoroutine()
		if (target >= 0 && g <= target) || (target < 0 && g == prev) {
			break
		}
		prev = g
		time.Sleep(100 * time.Millisecond)
	}
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapInuse, uint64(rss())
}

// rss is the process's resident set size in bytes from /proc (0 elsewhere).
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
