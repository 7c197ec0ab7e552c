package postgis_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// rankQueries cover single terms (with and without prefix expansions),
// several terms in and out of name order (the phrase bonus), prefixes,
// terms only in addresses or amenity labels, CJK, full-width text, a
// repeated word, and text that scores nothing.
var rankQueries = []string{
	"express", "electronics", "Nightjar Express", "express nightjar", "harvest lane market",
	"elec", "exp", "str", "stra", "market street", "Voltbay Yonkers", "lane lane",
	"parking", "駐車場", "修理", "Ｅｘｐｒｅｓｓ", "münchen berlin", "gartenstrasse", "wi-fi", "wifi",
	"tokyo 4", "los angeles road", "zzzz-no-such-word", `"pickup" -wifi or`, "\"",
}

// exactMatch is the brute-force check of what the source pushes down.
type exactMatch struct {
	circle    *predicate.Distance
	amenities []string
	items     []string
}

func (m exactMatch) admits(f *fixture, id string) bool {
	l := f.locs[id]
	if m.circle != nil {
		g, ok := l.Geo.Get()
		if !ok || geodesic.Distance(m.circle.Center, geodesic.Point{Lat: g.Latitude, Lon: g.Longitude}) > m.circle.Max {
			return false
		}
	}
	am, _ := l.Amenities.Get()
	for _, a := range m.amenities {
		if _, ok := am[location.AmenityType(a)]; !ok {
			return false
		}
	}
	var rec []string
	for _, r := range f.recs {
		if r.ID == id {
			rec = r.Items
		}
	}
	for _, it := range m.items {
		if !slices.Contains(rec, it) {
			return false
		}
	}
	return true
}

// TestRankedIsTheInMemoryOrder walks relevance pages of many queries, alone
// and with every pushed-down constraint, through both plans (small
// admitted set, posting lists), at page sizes that cut ties anywhere, and
// requires exactly the brute-force order: textrank's score of the
// in-memory store's text, descending, then id, then the zero-score rest.
// In -short mode under half of the walks run, with every shape.
func TestRankedIsTheInMemoryOrder(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	const pages = 12
	f := load(t)
	ctx := context.Background()
	var centre geodesic.Point
	for _, r := range f.recs {
		if g, ok := f.locs[r.ID].Geo.Get(); ok && strings.Contains(f.locs[r.ID].Name, "Manhattan") {
			centre = geodesic.Point{Lat: g.Latitude, Lon: g.Longitude}
			break
		}
	}
	shapes := []struct {
		name string
		m    exactMatch
	}{
		{"no constraint", exactMatch{}},
		{"10 km", exactMatch{circle: &predicate.Distance{Center: centre, Max: 10000}}},
		{"1,000 km", exactMatch{circle: &predicate.Distance{Center: centre, Max: 1e6}}},
		{"amenity", exactMatch{amenities: []string{"dev.ucp.amenity.wi_fi"}}},
		{"items", exactMatch{items: []string{"sku-gift-card-50"}}},
		{"50 km + amenities + items", exactMatch{circle: &predicate.Distance{Center: centre, Max: 50000},
			amenities: []string{"dev.ucp.amenity.parking"}, items: []string{"sku-aa-batteries-8"}}},
	}
	for _, small := range []int{0, -1} {
		src, err := postgis.Open(ctx, f.pool, postgis.Options{SmallSet: small})
		if err != nil {
			t.Fatal(err)
		}
		for si, sh := range shapes {
			raced := false
			for qi, text := range rankQueries {
				if si > 0 && qi%3 != si%3 {
					continue // every query alone, a third of them with each constraint
				}
				if testing.Short() && (si == 0 && qi%3 != 0 || si > 0 && (qi/3)%2 != 0) {
					// -short walks under half of these, still every shape
					// through both plans; the plain pass walks all.
					continue
				}
				if testshared.Race && raced {
					// The race detector, ten times slower, has nothing more
					// to find in more queries than one a shape: still every
					// shape through both plans.
					continue
				}
				raced = true
				q := textrank.NewQuery(text)
				type want struct {
					id    string
					score float64
				}
				var exp []want
				for _, id := range f.public() {
					if sh.m.admits(f, id) {
						exp = append(exp, want{id, q.Score(textrank.NewDoc(memory.TextFields(f.locs[id])))})
					}
				}
				slices.SortStableFunc(exp, func(a, b want) int {
					if a.score != b.score {
						if a.score > b.score {
							return -1
						}
						return 1
					}
					return strings.Compare(a.id, b.id)
				})
				h := finder.Hints{Order: finder.ByRelevance, Text: text, Distance: sh.m.circle}
				h.Query.Distance = sh.m.circle
				h.Query.Filters.Amenities, h.Query.Filters.HasAmenities = sh.m.amenities, len(sh.m.amenities) > 0
				h.Query.Filters.Items, h.Query.Filters.HasItems = sh.m.items, len(sh.m.items) > 0
				// Page sizes cut ties at different places; stop walks of
				// wide shapes early to keep the test quick.
				for _, n := range []int{1 + qi%4, 33} {
					name := fmt.Sprintf("small=%d/%s/%q/n=%d", small, sh.name, text, n)
					got, _ := walkUpTo(t, src, h, n, pages)
					var gotW []want
					for _, c := range got {
						if sh.m.admits(f, c.Location.ID) {
							gotW = append(gotW, want{c.Location.ID, c.Score})
						}
					}
					for i := 1; i < len(got); i++ {
						a := finder.Position{Score: got[i-1].Score, ID: got[i-1].Location.ID}
						b := finder.Position{Score: got[i].Score, ID: got[i].Location.ID}
						if finder.Compare(finder.ByRelevance, a, b) >= 0 {
							t.Fatalf("%s: %v is not before %v", name, a, b)
						}
					}
					limit := len(gotW)
					if len(got) < pages*n { // walked to the end
						limit = len(exp)
					}
					if limit > len(exp) || !slices.Equal(gotW, exp[:limit]) {
						t.Fatalf("%s: got %d admitted candidates %v...\nwant %d: %v...", name, len(gotW), head(gotW), len(exp), head(exp))
					}
				}
			}
		}
	}
}

