package postgis

import (
	"context"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// tableDump is every column of both tables, rows in key order, as
// PostgreSQL prints them, so two loads compare value for value (the
// generated tsvector, the geography and the cells included).
func tableDump(t *testing.T, pool *pgxpool.Pool) (locs, aliases string) {
	t.Helper()
	ctx := context.Background()
	if err := pool.QueryRow(ctx, `SELECT coalesce(string_agg(l::text, E'\n' ORDER BY id), '') FROM `+tableLocations+` l`).Scan(&locs); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT coalesce(string_agg(a::text, E'\n' ORDER BY alias), '') FROM `+tableAliases+` a`).Scan(&aliases); err != nil {
		t.Fatal(err)
	}
	return locs, aliases
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func setBatch(t *testing.T, n int) {
	t.Helper()
	old := loadBatch
	loadBatch = n
	t.Cleanup(func() { loadBatch = old })
}

// TestLoadFileMatchesLoad: streaming a file in small batches gives the
// table, value for value, that loading its parsed records in one COPY
// gives (the loader before streaming), for the sample dataset and a
// generated one; reloading the file changes nothing.
func TestLoadFileMatchesLoad(t *testing.T) {
	dsn := pgtest.DSN(t)
	gen := filepath.Join(t.TempDir(), "gen.json")
	f, err := os.Create(gen)
	if err != nil {
		t.Fatal(err)
	}
	if err := storegen.GenerateTo(f, storegen.DefaultSeed, 3000); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	type fileCase struct{ name, path string }
	// The race pass streams one file through the same batches; the plain
	// pass also streams the larger generated one.
	for _, tc := range testshared.RaceCases([]fileCase{
		{"default", writeFile(t, sampledata.JSON(t))},
		{"generated", gen},
	}, []fileCase{{"default", writeFile(t, sampledata.JSON(t))}}) {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			recs, err := dataset.ParseFile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			whole := pgtest.Pool(t, dsn, pgtest.Schema(t))
			setBatch(t, len(recs)+1)
			if _, err := Load(ctx, whole, recs); err != nil {
				t.Fatal(err)
			}
			wantLocs, wantAliases := tableDump(t, whole)

			streamed := pgtest.Pool(t, dsn, pgtest.Schema(t))
			setBatch(t, 7)
			st, err := LoadFile(ctx, streamed, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if st != (LoadStats{Records: len(recs), Inserted: len(recs)}) {
				t.Errorf("stats = %+v, want %d inserted", st, len(recs))
			}
			gotLocs, gotAliases := tableDump(t, streamed)
			if gotLocs != wantLocs {
				t.Errorf("locations differ from the one-batch load (%d vs %d bytes)", len(gotLocs), len(wantLocs))
			}
			if gotAliases != wantAliases || wantAliases == "" {
				t.Errorf("aliases differ from the one-batch load (%d vs %d bytes)", len(gotAliases), len(wantAliases))
			}
			st, err = LoadFile(ctx, streamed, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if st != (LoadStats{Records: len(recs)}) {
				t.Errorf("reloading the same file changed rows: %+v", st)
			}
		})
	}
}

// TestLoadFileErrors: a streamed load reports the same first error as
// parsing the file whole and loading the records (structure before
// records, records before identifiers, identifiers before what the
// database rules reject), and a failed load leaves the tables as they were.
func TestLoadFileErrors(t *testing.T) {
	setBatch(t, 2)
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	ctx := context.Background()
	good := `[{"location":{"id":"a","name":"A"},"aliases":["a1"]},{"location":{"id":"b","name":"B"}}]`
	if _, err := LoadFile(ctx, pool, writeFile(t, []byte(good))); err != nil {
		t.Fatal(err)
	}
	beforeLocs, beforeAliases := tableDump(t, pool)
	loc := func(id string) string { return `{"location":{"id":"` + id + `","name":"N"}}` }
	far := `{"location":{"id":"far","name":"F","geo":{"latitude":91,"longitude":0}}}`
	tests := []struct {
		name, file, pointer string
	}{
		{"duplicate id in a later batch", `[` + loc("x") + `,` + loc("y") + `,` + loc("z") + `,` + loc("x") + `]`, "/3/location/id"},
		{"alias equal to a later id", `[{"location":{"id":"x","name":"X"},"aliases":["z"]},` + loc("y") + `,` + loc("z") + `]`, "/0/aliases/0"},
		{"alias of two records", `[{"location":{"id":"x","name":"X"},"aliases":["q"]},` + loc("y") + `,{"location":{"id":"z","name":"Z"},"aliases":["q"]}]`, "/2/aliases/0"},
		{"alias equal to its own id", `[{"location":{"id":"x","name":"X"},"aliases":["x"]}]`, "/0/aliases/0"},
		{"latitude out of range", `[` + loc("x") + `,` + far + `]`, "/1/location/geo/latitude"},
		{"identifiers before database rules", `[` + far + `,` + loc("x") + `,` + loc("x") + `]`, "/2/location/id"},
		{"unknown member", `[` + loc("x") + `,{"location":{"id":"y","name":"Y"},"colour":1}]`, "/1/colour"},
		{"record problem before a later duplicate", `[{"location":{"id":"x","name":"X"},"private":"no"},` + loc("y") + `,` + loc("y") + `]`, "/0/private"},
		{"structure before records", `[{"location":{"id":"x","name":"X"},"private":"no"},` + loc("y") + `,`, ""},
		{"not an array", `{"location":{}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, []byte(tc.file))
			_, got := LoadFile(ctx, pool, path)
			want := wholeFileError(path)
			if got == nil || want == nil {
				t.Fatalf("LoadFile err = %v, want %v", got, want)
			}
			if got.Error() != want.Error() {
				t.Errorf("LoadFile err = %q, want the whole-file error %q", got, want)
			}
			if fe, ok := got.(*dataset.FieldError); tc.pointer != "" && (!ok || fe.Pointer != tc.pointer) {
				t.Errorf("err = %v, want a *dataset.FieldError at %s", got, tc.pointer)
			}
			locs, aliases := tableDump(t, pool)
			if locs != beforeLocs || aliases != beforeAliases {
				t.Error("a failed load changed the tables")
			}
		})
	}
}

