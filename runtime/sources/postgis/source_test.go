package postgis_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// fixture is the sample dataset loaded into a fresh schema, with the
// decoded records the tests compute expectations from.
type fixture struct {
	pool *pgxpool.Pool
	src  *postgis.Source
	recs []dataset.Record
	locs map[string]*location.Location // public and private, by id
}

func load(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	st, err := postgis.Load(ctx, pool, recs)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if st.Inserted != len(recs) || st.Updated != 0 || st.Deleted != 0 {
		t.Fatalf("first load stats = %+v, want %d inserted", st, len(recs))
	}
	src, err := postgis.Open(ctx, pool, postgis.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	f := &fixture{pool: pool, src: src, recs: recs, locs: map[string]*location.Location{}}
	for _, r := range recs {
		l, err := location.DecodeLocation(r.Location)
		if err != nil {
			t.Fatal(err)
		}
		f.locs[r.ID] = l
	}
	return f
}

// public returns the ids of public records, sorted byte-wise.
func (f *fixture) public() []string {
	var ids []string
	for _, r := range f.recs {
		if !r.Private {
			ids = append(ids, r.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// walk reads every candidate of h in pages of size n.
func walk(t *testing.T, src *postgis.Source, h finder.Hints, n int) []finder.Candidate[location.Location] {
	t.Helper()
	all, done := walkUpTo(t, src, h, n, 100000)
	if !done {
		t.Fatal("walk did not end")
	}
	return all
}

func ids(cs []finder.Candidate[location.Location]) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Location.ID
	}
	return out
}

func TestLoadIsIdempotentAndExact(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	f := load(t)
	ctx := context.Background()
	st, err := postgis.Load(ctx, f.pool, f.recs)
	if err != nil {
		t.Fatal(err)
	}
	if st != (postgis.LoadStats{Records: len(f.recs)}) {
		t.Fatalf("reload of the same records changed rows: %+v", st)
	}

	// Drop the first record, change the second's name, move an alias of
	// the third to the fourth.
	recs := slices.Clone(f.recs[1:])
	var loc map[string]any
	if err := json.Unmarshal(recs[0].Location, &loc); err != nil {
		t.Fatal(err)
	}
	loc["name"] = "Renamed Store"
	b, _ := json.Marshal(loc)
	recs[0].Location = b
	var moved string
	for i := 1; i+1 < len(recs); i++ {
		if len(recs[i].Aliases) > 0 && !recs[i].Private && !recs[i+1].Private {
			moved = recs[i].Aliases[0]
			recs[i].Aliases = slices.Clone(recs[i].Aliases[1:])
			recs[i+1].Aliases = append(slices.Clone(recs[i+1].Aliases), moved)
			break
		}
	}
	if moved == "" {
		t.Fatal("dataset has no alias to move")
	}
	st, err = postgis.Load(ctx, f.pool, recs)
	if err != nil {
		t.Fatal(err)
	}
	// Moving an alias rewrites both records' digests.
	if st.Deleted != 1 || st.Updated != 3 || st.Inserted != 0 {
		t.Fatalf("stats after edit = %+v, want 1 deleted, 3 updated", st)
	}
	src, err := postgis.Open(ctx, f.pool, postgis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.Resolve(ctx, []string{f.recs[0].ID, recs[0].ID, moved})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[f.recs[0].ID]; ok {
		t.Errorf("deleted record %q still resolves", f.recs[0].ID)
	}
	if c := got[recs[0].ID]; len(c) != 1 || c[0].Location.Name != "Renamed Store" {
		t.Errorf("changed record resolves to %v", c)
	}
	var want string
	for i := range recs {
		if slices.Contains(recs[i].Aliases, moved) {
			want = recs[i].ID
		}
	}
	if c := got[moved]; len(c) != 1 || c[0].Location.ID != want {
		t.Errorf("moved alias %q resolves to %v, want %s", moved, ids(c), want)
	}
	// And back: the database again holds exactly the original records.
	st, err = postgis.Load(ctx, f.pool, f.recs)
	if err != nil {
		t.Fatal(err)
	}
	if st.Inserted != 1 || st.Updated != 3 || st.Deleted != 0 {
		t.Fatalf("stats after restoring = %+v", st)
	}
	all := walk(t, src, finder.Hints{Order: finder.ByID}, 500)
	if !slices.Equal(ids(all), f.public()) {
		t.Fatalf("after restoring, candidates are not exactly the public records")
	}
}

func TestLoadRejectsInvalidRecords(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	radius := 10.0
	tests := []struct {
		name    string
		rec     dataset.Record
		pointer string
	}{
		{"schema violation", dataset.Record{ID: "a", Location: json.RawMessage(`{"id":"a","name":"A","geo":{"latitude":"x","longitude":1}}`)}, "/0/location/geo/latitude"},
		{"empty name", dataset.Record{ID: "a", Location: json.RawMessage(`{"id":"a","name":""}`)}, "/0/location/name"},
		{"radius without geo", dataset.Record{ID: "a", Location: json.RawMessage(`{"id":"a","name":"A"}`), ServiceArea: &dataset.ServiceArea{RadiusM: &radius}}, "/0/service_area/radius_m"},
		{"hours without timezone", dataset.Record{ID: "a", Location: json.RawMessage(`{"id":"a","name":"A","hours":[{"day":"monday","opens":"09:00","closes":"17:00"}]}`)}, "/0/location/timezone"},
		{"day the runtime does not interpret", dataset.Record{ID: "a", Location: json.RawMessage(`{"id":"a","name":"A","timezone":"Europe/Berlin","hours":[{"day":"public_holidays","opens":"09:00","closes":"17:00"}]}`)}, "/0/location/hours/0/day"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := postgis.Load(context.Background(), pool, []dataset.Record{tc.rec})
			var fe *dataset.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *dataset.FieldError", err)
			}
			if fe.Pointer != tc.pointer {
				t.Errorf("pointer = %q, want %q (%v)", fe.Pointer, tc.pointer, err)
			}
		})
	}
}

func TestOpenNeedsTheSchema(t *testing.T) {
	pool := pgtest.Pool(t, pgtest.DSN(t), pgtest.Schema(t))
	_, err := postgis.Open(context.Background(), pool, postgis.Options{})
	if !errors.Is(err, postgis.ErrSchema) {
		t.Fatalf("Open on an empty schema: err = %v, want ErrSchema", err)
	}
}

func TestCandidatesByIDWalkAndPushdown(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	f := load(t)
	// Wide circles both ways: through the spatial index (every one sparse)
	// and in id order (every one with 50 or more Locations dense); local
	// circles go through the grid cells either way.
	for _, probe := range []int{0, 50} {
		src, err := postgis.Open(context.Background(), f.pool, postgis.Options{WideProbe: probe})
		if err != nil {
			t.Fatal(err)
		}
		f.src = src
		checkByID(t, f)
	}
}

func checkByID(t *testing.T, f *fixture) {
	if got := ids(walk(t, f.src, finder.Hints{Order: finder.ByID}, 97)); !slices.Equal(got, f.public()) {
		t.Fatalf("unconstrained walk returned %d ids, want the %d public ids in byte order", len(got), len(f.public()))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pub := f.public()
	// The race pass walks a few circles through the same queries; the
	// plain pass walks every one.
	circles := 40
	if testshared.Race {
		circles = 8
	}
	for i := range circles {
		// Centre on a store (half the time) or anywhere; radii from 0 to
		// 3,000 km, some exactly at a store's Karney distance.
		var c geodesic.Point
		if i%2 == 0 {
			g, _ := f.locs[pub[rng.IntN(len(pub))]].Geo.Get()
			c = geodesic.Point{Lat: g.Latitude + rng.Float64()*0.2 - 0.1, Lon: g.Longitude + rng.Float64()*0.2 - 0.1}
		} else {
			c = geodesic.Point{Lat: rng.Float64()*180 - 90, Lon: rng.Float64()*360 - 180}
		}
		max := math.Pow(10, rng.Float64()*6.5)
		if i%4 == 0 {
			g, _ := f.locs[pub[rng.IntN(len(pub))]].Geo.Get()
			max = geodesic.Distance(c, geodesic.Point{Lat: g.Latitude, Lon: g.Longitude})
		}
		amen := []string{}
		if i%3 == 0 {
			amen = []string{"dev.ucp.amenity.wi_fi"}
		}
		h := finder.Hints{
			Order:    finder.ByID,
			Distance: &predicate.Distance{Center: c, Max: max},
			Query:    predicate.Query{Filters: predicate.Filters{Amenities: amen, HasAmenities: i%3 == 0}},
		}
		got := walk(t, f.src, h, 25)
		gotIDs := ids(got)
		if !slices.IsSorted(gotIDs) {
			t.Fatalf("case %d: candidates not in id order", i)
		}
		for _, id := range pub {
			l := f.locs[id]
			g, ok := l.Geo.Get()
			if !ok {
				continue
			}
			d := geodesic.Distance(c, geodesic.Point{Lat: g.Latitude, Lon: g.Longitude})
			am, _ := l.Amenities.Get()
			_, hasAmen := am[location.AmenityType("dev.ucp.amenity.wi_fi")]
			exact := d <= max && (i%3 != 0 || hasAmen)
			in := slices.Contains(gotIDs, id)
			if exact && !in {
				t.Errorf("case %d: %s at %.6f m from the centre (max %.6f m) is a match the source left out", i, id, d, max)
			}
			if in && d > max*(1+1e-6)+1+1e-3 {
				t.Errorf("case %d: %s at %.3f m is beyond the margin of max %.3f m", i, id, d, max)
			}
		}
	}
}

func TestCandidatesPushItemsDown(t *testing.T) {
	f := load(t)
	var item string
	for _, r := range f.recs {
		if len(r.Items) > 0 && !r.Private {
			item = r.Items[0]
			break
		}
	}
	h := finder.Hints{Order: finder.ByID, Query: predicate.Query{Filters: predicate.Filters{Items: []string{item}, HasItems: true}}}
	got := ids(walk(t, f.src, h, 50))
	var want []string
	for _, r := range f.recs {
		if !r.Private && slices.Contains(r.Items, item) {
			want = append(want, r.ID)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("items %q: got %d candidates, want %d", item, len(got), len(want))
	}
}

func TestCandidatesByRelevanceNeverDrop(t *testing.T) {
	t.Parallel() // its own schema: it waits on the database beside the others
	f := load(t)
	texts := []string{"electronics", "Voltbay Yonkers", `"pickup" -wifi or`, "zzzz-no-such-word", "\""}
	// Under the race detector a ranked query and one that matches nothing;
	// each is a walk of sequential calls, and the plain pass walks all.
	for _, text := range testshared.RaceCases(texts, []string{"electronics", "zzzz-no-such-word"}) {
		h := finder.Hints{Order: finder.ByRelevance, Text: text}
		got := walk(t, f.src, h, 64)
		if g := ids(got); !slices.Equal(sorted(g), f.public()) {
			t.Fatalf("%q: ranked walk returned %d ids, want all %d public ids once", text, len(g), len(f.public()))
		}
		for i := 1; i < len(got); i++ {
			a := finder.Position{Score: got[i-1].Score, ID: got[i-1].Location.ID}
			b := finder.Position{Score: got[i].Score, ID: got[i].Location.ID}
			if finder.Compare(finder.ByRelevance, a, b) >= 0 {
				t.Fatalf("%q: %v is not before %v", text, a, b)
			}
		}
		if text == "electronics" && got[0].Score <= 0 {
			t.Errorf("%q: first candidate has score %v, want a positive rank", text, got[0].Score)
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestResolveServesItems(t *testing.T) {
	f := load(t)
	ctx := context.Background()
	var keys []string
	for _, r := range f.recs[:200] {
		keys = append(keys, r.ID)
		keys = append(keys, r.Aliases...)
	}
	keys = append(keys, "no-such-id")
	got, err := f.src.Resolve(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.recs[:200] {
		for _, k := range append([]string{r.ID}, r.Aliases...) {
			c := got[k]
			switch {
			case r.Private && len(c) != 0:
				t.Errorf("private record %s resolved through %q", r.ID, k)
			case !r.Private && (len(c) != 1 || c[0].Location.ID != r.ID):
				t.Errorf("%q resolved to %v, want %s", k, ids(c), r.ID)
			}
		}
	}
	if _, ok := got["no-such-id"]; ok {
		t.Error("unknown id resolved")
	}

	cands := walk(t, f.src, finder.Hints{Order: finder.ByID}, 1000)
	byID := map[string]dataset.Record{}
	for _, r := range f.recs {
		byID[r.ID] = r
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 30 {
		var tgt predicate.Target
		if i%2 == 0 {
			g, _ := cands[rng.IntN(len(cands))].Location.Geo.Get()
			p := geodesic.Point{Lat: g.Latitude + rng.Float64()*0.6 - 0.3, Lon: g.Longitude + rng.Float64()*0.6 - 0.3}
			tgt = predicate.Target{Key: "point", Point: &p}
		} else {
			r := byID[cands[rng.IntN(len(cands))].Location.ID]
			var a predicate.Locality
			if sa := r.ServiceArea; sa != nil {
				if len(sa.Regions) > 0 {
					a.Region = strings.ToLower(sa.Regions[rng.IntN(len(sa.Regions))])
				}
				if len(sa.PostalCodes) > 0 && i%3 == 0 {
					a.PostalCode = sa.PostalCodes[rng.IntN(len(sa.PostalCodes))]
				}
				if len(sa.Countries) > 0 {
					a.Country = "US"
				}
			}
			tgt = predicate.Target{Key: "address", Address: &a}
		}
		ok, err := f.src.Serves(ctx, tgt, cands)
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range cands {
			if want := refServes(byID[c.Location.ID], c.Location, tgt); ok[j] != want {
				t.Errorf("serves %+v at %s = %v, want %v", tgt, c.Location.ID, ok[j], want)
			}
		}
	}
	items := []string{}
	for _, r := range f.recs {
		if len(r.Items) > 1 {
			items = r.Items[:2]
			break
		}
	}
	ok, err := f.src.Items(ctx, items, cands)
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range cands {
		r := byID[c.Location.ID]
		want := slices.Contains(r.Items, items[0]) && slices.Contains(r.Items, items[1])
		if ok[j] != want {
			t.Errorf("items %v at %s = %v, want %v", items, r.ID, ok[j], want)
		}
	}
	if _, err := f.src.Serves(ctx, predicate.Target{Key: "com.example.zone"}, cands); !errors.Is(err, predicate.ErrUnevaluable) {
		t.Errorf("unknown serves key: err = %v, want ErrUnevaluable", err)
	}
}

// refServes is the dataset's serves rule written out independently.
func refServes(r dataset.Record, l *location.Location, t predicate.Target) bool {
	sa := r.ServiceArea
	if sa == nil {
		return false
	}
	if t.Key == "point" {
		g, ok := l.Geo.Get()
		return ok && sa.RadiusM != nil && geodesic.Distance(geodesic.Point{Lat: g.Latitude, Lon: g.Longitude}, *t.Point) <= *sa.RadiusM
	}
	a := t.Address
	in := func(list []string, v string, fold bool) bool {
		if v == "" {
			return true
		}
		for _, x := range list {
			if x == v || fold && strings.EqualFold(x, v) {
				return true
			}
		}
		return false
	}
	return in(sa.Countries, a.Country, true) && in(sa.Regions, a.Region, true) && in(sa.PostalCodes, a.PostalCode, false)
}