func head[T any](s []T) []T { return s[:min(len(s), 12)] }

// walkUpTo reads at most pages pages of size n, and says whether it read
// the last one (a page shorter than n).
func walkUpTo(t *testing.T, src *postgis.Source, h finder.Hints, n, pages int) ([]finder.Candidate[location.Location], bool) {
	t.Helper()
	var all []finder.Candidate[location.Location]
	h.Limit = n
	for range pages {
		got, err := src.Candidates(context.Background(), h)
		if err != nil {
			t.Fatalf("candidates: %v", err)
		}
		if len(got) > n {
			t.Fatalf("candidates returned %d > limit %d", len(got), n)
		}
		all = append(all, got...)
		if len(got) < n {
			return all, true
		}
		last := got[len(got)-1]
		h.After = &finder.Position{Score: last.Score, ID: last.Location.ID}
	}
	return all, false
}

// TestMigrationBackfillsPostings turns a loaded database back into schema
// version 1 (no postings, the old tsvector column): Open refuses it naming
// the missing version, and Migrate computes exactly the postings a load
// writes, after which ranked pages read as before.
func TestMigrationBackfillsPostings(t *testing.T) {
	f := load(t)
	ctx := context.Background()
	snapshot := func() string {
		var s string
		if err := f.pool.QueryRow(ctx, `SELECT count(*) || ':' || md5(string_agg(term || '|' || neg_weight || '|' || id, ',' ORDER BY term, neg_weight, id))
			FROM storefinder_postings`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := snapshot()
	if strings.HasPrefix(want, "0:") {
		t.Fatal("load wrote no postings")
	}
	h := finder.Hints{Order: finder.ByRelevance, Text: "harvest exp", Limit: 40}
	before, err := f.src.Candidates(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`DROP TABLE storefinder_postings`,
		`ALTER TABLE storefinder_locations ADD COLUMN search tsvector`,
		`CREATE INDEX storefinder_locations_search ON storefinder_locations USING gin (search)`,
		`DELETE FROM storefinder_migrations WHERE version >= 2`,
	} {
		if _, err := f.pool.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	_, err = postgis.Open(ctx, f.pool, postgis.Options{})
	if !errors.Is(err, postgis.ErrSchema) || !strings.Contains(err.Error(), "version 1") || !strings.Contains(err.Error(), "postings") {
		t.Fatalf("open at version 1: %v, want ErrSchema naming version 1 and the postings", err)
	}
	if err := postgis.Migrate(ctx, f.pool); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(); got != want {
		t.Fatalf("backfilled postings %s, a load wrote %s", got, want)
	}
	src, err := postgis.Open(ctx, f.pool, postgis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := src.Candidates(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(after), ids(before)) || len(after) != 40 {
		t.Fatalf("after backfill: %v, before: %v", ids(after), ids(before))
	}
}

// TestReloadKeepsPostingsExact edits, removes and hides records and
// requires the postings a reload leaves to be those a fresh load writes.
func TestReloadKeepsPostingsExact(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	f := load(t)
	ctx := context.Background()
	recs := slices.Clone(f.recs[3:])
	var edited int
	for i := range recs {
		if recs[i].Private || edited == 2 {
			continue
		}
		if edited == 0 {
			recs[i].Location = []byte(strings.Replace(string(recs[i].Location), `"name":"`, `"name":"Renamed Quokka `, 1))
		} else {
			recs[i].Private = true
		}
		edited++
	}
	if _, err := postgis.Load(ctx, f.pool, recs); err != nil {
		t.Fatal(err)
	}
	fresh := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	if _, err := postgis.Load(ctx, fresh, recs); err != nil {
		t.Fatal(err)
	}
	q := `SELECT count(*) || ':' || md5(string_agg(term || '|' || neg_weight || '|' || id, ',' ORDER BY term, neg_weight, id)) FROM storefinder_postings`
	var got, want string
	if err := f.pool.QueryRow(ctx, q).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if err := fresh.QueryRow(ctx, q).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("postings after reload %s, after a fresh load %s", got, want)
	}
	var quokka int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM storefinder_postings WHERE term = 'quokka'`).Scan(&quokka); err != nil || quokka != 1 {
		t.Fatalf("postings of the renamed record: %d, %v", quokka, err)
	}
}
