package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/ucpgen/ucpgen/runtime/heapgoal"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// holdLoading blocks start-up (newServers calls wrap) until released, so
// a test can watch the server while it loads.
type holdLoading struct{ release chan struct{} }

func (h holdLoading) wrap(in locationHooks) locationHooks { <-h.release; return in }

// running is a storefinder started through serveHTTP, as run starts it.
type running struct {
	sink    *logSink
	metrics string
	stop    context.CancelFunc
	done    chan error
}

// startServe parses args as the command line, starts serveHTTP and waits
// for the listeners it logs.
func startServe(t *testing.T, hold *holdLoading, args ...string) *running {
	t.Helper()
	c, err := parseFlags(append([]string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	if hold != nil {
		c.wrap = *hold
	}
	r := &running{sink: &logSink{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.done <- serveHTTP(ctx, c, slog.New(slog.NewTextHandler(r.sink, nil))) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			t.Error("server did not stop")
		}
	})
	r.metrics = r.waitLog(t, `msg="storefinder serving metrics" endpoint=(\S+)`)
	return r
}

// waitLog waits for a log line matching re and returns its first group.
func (r *running) waitLog(t *testing.T, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for start := time.Now(); time.Since(start) < 60*time.Second; time.Sleep(10 * time.Millisecond) {
		r.sink.mu.Lock()
		m := rx.FindStringSubmatch(r.sink.b.String())
		r.sink.mu.Unlock()
		if m != nil {
			return m[1]
		}
	}
	t.Fatalf("no log line matching %s:\n%s", re, r.sink.b.String())
	return ""
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("metrics do not parse: %v", err)
	}
	return fams
}

// value sums the samples of family name whose labels include want.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	var sum float64
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

// TestMetricsHealthAndAccessLog starts the server as run does and follows
// it through start-up, service and drain: probes answer while it loads
// (/readyz "loading"), are unauthenticated and never rate-limited; the
// metrics listener (not the public one) is parsed with the Prometheus text
// parser and its counters move by exactly the calls made, by tool and
// outcome; each request leaves one access line with coordinates cut to 2
// decimals; on shutdown /readyz is 503 "draining" for --drain-delay while
// calls are still served.
//
// It runs on the direct path and through the SDK's session
// (--tool-calls-via-sdk), whose tool handlers see the call's note too.
func TestMetricsHealthAndAccessLog(t *testing.T) {
	// Each subtest has its own server, listeners and metrics registry, and
	// most of its time is the drain delay, so the two wait side by side.
	t.Run("direct", func(t *testing.T) { t.Parallel(); checkOperations(t) })
	t.Run("via SDK", func(t *testing.T) { t.Parallel(); checkOperations(t, "--tool-calls-via-sdk") })
}

