package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// BenchmarkPostGISHandler times the loadbench 10 km + hours + amenity
// search and a 50-id lookup through the whole HTTP handler of a storefinder
// serving an already loaded PostGIS database, so the server's share of a
// request can be told from the network's and the client's. It needs
// UCPGEN_BENCH_POSTGRES_DSN (a database a --postgres --data run loaded).
func BenchmarkPostGISHandler(b *testing.B) {
	dsn := os.Getenv("UCPGEN_BENCH_POSTGRES_DSN")
	if dsn == "" {
		b.Skip("skipping: set UCPGEN_BENCH_POSTGRES_DSN to a database loaded by storefinder --postgres DSN --data FILE")
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := conn.Query(context.Background(), "SELECT id FROM storefinder_locations WHERE NOT private ORDER BY id LIMIT 50")
	if err != nil {
		b.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	conn.Close(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	c, err := parseFlags([]string{"--rate", "0", "--access-log=false", "--postgres", dsn})
	if err != nil {
		b.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, _, err := newServers(c, logger)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := httpServers(c, s, "http://127.0.0.1:8080", logger)
	if err != nil {
		b.Fatal(err)
	}
	meta := `"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"}}`
	centers := [][2]float64{{40.7831, -73.9712}, {51.5074, -0.1278}, {41.8781, -87.6298}, {34.0522, -118.2437}}
	kinds := map[string][]string{}
	for i, ce := range centers {
		kinds["10km-hours-amenity"] = append(kinds["10km-hours-amenity"], `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+`,"method":"tools/call","params":{"name":"search_locations","arguments":{`+meta+`,"location":{`+
			fmt.Sprintf(`"distance":{"center":{"latitude":%g,"longitude":%g},"max":10000}`, ce[0], ce[1])+
			`,"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking"]}}}}}`)
	}
	kinds["lookup-50"] = []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_locations","arguments":{` + meta + `,"location":{"ids":["` + strings.Join(ids, `","`) + `"]}}}}`}
	for _, k := range []string{"10km-hours-amenity", "lookup-50"} {
		bodies := kinds[k]
		b.Run(k, func(b *testing.B) {
			call := func(i int) *benchWriter {
				r := httptest.NewRequest(http.MethodPost, "/ucp/mcp", strings.NewReader(bodies[i%len(bodies)]))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				w := &benchWriter{header: http.Header{}}
				srv.Handler.ServeHTTP(w, r)
				return w
			}
			for i := range bodies {
				if w := call(i); w.status != http.StatusOK || w.n < 1000 {
					b.Fatalf("request %d: status %d, %d bytes", i, w.status, w.n)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				call(i)
			}
		})
	}
}
