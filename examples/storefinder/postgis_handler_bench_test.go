package main

import (
	"context"
	"os"
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
	h := benchHandler(b, "--postgres", dsn)
	kinds := map[string][]string{
		"10km-hours-amenity": hoursAmenitySearches(10000, ""),
		"lookup-50":          {`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_locations","arguments":{` + benchMeta + `,"location":{"ids":["` + strings.Join(ids, `","`) + `"]}}}}`},
	}
	for _, k := range []string{"10km-hours-amenity", "lookup-50"} {
		b.Run(k, func(b *testing.B) { timeCalls(b, h, kinds[k], 1000) })
	}
}
