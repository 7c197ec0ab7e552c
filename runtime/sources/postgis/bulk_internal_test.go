package postgis

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// indexDump lists the indexes and constraints of the loaded tables as the
// catalog prints them, so two schemas compare definition for definition.
func indexDump(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var out string
	err := pool.QueryRow(context.Background(), `
SELECT string_agg(d, E'\n' ORDER BY d) FROM (
	SELECT i.indexrelid::regclass::text || ' ' || regexp_replace(pg_get_indexdef(i.indexrelid), ' ON \S+\.', ' ON ') AS d
	FROM pg_index i WHERE i.indrelid = ANY($1::regclass[])
	UNION ALL
	SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = ANY($1::regclass[])
) AS x`, loadedTables).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// postingsDump is every posting, in key order, as PostgreSQL prints it.
func postingsDump(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var out string
	if err := pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(p::text, E'\n' ORDER BY p.term, p.neg_weight, p.id), '') FROM `+tablePostings+` p`).Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFirstLoadRebuildsTheIndexes: a load into empty tables, which drops
// the secondary indexes and the postings key and builds them after the rows
// are in, ends with the indexes and constraints the migrations made, names
// and definitions alike; a first load that fails leaves them all in place; and
// the rows equal those of a load that kept every index (a second load into
// the same tables, after they were emptied of rows but not of indexes,
// which takes the row-by-row path).
func TestFirstLoadRebuildsTheIndexes(t *testing.T) {
	t.Parallel() // its own schemas
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	recs, err := dataset.Parse(sampledata.JSON(t))
	if err != nil {
		t.Fatal(err)
	}

	fresh := pgtest.Pool(t, dsn, pgtest.Schema(t))
	if err := Migrate(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	want := indexDump(t, fresh)
	for _, name := range []string{"storefinder_locations_geog", "storefinder_locations_cell_amenities", "storefinder_postings_pkey", "storefinder_aliases_location"} {
		if !strings.Contains(want, name+" ") {
			t.Fatalf("the migrated schema has no %s:\n%s", name, want)
		}
	}

	// Dropping is transactional: a first load that fails after it leaves
	// every index in place.
	errRollback := errors.New("roll back")
	var dropped bool
	err = pgx.BeginFunc(ctx, fresh, func(tx pgx.Tx) error {
		rebuild, err := deferIndexes(ctx, tx)
		dropped = rebuild != nil
		return errors.Join(err, errRollback)
	})
	if !errors.Is(err, errRollback) || !dropped {
		t.Fatalf("deferIndexes on empty tables: rebuild %v, err %v", dropped, err)
	}
	if got := indexDump(t, fresh); got != want {
		t.Errorf("after a failed first load the indexes are\n%s\nwant\n%s", got, want)
	}

	if _, err := Load(ctx, fresh, recs); err != nil {
		t.Fatal(err)
	}
	if got := indexDump(t, fresh); got != want {
		t.Errorf("after a first load the indexes are\n%s\nwant\n%s", got, want)
	}
	bulkLocs, bulkAliases := tableDump(t, fresh)
	bulkPostings := postingsDump(t, fresh)

	// A row that stays keeps the tables non-empty, so the next load keeps
	// every index; loading recs again then rewrites the rest row by row.
	if _, err := fresh.Exec(ctx, `DELETE FROM `+tableLocations+` WHERE id <> (SELECT min(id) FROM `+tableLocations+`)`); err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Exec(ctx, `DELETE FROM `+tablePostings+` WHERE id <> (SELECT min(id) FROM `+tableLocations+`)`); err != nil {
		t.Fatal(err)
	}
	var rebuilt bool
	err = pgx.BeginFunc(ctx, fresh, func(tx pgx.Tx) error {
		rebuild, err := deferIndexes(ctx, tx)
		rebuilt = rebuild != nil
		return errors.Join(err, errRollback)
	})
	if !errors.Is(err, errRollback) || rebuilt {
		t.Fatalf("deferIndexes on a table with a row: rebuild %v, err %v", rebuilt, err)
	}
	st, err := Load(ctx, fresh, recs)
	if err != nil {
		t.Fatal(err)
	}
	if st.Inserted != len(recs)-1 {
		t.Errorf("second load inserted %d, want %d", st.Inserted, len(recs)-1)
	}
	locs, aliases := tableDump(t, fresh)
	postings := postingsDump(t, fresh)
	if locs != bulkLocs || aliases != bulkAliases || postings != bulkPostings || postings == "" {
		t.Errorf("the first load's rows differ from a row-by-row load's (locations %v, aliases %v, postings %v)", locs == bulkLocs, aliases == bulkAliases, postings == bulkPostings)
	}
	if got := indexDump(t, fresh); got != want {
		t.Errorf("after a second load the indexes are\n%s\nwant\n%s", got, want)
	}
}
