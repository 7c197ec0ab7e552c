package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// pgProcess starts a storefinder process over stdio with args and connects
// an MCP client to it; the process ends with the test.
func pgProcess(t *testing.T, bin string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, append([]string{"--stdio"}, args...)...)
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), "STOREFINDER_CURSOR_KEYS=") // only --cursor-keys counts here
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pg-replica", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("start %v: %v", args, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pgWalk follows a search's cursors on sessions in turn (page k on
// sessions[k % len]) and returns every page's structuredContent.
func pgWalk(t *testing.T, loc map[string]any, sessions ...*mcp.ClientSession) []string {
	t.Helper()
	ctx := context.Background()
	var pages []string
	for k := 0; k < 1000; k++ {
		body, _ := json.Marshal(loc)
		res, err := pgCall(ctx, sessions[k%len(sessions)], "search_locations", string(body))
		if err != nil || strings.HasPrefix(res, "tool error") {
			t.Fatalf("page %d of %s: %v %s", k, body, err, res)
		}
		pages = append(pages, res)
		var p struct {
			Pagination struct {
				Cursor *string `json:"cursor"`
			} `json:"pagination"`
		}
		if err := json.Unmarshal([]byte(res), &p); err != nil {
			t.Fatal(err)
		}
		if p.Pagination.Cursor == nil {
			return pages
		}
		next := map[string]any{}
		for k, v := range loc {
			next[k] = v
		}
		next["pagination"] = map[string]any{"limit": loc["pagination"].(map[string]any)["limit"], "cursor": *p.Pagination.Cursor}
		loc = next
	}
	t.Fatal("walk did not end")
	return nil
}

// TestPostGISReplicas runs two storefinder processes on one database and
// one key file: a walk alternating between them equals one process's walk,
// and after a key rotation a cursor signed before it still verifies while
// new cursors use the new key.
func TestPostGISReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the example binary (not in -short mode)")
	}
	t.Parallel() // its own schema; waits on the database more than on the CPU
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	bin := storefinderBinary(t)
	keys := pgKeys(t, "k1", "k1")
	a := pgProcess(t, bin, "--postgres", dsn, "--data", pgDataFile(t), "--cursor-keys", keys)
	b := pgProcess(t, bin, "--postgres", dsn, "--cursor-keys", keys)

	walks := []map[string]any{
		{"distance": map[string]any{"center": map[string]any{"latitude": 40.7128, "longitude": -74.006}, "max": 60000}, "pagination": map[string]any{"limit": 7}},
		{"filters": map[string]any{"amenities": []string{"dev.ucp.amenity.wi_fi"}}, "pagination": map[string]any{"limit": 100}},
		{"query": "pharmacy bakery", "distance": map[string]any{"center": map[string]any{"latitude": 51.5, "longitude": -0.12}, "max": 80000}, "pagination": map[string]any{"limit": 5}},
	}
	for _, w := range walks {
		single := pgWalk(t, w, a)
		alternating := pgWalk(t, w, a, b)
		if len(single) < 3 {
			t.Fatalf("walk %v has %d pages; it must span several to test replicas", w, len(single))
		}
		if strings.Join(single, "\n") != strings.Join(alternating, "\n") {
			t.Fatalf("walk %v alternating between replicas differs from one replica's walk", w)
		}
	}

	// Rotation: every replica learns k2 and signs with it; k1 still verifies.
	w := walks[0]
	first := pgWalk(t, w, a)[0]
	var p struct {
		Pagination struct {
			Cursor string `json:"cursor"`
		} `json:"pagination"`
	}
	if err := json.Unmarshal([]byte(first), &p); err != nil || p.Pagination.Cursor == "" {
		t.Fatalf("first page has no cursor: %s", first)
	}
	rotated := pgKeys(t, "k2", "k1", "k2")
	c := pgProcess(t, bin, "--postgres", dsn, "--cursor-keys", rotated)
	second := map[string]any{"distance": w["distance"], "pagination": map[string]any{"limit": 7, "cursor": p.Pagination.Cursor}}
	body, _ := json.Marshal(second)
	ctx := context.Background()
	fromOld, err := pgCall(ctx, a, "search_locations", string(body))
	if err != nil {
		t.Fatal(err)
	}
	fromRotated, err := pgCall(ctx, c, "search_locations", string(body))
	if err != nil || strings.HasPrefix(fromRotated, "tool error") {
		t.Fatalf("a cursor signed with k1 failed after rotating to k2: %v %s", err, fromRotated)
	}
	var pa, pc struct {
		Locations  []struct{ ID string } `json:"locations"`
		Pagination struct {
			Cursor string `json:"cursor"`
		} `json:"pagination"`
	}
	if err := json.Unmarshal([]byte(fromOld), &pa); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(fromRotated), &pc); err != nil {
		t.Fatal(err)
	}
	if len(pc.Locations) == 0 || len(pa.Locations) != len(pc.Locations) || pa.Locations[0].ID != pc.Locations[0].ID {
		t.Fatalf("page 2 after rotation differs: %v vs %v", pa.Locations, pc.Locations)
	}
	if pc.Pagination.Cursor == "" || pc.Pagination.Cursor == pa.Pagination.Cursor {
		t.Fatal("the rotated replica's next cursor is not signed with the new key")
	}
	third := map[string]any{"distance": w["distance"], "pagination": map[string]any{"limit": 7, "cursor": pc.Pagination.Cursor}}
	body, _ = json.Marshal(third)
	if _, err := pgCall(ctx, a, "search_locations", string(body)); err == nil || !strings.Contains(err.Error(), "cursor") {
		t.Fatalf("a replica that does not know k2 accepted a k2 cursor: %v", err)
	}
}

