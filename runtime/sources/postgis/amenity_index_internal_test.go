package postgis

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// lightFile writes storegen's Light shape at n stores to a temporary file.
func lightFile(t *testing.T, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "light.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := storegen.GenerateShapeTo(f, storegen.DefaultSeed, n, storegen.Light); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// lastAnalyze is when storefinder_locations of the pool's schema was last
// analysed by an explicit ANALYZE (autovacuum's runs are counted apart).
func lastAnalyze(t *testing.T, pool *pgxpool.Pool) *time.Time {
	t.Helper()
	var at *time.Time
	if err := pool.QueryRow(context.Background(), `SELECT last_analyze FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND relname = $1`, tableLocations).Scan(&at); err != nil {
		t.Fatal(err)
	}
	return at
}

// explained runs sql under EXPLAIN (ANALYZE, BUFFERS) in tx and returns
// the shared buffers the whole plan touched and the plan as JSON.
func explained(t *testing.T, tx pgx.Tx, sql string, args []any) (int, string) {
	t.Helper()
	var raw string
	if err := tx.QueryRow(context.Background(), `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+sql, args...).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var plan []struct {
		Plan struct {
			Hit  int `json:"Shared Hit Blocks"`
			Read int `json:"Shared Read Blocks"`
		}
	}
	if err := json.Unmarshal([]byte(raw), &plan); err != nil || len(plan) != 1 {
		t.Fatalf("EXPLAIN output %.300s: %v", raw, err)
	}
	return plan[0].Plan.Hit + plan[0].Plan.Read, raw
}

// TestPlansAfterALoad loads storegen's Light shape at 20,000 stores (dense
// metros) and checks, through EXPLAIN's buffer counts (which do not depend
// on the machine's speed), the plans the first requests after the load get.
// It runs no goroutines of its own, so the -short race pass leaves it to the
// plain pass.
func TestPlansAfterALoad(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	if testing.Short() {
		t.Skip("skipping: plans of a 20,000-store load (not in -short mode)")
	}
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	ctx := context.Background()
	path := lightFile(t, 20000)
	if _, err := LoadFile(ctx, pool, path); err != nil {
		t.Fatal(err)
	}
	analysed := lastAnalyze(t, pool)
	if analysed == nil {
		t.Fatal("the load left storefinder_locations without statistics")
	}
	if _, err := LoadFile(ctx, pool, path); err != nil {
		t.Fatal(err)
	}
	if again := lastAnalyze(t, pool); again == nil || !again.Equal(*analysed) {
		t.Errorf("a reload that changed nothing analysed again (%v, then %v)", analysed, again)
	}
	t.Run("local amenity search reads only amenity rows", func(t *testing.T) { localAmenity(t, pool) })
	t.Run("wide circle probe stays on the spatial index", func(t *testing.T) { wideProbe(t, pool) })
}

// localAmenity: a 10 km search in New York with an amenity that few stores
// carry is planned through the cell and amenity index and touches a
// fraction of the buffers that the (cell, id) indexes alone need, with the
// same rows.
func localAmenity(t *testing.T, pool *pgxpool.Pool) {
	ctx := context.Background()
	src, err := Open(ctx, pool, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := finder.Hints{
		Order:    finder.ByID,
		Limit:    32,
		Distance: &predicate.Distance{Center: predicate.Geo{Lat: 40.7831, Lon: -73.9712}, Max: 10000},
		Query: predicate.Query{Filters: predicate.Filters{
			Amenities: []string{"dev.ucp.amenity.parking"}, HasAmenities: true,
		}},
	}
	h.Query.Distance = h.Distance
	if _, _, ok := coverCells(h.Distance.Center.Lat, h.Distance.Center.Lon, h.Distance.Max); !ok {
		t.Fatal("a 10 km circle is not read through the cells")
	}
	sql, args := src.byIDStatement(h, []string{"id"}, "")
	rowIDs := func(tx pgx.Tx) []string {
		rows, err := tx.Query(ctx, sql, args...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	with, plan := explained(t, tx, sql, args)
	withIDs := rowIDs(tx)
	if !strings.Contains(plan, "storefinder_locations_cell_amenities") {
		t.Errorf("the plan does not use the cell and amenity index:\n%s", plan)
	}
	if _, err := tx.Exec(ctx, `DROP INDEX storefinder_locations_cell_amenities`); err != nil {
		t.Fatal(err)
	}
	without, _ := explained(t, tx, sql, args)
	withoutIDs := rowIDs(tx)
	if len(withIDs) == 0 || !slices.Equal(withIDs, withoutIDs) {
		t.Fatalf("rows with the index %v, without %v", withIDs, withoutIDs)
	}
	t.Logf("%d rows: %d buffers with the cell and amenity index, %d without", len(withIDs), with, without)
	if with*3 > without {
		t.Errorf("the search touched %d buffers with the cell and amenity index and %d without: want a third or less", with, without)
	}
}

// wideProbe: the density probe of a wide circle (1,000 km around Los
// Angeles, whose stores come late in the file and so in the heap) counts
// through the spatial index: analysed, the inline count was read with a
// sequential scan until it found the probe's number of rows in the box.
func wideProbe(t *testing.T, pool *pgxpool.Pool) {
	ctx := context.Background()
	src, err := Open(ctx, pool, Options{WideProbe: 200})
	if err != nil {
		t.Fatal(err)
	}
	h := finder.Hints{
		Order:    finder.ByID,
		Limit:    32,
		Distance: &predicate.Distance{Center: predicate.Geo{Lat: 34.0522, Lon: -118.2437}, Max: 1_000_000},
	}
	h.Query.Distance = h.Distance
	if _, _, ok := coverCells(h.Distance.Center.Lat, h.Distance.Center.Lon, h.Distance.Max); ok {
		t.Fatal("a 1,000 km circle is read through the cells, not as a wide circle")
	}
	sql, args := src.byIDStatement(h, []string{"id"}, "")
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var pages int
	if err := tx.QueryRow(ctx, `SELECT relpages FROM pg_class WHERE oid = $1::regclass`, tableLocations).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	buffers, plan := explained(t, tx, sql, args)
	t.Logf("%d buffers of a %d-page table", buffers, pages)
	if buffers*4 > pages {
		t.Errorf("the 1,000 km search touched %d buffers of a %d-page table: want a quarter or less\n%s", buffers, pages, plan)
	}
}

// TestMigrationAddsTheCellAmenityIndex: a database at schema version 2 (no
// cell and amenity index) is refused by Open, naming what it lacks, and
// Migrate adds the index.
func TestMigrationAddsTheCellAmenityIndex(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	ctx := context.Background()
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ctx, pool, recs); err != nil {
		t.Fatal(err)
	}
	hasIndex := func() bool {
		var ok bool
		if err := pool.QueryRow(ctx, `SELECT to_regclass('storefinder_locations_cell_amenities') IS NOT NULL`).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !hasIndex() {
		t.Fatal("a load did not create the cell and amenity index")
	}
	for _, s := range []string{
		`DROP INDEX storefinder_locations_cell_amenities`,
		`DELETE FROM storefinder_migrations WHERE version >= 3`,
	} {
		if _, err := pool.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	_, err = Open(ctx, pool, Options{})
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "version 2") || !strings.Contains(err.Error(), "amenity index") {
		t.Fatalf("open at version 2: %v, want ErrSchema naming version 2 and the amenity index", err)
	}
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if !hasIndex() {
		t.Fatal("Migrate did not create the cell and amenity index")
	}
	if _, err := Open(ctx, pool, Options{}); err != nil {
		t.Fatalf("open after Migrate: %v", err)
	}
}