// wholeFileError is what loading the file failed with before loads
// streamed: parse it whole, then check the records.
func wholeFileError(path string) error {
	recs, err := dataset.ParseFile(path)
	if err != nil {
		return err
	}
	return checkRecords(recs)
}

// TestLoadFileStrictRecords: records the fast parser declines (escapes,
// nulls it cannot keep) are decoded by the strict parser, so they load as
// they would from the whole file.
func TestLoadFileStrictRecords(t *testing.T) {
	setBatch(t, 1)
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	path := writeFile(t, []byte(`[{"location":{"id":"caf\u00e9","name":"Caf\u00e9 \"Nord\""},"aliases":["n\/1"]},
		{"location":{"id":"b","name":"B"},"items":["x","y"]}]`))
	recs, err := dataset.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole := pgtest.Pool(t, dsn, pgtest.Schema(t))
	if _, err := Load(ctx, whole, recs); err != nil {
		t.Fatal(err)
	}
	streamed := pgtest.Pool(t, dsn, pgtest.Schema(t))
	if _, err := LoadFile(ctx, streamed, path); err != nil {
		t.Fatal(err)
	}
	wl, wa := tableDump(t, whole)
	gl, ga := tableDump(t, streamed)
	if gl != wl || ga != wa {
		t.Errorf("streamed load differs:\n%s\n%s\nwant\n%s\n%s", gl, ga, wl, wa)
	}
}

// TestLoadRecordsMatchesLoadFile: records streamed from an iterator, in
// small batches, fill the tables value for value as the same file does,
// and a bad sequence is refused with its record named and nothing written.
func TestLoadRecordsMatchesLoadFile(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	path := writeFile(t, sampledata.JSON(t))
	fromFile := pgtest.Pool(t, dsn, pgtest.Schema(t))
	if _, err := LoadFile(ctx, fromFile, path); err != nil {
		t.Fatal(err)
	}
	wantLocs, wantAliases := tableDump(t, fromFile)

	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	seq := func(recs []dataset.Record) iter.Seq2[dataset.Record, error] {
		return func(yield func(dataset.Record, error) bool) {
			for _, r := range recs {
				r.ID = "" // as dataset.Record built by hand: the id comes from the Location
				if !yield(r, nil) {
					return
				}
			}
		}
	}
	streamed := pgtest.Pool(t, dsn, pgtest.Schema(t))
	setBatch(t, 7)
	st, err := LoadRecords(ctx, streamed, seq(recs))
	if err != nil {
		t.Fatal(err)
	}
	if st != (LoadStats{Records: len(recs), Inserted: len(recs)}) {
		t.Errorf("stats = %+v, want %d inserted", st, len(recs))
	}
	if gotLocs, gotAliases := tableDump(t, streamed); gotLocs != wantLocs || gotAliases != wantAliases {
		t.Errorf("tables differ from LoadFile's (%d/%d vs %d/%d bytes)", len(gotLocs), len(gotAliases), len(wantLocs), len(wantAliases))
	}

	dup := slices.Clone(recs[:20])
	dup[15].Aliases = []string{recs[3].ID}
	broken := errors.New("catalogue read failed")
	for _, c := range []struct {
		name string
		seq  iter.Seq2[dataset.Record, error]
		want func(error) bool
	}{
		{"duplicate identifier", seq(dup), func(err error) bool {
			var fe *dataset.FieldError
			return errors.As(err, &fe) && fe.Index == 15 && fe.Pointer == "/15/aliases/0"
		}},
		{"invalid location", seq([]dataset.Record{recs[0], {Location: []byte(`{"id":"x"}`)}}), func(err error) bool {
			var fe *dataset.FieldError
			return errors.As(err, &fe) && fe.Index == 1 && strings.HasPrefix(fe.Pointer, "/1/location")
		}},
		{"iterator error", func(yield func(dataset.Record, error) bool) {
			if yield(recs[0], nil) {
				yield(dataset.Record{}, broken)
			}
		}, func(err error) bool { return errors.Is(err, broken) && strings.Contains(err.Error(), "record 1") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadRecords(ctx, streamed, c.seq)
			if !c.want(err) {
				t.Fatalf("got %v", err)
			}
			if gotLocs, _ := tableDump(t, streamed); gotLocs != wantLocs {
				t.Fatal("a refused load changed the tables")
			}
		})
	}
}