// TestPostGISHotStandby serves the equivalence corpus from a streaming
// hot standby of the primary the dataset was loaded into (.ci/postgres.sh
// starts it with pg_basebackup on loopback) and requires the in-memory
// answers byte for byte. A source that wrote anything would fail there.
func TestPostGISHotStandby(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: runs a 1,000-call corpus against a PostGIS standby (not in -short mode)")
	}
	t.Parallel() // beside TestPostGISEquivalence: each is one call at a time
	standby := pgtest.StandbyDSN(t)
	schema := pgtest.Schema(t)
	primary := pgtest.SchemaDSN(t, pgtest.DSN(t), schema)
	keys := pgKeys(t, "k1", "k1")
	_ = pgClient(t, config{postgres: primary, data: pgDataFile(t)})
	pgWaitReplay(t, pgtest.DSN(t), standby)

	sb := pgClient(t, config{postgres: pgtest.SchemaDSN(t, standby, schema), cursorKeys: keys})
	mem := pgClient(t, config{cursorKeys: keys})
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	st := pgCompare(t, pgCorpus(t, recs, pgCorpusSize), mem, []*mcp.ClientSession{sb})
	t.Logf("hot standby: %d tool calls compared byte for byte", st.Calls)
	if st.Calls < 1000 {
		t.Fatalf("only %d calls compared", st.Calls)
	}
}

// pgWaitReplay waits until the standby has replayed everything the primary
// had inserted into its WAL when it was called: the insert position, not
// the write position, because the throwaway cluster commits asynchronously
// and the last commit record may not be written yet.
func pgWaitReplay(t *testing.T, primary, standby string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	var lsn string
	if err := p.QueryRow(ctx, `SELECT pg_current_wal_insert_lsn()::text`).Scan(&lsn); err != nil {
		t.Fatal(err)
	}
	s, err := pgx.Connect(ctx, standby)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	var inRecovery bool
	if err := s.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&inRecovery); err != nil || !inRecovery {
		t.Fatalf("%s is not a standby (pg_is_in_recovery = %v, %v)", pgtest.EnvStandbyDSN, inRecovery, err)
	}
	for {
		var done bool
		if err := s.QueryRow(ctx, `SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)`, lsn).Scan(&done); err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("standby did not replay up to %s in time", lsn)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
