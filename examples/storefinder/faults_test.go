package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// logSink collects a server's log lines for counting.
type logSink struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// count returns the number of lines holding s.
func (l *logSink) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

// startLogged serves c over HTTP on a loopback port, logging to sink, and
// returns the MCP endpoint's URL.
func startLogged(t *testing.T, c config, sink *logSink) string {
	t.Helper()
	var pools []*pgxpool.Pool
	c.pools = &pools
	t.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	logger := slog.New(slog.NewTextHandler(sink, nil))
	server, _, err := newServer(c, logger)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := httpServer(c, server, "http://"+ln.Addr().String(), logger)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/ucp/mcp"
}

// TestDatabaseFaults takes the database away from a PostGIS-backed server
// through a relay (so the cluster other tests share keeps running): while
// it is stopped, or frozen as under SIGSTOP, every call is -32000 with HTTP
// 503, retry_after and Retry-After, within --postgres-timeout, and the log
// has one line for the outage, not one per call; once the database is
// back the next calls are served again.
func TestDatabaseFaults(t *testing.T) {
	t.Parallel() // its own schema; waits on the database more than on the CPU
	if c, err := parseFlags(nil); err != nil || c.postgresTimeout != postgis.DefaultTimeout {
		t.Fatalf("--postgres-timeout default = %v, %v; want %v", c.postgresTimeout, err, postgis.DefaultTimeout)
	}
	if _, err := parseFlags([]string{"--postgres-timeout", "0s"}); err == nil || !strings.Contains(err.Error(), "--postgres-timeout") {
		t.Fatalf("--postgres-timeout 0s: err = %v", err)
	}
	direct := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	proxy, dsn := pgtest.NewProxy(t, direct)
	var sink logSink
	c := config{postgres: dsn, data: pgDataFile(t), postgresTimeout: 2 * time.Second, limits: defaultLimits(t)}
	url := startLogged(t, c, &sink)
	client := &http.Client{Timeout: 30 * time.Second}
	search := func(id int) string {
		return toolCall(id, "search_locations", "https://platform.example/profile", nearNewYork)
	}
	lookup := func(id int) string {
		return toolCall(id, "lookup_locations", "https://platform.example/profile", `{"ids":["loc_a72bfe596943","nope"]}`)
	}
	served := func(id int) bool {
		st, _, r := rpc(t, client, url, search(id))
		return st == 200 && r.Error == nil && r.Result != nil
	}
	if !served(1) {
		t.Fatal("the server does not answer before the fault")
	}
	refused := func(phase string, id int, body string) {
		t.Helper()
		start := time.Now()
		st, retry, r := rpc(t, client, url, body)
		if st != http.StatusServiceUnavailable || r.Error == nil || r.Error.Code != -32000 || retry == "" {
			t.Fatalf("%s: status %d, Retry-After %q, reply %s; want 503, -32000 and Retry-After", phase, st, retry, r.raw)
		}
		var d struct {
			Status     int `json:"status"`
			RetryAfter int `json:"retry_after"`
		}
		if err := json.Unmarshal(r.Error.Data, &d); err != nil || d.Status != 503 || d.RetryAfter < 1 {
			t.Fatalf("%s: error data %s, want status 503 and retry_after", phase, r.Error.Data)
		}
		if el := time.Since(start); el > 20*time.Second {
			t.Fatalf("%s: answered after %s; --postgres-timeout is 2s", phase, el)
		}
	}
	recover := func(phase string) {
		t.Helper()
		back := time.Now()
		for id := 1000; !served(id); id++ {
			if time.Since(back) > 30*time.Second {
				t.Fatalf("%s: still refusing 30 s after the database came back", phase)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: served again %s after the database came back", phase, time.Since(back).Round(time.Millisecond))
	}

	proxy.Stop()
	const calls = 20
	for i := range calls {
		body := search(100 + i)
		if i%2 == 1 {
			body = lookup(100 + i)
		}
		refused("stopped", 100+i, body)
	}
	if n := sink.count("postgis unavailable"); n != 1 {
		t.Errorf("%d outage lines for %d refused calls within %s, want 1:\n%s", n, calls, "the log interval", sink.b.String())
	}
	if n := sink.count("ucp tool failed"); n != 0 {
		t.Errorf("%d internal-error lines during the outage, want 0", n)
	}
	proxy.Start()
	recover("stopped")
	if sink.count("postgis available again") != 1 {
		t.Errorf("no recovery line:\n%s", sink.b.String())
	}

	proxy.Freeze()
	for i := range 3 {
		refused("frozen", 200+i, search(200+i))
	}
	proxy.Start()
	recover("frozen")
	if n := sink.count("postgis unavailable"); n != 2 {
		t.Errorf("%d outage lines for two outages, want 2", n)
	}
}

// TestSourcesAgreeOnTextAndNUL: a query over finder.MaxQueryWords is the
// same -32602 at /location/query on both sources, and U+0000 in the query,
// in lookup ids or in filters.items gets the same answer from PostGIS as
// from memory (PostgreSQL text cannot hold NUL, which used to be -32603).
func TestSourcesAgreeOnTextAndNUL(t *testing.T) {
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	keys := pgKeys(t, "k1", "k1")
	mem := pgClient(t, config{cursorKeys: keys})
	pg := pgClient(t, config{cursorKeys: keys, postgres: dsn, data: pgDataFile(t)})
	long := strings.TrimSpace(strings.Repeat("coffee ", finder.MaxQueryWords+1))
	atCap := strings.TrimSpace(strings.Repeat("coffee ", finder.MaxQueryWords))
	for _, tc := range []struct {
		name, tool, loc string
		refused         bool
	}{
		{"query over the cap", "search_locations", fmt.Sprintf(`{"query":%q}`, long), true},
		{"commas over the cap", "search_locations", fmt.Sprintf(`{"query":%q}`, strings.Repeat("a,", 15000)), true},
		{"query at the cap", "search_locations", fmt.Sprintf(`{"query":%q,"pagination":{"limit":3}}`, atCap), false},
		{"NUL in query", "search_locations", `{"query":"coffee\u0000late","pagination":{"limit":3}}`, false},
		{"NUL alone", "search_locations", `{"query":"\u0000","pagination":{"limit":3}}`, false},
		{"NUL in ids", "lookup_locations", `{"ids":["loc_a72bfe596943","loc\u0000x","\u0000"]}`, false},
		{"NUL in items", "search_locations", `{"filters":{"items":["sku\u0000"]},"pagination":{"limit":3}}`, false},
		{"NUL in lookup items", "lookup_locations", `{"ids":["loc_a72bfe596943"],"filters":{"items":["a","\u0000"]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			want, werr := pgCall(ctx, mem, tc.tool, tc.loc)
			got, gerr := pgCall(ctx, pg, tc.tool, tc.loc)
			// Both sources rank with textrank, so even relevance cursors
			// are byte-identical (TestCursorsAcrossSources).
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || want != got {
				t.Fatalf("in memory: %s %v\npostgis:   %s %v", want, werr, got, gerr)
			}
			if tc.refused {
				if werr == nil || !strings.Contains(werr.Error(), "/location/query") || !strings.Contains(werr.Error(), fmt.Sprint("at most ", finder.MaxQueryWords)) {
					t.Fatalf("err = %v, want -32602 at /location/query naming the limit", werr)
				}
			} else if werr != nil {
				t.Fatalf("refused: %v", werr)
			}
		})
	}
}

// TestCursorsAcrossSources: replicas sharing cursor keys, one in memory and
// one on PostGIS. Both rank text with textrank (the same Ranking), so an
// id-order cursor and a relevance cursor minted by either continue on the
// other exactly; a relevance cursor of another ranking is refused with
// -32602 (finder's TestRelevanceCursorCarriesRanking).
func TestCursorsAcrossSources(t *testing.T) {
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	keys := pgKeys(t, "k1", "k1")
	mem := pgClient(t, config{cursorKeys: keys})
	pg := pgClient(t, config{cursorKeys: keys, postgres: dsn, data: pgDataFile(t)})
	ctx := context.Background()
	page := func(cs *mcp.ClientSession, body string) (ids []string, cursor string, err error) {
		res, err := pgCall(ctx, cs, "search_locations", body)
		if err != nil {
			return nil, "", err
		}
		var p struct {
			Locations []struct {
				ID string `json:"id"`
			} `json:"locations"`
			Pagination struct {
				Cursor string `json:"cursor"`
			} `json:"pagination"`
		}
		if err := json.Unmarshal([]byte(res), &p); err != nil {
			return nil, "", fmt.Errorf("%w: %s", err, res)
		}
		for _, l := range p.Locations {
			ids = append(ids, l.ID)
		}
		return ids, p.Pagination.Cursor, nil
	}
	first := func(base string) string { return strings.TrimSuffix(base, "}") + `,"pagination":{"limit":3}}` }
	with := func(base, cursor string) string {
		return strings.TrimSuffix(base, "}") + fmt.Sprintf(`,"pagination":{"limit":3,"cursor":%q}}`, cursor)
	}
	byID := `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000}}`
	ranked := `{"query":"market","distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000}}`
	for _, dir := range []struct {
		name     string
		from, to *mcp.ClientSession
	}{{"memory to postgis", mem, pg}, {"postgis to memory", pg, mem}} {
		_, c, err := page(dir.from, first(byID))
		if err != nil || c == "" {
			t.Fatalf("%s: first id-order page: %v, cursor %q", dir.name, err, c)
		}
		want, _, err := page(dir.from, with(byID, c))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := page(dir.to, with(byID, c))
		if err != nil || !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s: id-order cursor continued to %v, %v; the minting replica continues to %v", dir.name, got, err, want)
		}
		_, c, err = page(dir.from, first(ranked))
		if err != nil || c == "" {
			t.Fatalf("%s: first ranked page: %v, cursor %q", dir.name, err, c)
		}
		want, _, err = page(dir.from, with(ranked, c))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err = page(dir.to, with(ranked, c))
		if err != nil || !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s: relevance cursor continued to %v, %v; the minting replica continues to %v", dir.name, got, err, want)
		}
	}
}
