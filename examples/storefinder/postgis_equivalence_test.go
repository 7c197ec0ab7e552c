package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/internal/equivcorpus"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// pgCorpusSize is the number of requests in the equivalence corpus; walks
// make it about 1,300 tool calls.
const pgCorpusSize = 360

// pgEquivalenceSeed fixes the randomized corpus, so a failure reproduces.
const pgEquivalenceSeed = 20261130

// pgKeys writes a cursor key file with the given current id and keys
// (each key 32 bytes derived from its id) and returns its path.
func pgKeys(t *testing.T, current string, ids ...string) string {
	t.Helper()
	keys := map[string]string{}
	for _, id := range ids {
		keys[id] = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte(id+"#"), 32)[:32])
	}
	b, err := json.Marshal(map[string]any{"current": current, "keys": keys})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pgDataFile writes the embedded dataset to a file for --data.
func pgDataFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(p, sample.DefaultJSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pgClient builds a server from c and connects an in-process MCP client.
func pgClient(t *testing.T, c config) *mcp.ClientSession {
	t.Helper()
	var pools []*pgxpool.Pool
	c.pools = &pools
	server, _, err := newServer(c, nil)
	t.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	if err != nil {
		t.Fatalf("newServer(%+v): %v", c, err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pg-equivalence", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pgCall calls a tool and returns its structuredContent as JSON, or the
// error text when the call fails, so two servers can be compared byte for
// byte on both outcomes.
func pgCall(ctx context.Context, cs *mcp.ClientSession, tool, loc string) (string, error) {
	return equivcorpus.Call(ctx, cs, e2eMeta, tool, loc)
}

// pgCorpus is the equivalence corpus of n requests over recs.
func pgCorpus(t *testing.T, recs []dataset.Record, n int) []equivcorpus.Request {
	t.Helper()
	return equivcorpus.Generate(t, recs, n, pgEquivalenceSeed)
}

// pgCompare compares the in-memory session want with the PostGIS sessions
// got over corpus (see equivcorpus.Compare) and logs the time each side
// took.
func pgCompare(t *testing.T, corpus []equivcorpus.Request, want *mcp.ClientSession, got []*mcp.ClientSession) equivcorpus.Stats {
	t.Helper()
	var inMemory, inPostGIS time.Duration // Compare makes one call at a time
	w := func(ctx context.Context, tool, body string) (string, error) {
		t0 := time.Now()
		defer func() { inMemory += time.Since(t0) }()
		return pgMemoCall(ctx, want, tool, body)
	}
	var g []equivcorpus.Caller
	for _, cs := range got {
		g = append(g, func(ctx context.Context, tool, body string) (string, error) {
			t0 := time.Now()
			defer func() { inPostGIS += time.Since(t0) }()
			return pgCall(ctx, cs, tool, body)
		})
	}
	start := time.Now()
	st := equivcorpus.Compare(t, corpus, w, g)
	t.Logf("compared in %s (in memory %s, postgis %s)", time.Since(start).Round(time.Millisecond), inMemory.Round(time.Millisecond), inPostGIS.Round(time.Millisecond))
	return st
}

// pgMemo remembers the in-memory server's answers: every test builds that
// server with the same dataset and key file, so its answer to a body is
// the same across tests, and the second corpus run costs only the PostGIS
// side.
var pgMemo sync.Map

type pgAnswer struct {
	res string
	err error
}

func pgMemoCall(ctx context.Context, cs *mcp.ClientSession, tool, body string) (string, error) {
	key := tool + "\x00" + body
	if a, ok := pgMemo.Load(key); ok {
		return a.(pgAnswer).res, a.(pgAnswer).err
	}
	res, err := pgCall(ctx, cs, tool, body)
	pgMemo.Store(key, pgAnswer{res, err})
	return res, err
}

// TestPostGISEquivalence loads the embedded dataset into PostGIS through
// --postgres --data and requires the in-memory and PostGIS servers to
// return byte-identical structuredContent for a randomized corpus of
// searches (walked through every page) and lookups.
func TestPostGISEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: runs a 1,000-call corpus against PostGIS (not in -short mode)")
	}
	t.Parallel() // beside TestPostGISHotStandby: each is one call at a time
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	keys := pgKeys(t, "k1", "k1")
	data := pgDataFile(t)
	mem := pgClient(t, config{cursorKeys: keys})
	pg := pgClient(t, config{cursorKeys: keys, postgres: dsn, data: data})
	// A replica that ranks every page through the posting lists, even where
	// the admitted set is small enough to score whole; walks alternate
	// between the two, so each continues the other's relevance cursors.
	lists := pgClient(t, config{cursorKeys: keys, postgres: dsn, postgresSmallSet: -1})
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	corpus := pgCorpus(t, recs, pgCorpusSize)
	st := pgCompare(t, corpus, mem, []*mcp.ClientSession{pg, lists})
	t.Logf("%d requests, %d tool calls compared byte for byte: %d with Locations, %d rejected alike, %d walks over several pages",
		len(corpus), st.Calls, st.Located, st.Rejected, st.MultiPage)
	if st.Calls < 1000 || st.Located < st.Calls/3 || st.MultiPage < 50 || st.Rejected == 0 || st.Ranked < 300 || st.RankedMultiPage < 20 {
		t.Fatalf("corpus too thin: %+v; it must make at least 1,000 calls, a third of them with Locations, 50 multi-page walks (20 of them ranked), 300 ranked calls and some rejections", st)
	}
}

// TestPostGISPostgresFlagAlone serves what a previous --data load left in
// the database, and reloading the same file changes no row.
func TestPostGISPostgresFlagAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: runs a 1,000-call corpus against PostGIS (not in -short mode)")
	}
	t.Parallel() // its own schema; waits on the database more than on the CPU
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	data := pgDataFile(t)
	keys := pgKeys(t, "k1", "k1")
	_ = pgClient(t, config{postgres: dsn, data: data})
	_ = pgClient(t, config{postgres: dsn, data: data}) // idempotent reload
	pg := pgClient(t, config{postgres: dsn, cursorKeys: keys})
	mem := pgClient(t, config{cursorKeys: keys})
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	pgCompare(t, pgCorpus(t, recs, 40), mem, []*mcp.ClientSession{pg})

	// Without a prior load the database has no schema: a clear start-up
	// error, not a failing first request.
	empty := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	var pools []*pgxpool.Pool
	_, _, err = newServer(config{postgres: empty, pools: &pools}, nil)
	for _, p := range pools {
		p.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "--postgres") || !strings.Contains(err.Error(), "--data") {
		t.Fatalf("serving an empty database: err = %v, want a --postgres error that says to load with --data", err)
	}
}