func checkOperations(t *testing.T, extra ...string) {
	hold := &holdLoading{release: make(chan struct{})}
	r := startServe(t, hold, append([]string{"--rate", "0.001", "--rate-burst", "6", "--drain-delay", "4s"}, extra...)...)
	base := r.waitPublic(t)
	if st, body := get(t, base+"/healthz"); st != 200 || !strings.Contains(body, `"alive"`) {
		t.Fatalf("/healthz while loading: %d %s", st, body)
	}
	if st, body := get(t, base+"/readyz"); st != 503 || !strings.Contains(body, `"loading"`) {
		t.Fatalf("/readyz while loading: %d %s", st, body)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	if st, _, _ := rpcRaw(t, client, base+"/ucp/mcp", toolCall(1, "search_locations", "https://p.example/a", nearNewYork)); st != 503 {
		t.Fatalf("a call while loading: %d, want 503", st)
	}
	close(hold.release)
	r.waitLog(t, `msg="storefinder serving MCP" endpoint=(\S+)`)
	if st, body := get(t, base+"/readyz"); st != 200 || !strings.Contains(body, `"ready"`) {
		t.Fatalf("/readyz once loaded: %d %s", st, body)
	}
	if st, _ := get(t, strings.Replace(r.metrics, "/metrics", "", 1)+"/healthz"); st != 404 {
		t.Errorf("the metrics listener serves probes too (%d); it should serve /metrics alone", st)
	}
	if st, _ := get(t, base+"/metrics"); st == 200 {
		t.Error("the public listener serves /metrics")
	}

	before := scrape(t, r.metrics)
	url := base + "/ucp/mcp"
	profile := "https://p.example/a"
	calls := []struct {
		body   string
		status int
	}{
		{toolCall(10, "search_locations", profile, nearNewYork), 200},
		{toolCall(11, "search_locations", profile, `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":3}}`), 200},
		{toolCall(12, "lookup_locations", profile, `{"ids":["loc_a72bfe596943"]}`), 200},
		{toolCall(13, "search_locations", profile, `{"distance":{"center":{"latitude":95,"longitude":0},"max":1}}`), 200},
		{toolCall(14, "search_locations", profile, `{"pagination":{"cursor":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}`), 200},
		{toolCall(15, "lookup_locations", profile, `{"ids":["x"]}`), 200},
		{toolCall(16, "search_locations", profile, nearNewYork), 429},
	}
	for _, c := range calls {
		if st, _, raw := rpcRaw(t, client, url, c.body); st != c.status {
			t.Fatalf("%s: status %d, want %d: %s", c.body, st, c.status, raw)
		}
	}
	for range 20 { // probes are exempt from the limit the caller just hit
		if st, _ := get(t, base+"/healthz"); st != 200 {
			t.Fatalf("/healthz after the caller's budget ran out: %d", st)
		}
	}
	after := scrape(t, r.metrics)
	delta := func(name string, labels map[string]string) float64 {
		return value(after, name, labels) - max(0, value(before, name, labels))
	}
	search := map[string]string{"transport": "mcp", "method": "tools/call", "tool": "search_locations"}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			out[a] = b
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"storefinder_requests_total", with(search, "outcome", "ok"), 2},
		{"storefinder_requests_total", with(search, "outcome", "invalid_params"), 2},
		{"storefinder_requests_total", with(search, "outcome", "rate_limited"), 1},
		{"storefinder_requests_total", map[string]string{"tool": "lookup_locations", "outcome": "ok"}, 2},
		{"storefinder_request_duration_seconds", search, 5},
		{"storefinder_cursor_rejections_total", map[string]string{"transport": "mcp"}, 1},
	} {
		if got := delta(tc.name, tc.labels); got != tc.want {
			t.Errorf("%s%v moved by %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
	if got := delta("storefinder_source_calls_total", map[string]string{"method": "candidates", "outcome": "ok"}); got < 2 {
		t.Errorf("source candidates calls moved by %v, want at least 2", got)
	}
	if got := delta("storefinder_source_calls_total", map[string]string{"method": "resolve"}); got != 2 {
		t.Errorf("source resolve calls moved by %v, want 2", got)
	}
	if value(after, "storefinder_requests_in_flight", map[string]string{"transport": "mcp"}) != 0 {
		t.Error("requests in flight is not back to 0")
	}
	if value(after, "storefinder_source_call_duration_seconds", map[string]string{"method": "candidates"}) <= 0 {
		t.Error("no source latency samples")
	}

	// The access log: one line per POST, with ids, tool, status, caller and
	// the centre cut to 2 decimals; the precise coordinates appear nowhere.
	logs := r.sink.b.String()
	// The gate answered the call while loading; the public /metrics
	// request above is a REST 404, with a line of its own.
	if n := strings.Count(logs, "msg=access transport=mcp"); n != len(calls) {
		t.Errorf("%d access lines for %d requests:\n%s", n, len(calls), logs)
	}
	for _, want := range []string{
		`msg=access transport=rest request_id="" rpc_id="" method="" tool="" status=404`,
		`msg=access transport=mcp request_id="" rpc_id=10 method=tools/call tool=search_locations status=200 outcome=ok`,
		`caller=https://p.example/a near=40.71,-74.00`,
		`rpc_id=16 method=tools/call tool=search_locations status=429 outcome=rate_limited`,
		`rpc_id=14 method=tools/call tool=search_locations status=200 outcome=invalid_params`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("access log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "40.7128") || strings.Contains(logs, "-74.006") {
		t.Errorf("precise coordinates in the log:\n%s", logs)
	}

	// Drain: /readyz turns 503 at once, calls are still answered during
	// --drain-delay, and the server then stops cleanly. The drain starts on
	// a goroutine of its own once the context ends (as on SIGTERM), so the
	// test waits for its log line before asking /readyz.
	r.stop()
	r.waitLog(t, `msg="storefinder draining" (drain_delay=\S+)`)
	if st, body := get(t, base+"/readyz"); st != 503 || !strings.Contains(body, `"draining"`) {
		t.Fatalf("/readyz while draining: %d %s", st, body)
	}
	if st, _, raw := rpcRaw(t, client, url, toolCall(20, "search_locations", "https://p.example/b", nearNewYork)); st != 200 {
		t.Fatalf("a call during the drain delay: %d %s", st, raw)
	}
	if err := <-r.done; err != nil {
		t.Fatalf("serveHTTP after the drain: %v", err)
	}
	r.done <- nil // for the cleanup
}

// waitPublic returns the public listener's URL, which serveHTTP logs
// with "storefinder loading", before it loads the data.
func (r *running) waitPublic(t *testing.T) string {
	t.Helper()
	return "http://" + r.waitLog(t, `msg="storefinder loading" .*?addr=(\S+)`)
}

// rpcRaw posts one JSON-RPC body and returns the status, Retry-After and
// the raw reply, for answers that need not be JSON-RPC (a 503 probe page).
func rpcRaw(t *testing.T, client *http.Client, url, body string) (int, string, string) {
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
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(raw)
}

// TestReadyzPingsPostGIS: with --postgres, /readyz answers from a ping of
// the database (503 "unavailable" while it is away) and the pgx pool
// statistics are exported.
func TestReadyzPingsPostGIS(t *testing.T) {
	t.Parallel() // its own schema; waits on the database more than on the CPU
	direct := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	proxy, dsn := pgtest.NewProxy(t, direct)
	r := startServe(t, nil, "--postgres", dsn, "--data", pgDataFile(t), "--ready-timeout", "2s")
	base := r.waitPublic(t)
	r.waitLog(t, `msg="storefinder serving MCP" endpoint=(\S+)`)
	if st, body := get(t, base+"/readyz"); st != 200 {
		t.Fatalf("/readyz with the database up: %d %s", st, body)
	}
	fams := scrape(t, r.metrics)
	if value(fams, "storefinder_pgxpool_total_conns", nil) < 1 || value(fams, "storefinder_pgxpool_acquires_total", nil) < 1 {
		t.Errorf("pgx pool statistics missing or zero: %v %v", value(fams, "storefinder_pgxpool_total_conns", nil), value(fams, "storefinder_pgxpool_acquires_total", nil))
	}
	proxy.Freeze()
	start := time.Now()
	if st, body := get(t, base+"/readyz"); st != 503 || !strings.Contains(body, `"unavailable"`) {
		t.Fatalf("/readyz with the database frozen: %d %s", st, body)
	}
	t.Logf("/readyz answered 503 in %s with the database frozen", time.Since(start).Round(time.Millisecond))
	if st, _ := get(t, base+"/healthz"); st != 200 {
		t.Fatalf("/healthz with the database frozen: %d", st)
	}
	proxy.Start()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if st, _ := get(t, base+"/readyz"); st == 200 {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("/readyz still 503 after the database came back")
		}
	}
}

// TestOpsFlags: the operations flags' defaults (metrics not served, no
// drain delay, access log on) and their refusals.
func TestOpsFlags(t *testing.T) {
	c, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := c.ops; o.metricsAddr != "" || o.drainDelay != 0 || !o.accessLog || o.readyWait != time.Second {
		t.Errorf("defaults: %+v", o)
	}
	c, err = parseFlags([]string{"--metrics-addr", "127.0.0.1:9090", "--drain-delay", "5s", "--access-log=false", "--ready-timeout", "200ms"})
	if o := c.ops; err != nil || o.metricsAddr != "127.0.0.1:9090" || o.drainDelay != 5*time.Second || o.accessLog || o.readyWait != 200*time.Millisecond {
		t.Errorf("set: %+v, %v", o, err)
	}
	for _, args := range [][]string{{"--drain-delay", "-1s"}, {"--ready-timeout", "0s"}} {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: err = %v", args, err)
		}
	}
}

// TestGCHeadroomOnceLoaded follows the collector's growth target, as
// /metrics reports it, through a start: left alone while the data loads,
// raised by --gc-headroom once the server listens, put back when it stops;
// with --gc-headroom=0 it is never changed. Not parallel: the target is
// the process's.
func TestGCHeadroomOnceLoaded(t *testing.T) {
	t.Setenv("GOGC", "")
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	gogc := func(r *running) float64 { return value(scrape(t, r.metrics), "go_gc_gogc_percent", nil) }
	for _, tc := range []struct {
		headroom string
		want     float64
	}{
		{strconv.Itoa(1 << 50), heapgoal.MaxPercent}, // more than anything live: the bound
		{"0", 100},
	} {
		t.Run("--gc-headroom="+tc.headroom, func(t *testing.T) {
			hold := &holdLoading{release: make(chan struct{})}
			r := startServe(t, hold, "--gc-headroom", tc.headroom)
			if got := gogc(r); got != 100 {
				t.Errorf("while loading: go_gc_gogc_percent %v, want 100", got)
			}
			close(hold.release)
			r.waitLog(t, `msg="storefinder listening" addr=(\S+)`)
			if got := gogc(r); got != tc.want {
				t.Errorf("serving: go_gc_gogc_percent %v, want %v", got, tc.want)
			}
			r.stop()
			err := <-r.done
			r.done <- err // for the cleanup's wait
			if err != nil {
				t.Fatal(err)
			}
			if got := debug.SetGCPercent(100); got != 100 {
				t.Errorf("after the server stopped: target %d, want 100", got)
			}
		})
	}
}
