package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

var (
	loadOnce sync.Once
	recs     []dataset.Record
	loadErr  error
)

func records(t *testing.T) []dataset.Record {
	t.Helper()
	loadOnce.Do(func() { recs, loadErr = sampledata.Records() })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return recs
}

// decodedLocations holds each Location text the brute-force matcher has
// decoded, read-only, so a test that matches every record for many cases
// decodes each once (the race detector made that most of their time).
var decodedLocations sync.Map // string -> *location.Location

func decoded(t *testing.T, raw []byte) *location.Location {
	t.Helper()
	if l, ok := decodedLocations.Load(string(raw)); ok {
		return l.(*location.Location)
	}
	l := new(location.Location)
	if err := json.Unmarshal(raw, l); err != nil {
		t.Fatal(err)
	}
	decodedLocations.Store(string(raw), l)
	return l
}

// testOptions are the limits a test server runs with.
type testOptions struct {
	BatchMax, PageMax int
	MaxDistance       float64
}

// testStore is the generated service over a Source, as main.go builds it.
type testStore struct {
	hooks *location.Service
	src   *Source
}

func (s testStore) Search(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	return s.hooks.SearchLocations(ctx, meta, req)
}

func (s testStore) Lookup(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	return s.hooks.LookupLocations(ctx, meta, req)
}

func newService(t *testing.T, recs []dataset.Record, o testOptions) testStore {
	t.Helper()
	src, err := New(recs, Options{MaxDistance: o.MaxDistance})
	if err != nil {
		t.Fatal(err)
	}
	h, err := location.NewService(src, location.ServiceOptions{
		Lookup: lookup.Options{BatchMax: o.BatchMax},
		Pages:  pagination.Options{MaxLimit: o.PageMax},
	})
	if err != nil {
		t.Fatal(err)
	}
	return testStore{hooks: h, src: src}
}

func newStore(t *testing.T, o testOptions) testStore {
	t.Helper()
	return newService(t, records(t), o)
}

func searchReq(t *testing.T, js string) *location.SearchRequest {
	t.Helper()
	var r location.SearchRequest
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return &r
}

// walk follows cursors to the end and returns every id in response order.
func walk(t *testing.T, s testStore, js string, limit int) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for page := 0; ; page++ {
		if page > 10000 {
			t.Fatal("pagination does not terminate")
		}
		r := searchReq(t, js)
		pg := location.PaginationRequest{}
		pg.Limit.V, pg.Limit.Set = int64(limit), true
		if cursor != "" {
			pg.Cursor.V, pg.Cursor.Set = cursor, true
		}
		r.Pagination.V, r.Pagination.Set = pg, true
		resp, err := s.Search(context.Background(), nil, r)
		if err != nil {
			t.Fatalf("search %s page %d: %v", js, page, err)
		}
		if len(resp.Locations) > limit {
			t.Fatalf("page of %d, limit %d", len(resp.Locations), limit)
		}
		for _, l := range resp.Locations {
			ids = append(ids, l.ID)
		}
		p := resp.Pagination.V
		if !p.HasNextPage {
			if p.TotalCount.Set && int(p.TotalCount.V) != len(ids) {
				t.Errorf("total_count %d, walked %d", p.TotalCount.V, len(ids))
			}
			return ids
		}
		if !p.Cursor.Set || p.Cursor.V == "" {
			t.Fatal("has_next_page without cursor")
		}
		cursor = p.Cursor.V
	}
}

// brute is an independent evaluation of the dataset rules over every record.
type brute struct {
	center  *geodesic.Point
	max     float64
	point   *geodesic.Point
	country string
	region  string
	openAt  *time.Time
	amen    []string
	items   []string
}

func (b brute) match(t *testing.T, r dataset.Record) bool {
	if r.Private {
		return false
	}
	l := decoded(t, r.Location)
	var g *geodesic.Point
	if v, ok := l.Geo.Get(); ok {
		g = &geodesic.Point{Lat: v.Latitude, Lon: v.Longitude}
	}
	if b.center != nil && (g == nil || geodesic.Distance(*b.center, *g) > b.max) {
		return false
	}
	sa := r.ServiceArea
	if b.point != nil && (sa == nil || sa.RadiusM == nil || g == nil || geodesic.Distance(*b.point, *g) > *sa.RadiusM) {
		return false
	}
	if b.country != "" && (sa == nil || !slices.Contains(sa.Countries, b.country)) {
		return false
	}
	if b.region != "" && (sa == nil || !slices.Contains(sa.Regions, b.region)) {
		return false
	}
	for _, a := range b.amen {
		if _, ok := l.Amenities.V[location.AmenityType(a)]; !ok {
			return false
		}
	}
	for _, it := range b.items {
		if !slices.Contains(r.Items, it) {
			return false
		}
	}
	if b.openAt != nil {
		sc := hours.Schedule{Timezone: l.Timezone.V, HasHours: l.Hours.Set, HasExceptions: l.ExceptionHours.Set}
		for _, h := range l.Hours.V {
			sc.Hours = append(sc.Hours, hours.Interval{Day: string(h.Day), Opens: h.Opens, Closes: h.Closes})
		}
		for _, x := range l.ExceptionHours.V {
			sc.Exceptions = append(sc.Exceptions, hours.Exception{ValidFrom: x.ValidFrom, ValidThrough: x.ValidThrough, Opens: x.Opens.Ptr(), Closes: x.Closes.Ptr()})
		}
		if !sc.OpenAt(*b.openAt) {
			return false
		}
	}
	return true
}

func TestSearchAgainstBruteForce(t *testing.T) {
	s := newStore(t, testOptions{PageMax: 1000})
	nyc := geodesic.Point{Lat: 40.75, Lon: -73.98}
	at := time.Date(2026, 9, 7, 14, 30, 0, 0, time.UTC) // a Monday, 10:30 in New York
	item := records(t)[0].Items[0]
	const wifi = "dev.ucp.amenity.wi_fi"
	distance := `"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000}`
	cases := []struct {
		name string
		req  string
		b    brute
	}{
		{"browse", `{}`, brute{}},
		{"distance", `{` + distance + `}`, brute{center: &nyc, max: 25000}},
		{"distance zero", `{"distance":{"center":{"latitude":40.9218,"longitude":-73.894663},"max":0}}`, brute{center: &geodesic.Point{Lat: 40.9218, Lon: -73.894663}, max: 0}},
		{"serves point", `{"serves":{"point":{"latitude":40.75,"longitude":-73.98}}}`, brute{point: &nyc}},
		{"serves address", `{"serves":{"address":{"address_country":"US","address_region":"NY"}}}`, brute{country: "US", region: "NY"}},
		{"hours", `{"filters":{"hours":{"open_at":"2026-09-07T10:30:00-04:00"}}}`, brute{openAt: &at}},
		{"amenities", `{"filters":{"amenities":["` + wifi + `"]}}`, brute{amen: []string{wifi}}},
		{"items", `{"filters":{"items":["` + item + `"]}}`, brute{items: []string{item}}},
		{"query text only reorders", `{"query":"market"}`, brute{}},
		{"all together", `{"query":"electronics",` + distance + `,"serves":{"address":{"address_country":"US"}},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"},"amenities":["` + wifi + `"],"items":["` + item + `"]}}`,
			brute{center: &nyc, max: 25000, country: "US", openAt: &at, amen: []string{wifi}, items: []string{item}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			for _, r := range records(t) {
				if tc.b.match(t, r) {
					want = append(want, r.ID)
				}
			}
			got := walk(t, s, tc.req, 400)
			if len(got) != len(slices.Compact(slices.Sorted(slices.Values(got)))) {
				t.Fatal("a Location was returned twice across pages")
			}
			if !strings.Contains(tc.req, `"query"`) && !slices.IsSorted(got) {
				t.Error("without query text the order must be by id")
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %d ids, brute force %d", len(got), len(want))
			}
			if tc.name != "browse" && tc.name != "query text only reorders" && (len(want) == 0 || len(want) == len(records(t))) {
				t.Logf("warning: case selects %d of %d records", len(want), len(records(t)))
			}
		})
	}
}

func TestQueryRanksBestFirst(t *testing.T) {
	s := newStore(t, testOptions{})
	resp, err := s.Search(context.Background(), nil, searchReq(t, `{"query":"Voltbay Electronics Yonkers"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Locations) == 0 || !strings.HasPrefix(resp.Locations[0].Name, "Voltbay Electronics Yonkers") {
		t.Fatalf("first result %v, want the exact name match", resp.Locations[0].Name)
	}
}

func TestSmallPagesWalkEverything(t *testing.T) {
	s := newStore(t, testOptions{PageMax: 7})
	big := walk(t, s, `{"filters":{"amenities":["dev.ucp.amenity.wi_fi"]}}`, 50) // lowered to 7 per page
	small := walk(t, newStore(t, testOptions{}), `{"filters":{"amenities":["dev.ucp.amenity.wi_fi"]}}`, 100)
	if !slices.Equal(big, small) {
		t.Fatalf("7-per-page walk (%d) differs from 100-per-page walk (%d)", len(big), len(small))
	}
}

func TestSearchRejects(t *testing.T) {
	s := newStore(t, testOptions{MaxDistance: 50000})
	cases := []struct {
		name, req, pointer string
	}{
		{"radius above cap", `{"distance":{"center":{"latitude":1,"longitude":1},"max":50001}}`, "/location/distance/max"},
		{"not a country", `{"serves":{"address":{"address_country":"ZZ","postal_code":"123"}}}`, "/location/serves/address/address_country"},
		{"country not modelled", `{"serves":{"address":{"address_country":"FR","postal_code":"123"}}}`, "/location/serves/address"},
		{"country not modelled, no postal code", `{"serves":{"address":{"address_country":"France"}}}`, "/location/serves/address"},
		{"postal code without country", `{"serves":{"address":{"postal_code":"10115"}}}`, "/location/serves/address"},
		{"unknown filter", `{"filters":{"com.example.vegan":true}}`, "/location/filters/com.example.vegan"},
		{"unnegotiated serves key", `{"serves":{"com.example.zone":"z1"}}`, "/location/serves/com.example.zone"},
		{"bad open_at", `{"filters":{"hours":{"open_at":"2026-09-07 10:00"}}}`, "/location/filters/hours/open_at"},
		{"limit zero", `{"pagination":{"limit":0}}`, "/location/pagination/limit"},
		{"forged cursor", `{"pagination":{"cursor":"AAAA"}}`, "/location/pagination/cursor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Search(context.Background(), nil, searchReq(t, tc.req))
			ip, ok := rpcerr.AsInvalidParams(err)
			if !ok {
				t.Fatalf("err = %v, want invalid params", err)
			}
			if ip.Violations[0].Pointer != tc.pointer {
				t.Errorf("pointer %s, want %s (%v)", ip.Violations[0].Pointer, tc.pointer, ip)
			}
		})
	}
}

func TestCursorBoundToConstraints(t *testing.T) {
	s := newStore(t, testOptions{})
	resp, err := s.Search(context.Background(), nil, searchReq(t, `{"pagination":{"limit":2}}`))
	if err != nil || !resp.Pagination.V.HasNextPage {
		t.Fatalf("first page: %v", err)
	}
	next := fmt.Sprintf(`{"filters":{"amenities":["dev.ucp.amenity.wi_fi"]},"pagination":{"cursor":%q}}`, resp.Pagination.V.Cursor.V)
	_, err = s.Search(context.Background(), nil, searchReq(t, next))
	if _, ok := rpcerr.AsInvalidParams(err); !ok {
		t.Fatalf("cursor reused with other filters: err = %v, want invalid params", err)
	}
}

func privateRecord(t *testing.T) dataset.Record {
	for _, r := range records(t) {
		if r.Private && len(r.Aliases) > 0 {
			return r
		}
	}
	t.Fatal("dataset has no private record with an alias")
	return dataset.Record{}
}

func TestPrivateNeverReturned(t *testing.T) {
	s := newStore(t, testOptions{})
	p := privateRecord(t)
	var l location.Location
	if err := json.Unmarshal(p.Location, &l); err != nil {
		t.Fatal(err)
	}
	g := l.Geo.V
	for _, req := range []string{
		`{}`,
		fmt.Sprintf(`{"distance":{"center":{"latitude":%v,"longitude":%v},"max":0}}`, g.Latitude, g.Longitude),
		fmt.Sprintf(`{"query":%q}`, l.Name),
	} {
		if slices.Contains(walk(t, s, req, 100), p.ID) {
			t.Errorf("search %s returned private %s", req, p.ID)
		}
	}
	for _, id := range []string{p.ID, p.Aliases[0]} {
		resp, err := s.Lookup(context.Background(), nil, &location.LookupRequest{IDs: []string{id}})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Locations) != 0 {
			t.Errorf("lookup %q returned %v", id, resp.Locations[0].ID)
		}
		if m := resp.Messages.V; len(m) != 1 || m[0].Info == nil || m[0].Info.Code.V != "not_found" {
			t.Errorf("lookup %q: want one not_found info, got %+v", id, m)
		}
	}
}

func TestLookup(t *testing.T) {
	var pub []dataset.Record
	for _, r := range records(t) {
		if !r.Private && len(r.Aliases) >= 2 {
			pub = append(pub, r)
		}
	}
	a, b := pub[0], pub[1]
	s := newStore(t, testOptions{BatchMax: 10})

	t.Run("aliases merge with inputs in request order", func(t *testing.T) {
		ids := []string{a.Aliases[1], "nope", a.ID, b.Aliases[0], a.ID}
		resp, err := s.Lookup(context.Background(), nil, &location.LookupRequest{IDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Locations) != 2 {
			t.Fatalf("got %d locations, want 2", len(resp.Locations))
		}
		got := map[string][]string{}
		for _, l := range resp.Locations {
			for _, in := range l.Inputs {
				got[l.ID] = append(got[l.ID], in.ID)
			}
		}
		if !slices.Equal(got[a.ID], []string{a.Aliases[1], a.ID}) || !slices.Equal(got[b.ID], []string{b.Aliases[0]}) {
			t.Errorf("inputs %v", got)
		}
		m := resp.Messages.V
		if len(m) != 1 || m[0].Info.Code.V != "not_found" || !strings.Contains(m[0].Info.Content, "nope") {
			t.Errorf("messages %+v", m)
		}
	})
	t.Run("batch limit", func(t *testing.T) {
		ids := []string{a.ID}
		for i := range 11 {
			ids = append(ids, fmt.Sprintf("missing-%d", i))
		}
		resp, err := s.Lookup(context.Background(), nil, &location.LookupRequest{IDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		m := resp.Messages.V
		if len(m) == 0 || m[0].Info.Code.V != "batch_limit_applied" || m[0].Info.Type != "info" {
			t.Fatalf("messages %+v", m)
		}
		if len(m) != 1+9 { // batch_limit_applied + not_found for the 9 processed misses
			t.Errorf("%d messages, want 10", len(m))
		}
		if len(resp.Locations) != 1 {
			t.Errorf("%d locations, want 1", len(resp.Locations))
		}
	})
	t.Run("refinement uses the search constraints", func(t *testing.T) {
		req := &location.LookupRequest{IDs: []string{a.ID, b.ID}}
		var l location.Location
		if err := json.Unmarshal(a.Location, &l); err != nil {
			t.Fatal(err)
		}
		req.Distance.V = location.LocationDistance{Center: l.Geo.V, Max: 0}
		req.Distance.Set = true
		resp, err := s.Lookup(context.Background(), nil, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Locations) != 1 || resp.Locations[0].ID != a.ID || resp.Messages.Set {
			t.Errorf("got %+v messages %+v", resp.Locations, resp.Messages.V)
		}
	})
}

func TestBadRecordsRejected(t *testing.T) {
	good := records(t)[0]
	withLoc := func(loc string) dataset.Record {
		r := good
		r.Location = json.RawMessage(loc)
		r.ID = ""
		r.Aliases = nil
		return r
	}
	radius := 5.0
	cases := []struct {
		name    string
		recs    []dataset.Record
		pointer string
	}{
		{"not an object", []dataset.Record{withLoc(`[]`)}, "/0/location"},
		{"latitude out of range", []dataset.Record{withLoc(`{"id":"x","name":"X","geo":{"latitude":91,"longitude":0}}`)}, "/0/location/geo/latitude"},
		{"missing name", []dataset.Record{withLoc(`{"id":"x"}`)}, "/0/location/name"},
		{"hours without timezone", []dataset.Record{withLoc(`{"id":"x","name":"X","hours":[]}`)}, "/0/location/timezone"},
		{"radius without geo", []dataset.Record{{Location: json.RawMessage(`{"id":"x","name":"X"}`), ServiceArea: &dataset.ServiceArea{RadiusM: &radius}}}, "/0/service_area/radius_m"},
		{"duplicate id", []dataset.Record{good, good}, "/1/location/id"},
		{"empty interval", []dataset.Record{withLoc(`{"id":"x","name":"X","timezone":"America/New_York","hours":[{"day":"monday","opens":"08:00","closes":"18:00"},{"day":"tuesday","opens":"09:00","closes":"09:00"}]}`)}, "/0/location/hours/1/closes"},
		{"exception ends before it starts", []dataset.Record{withLoc(`{"id":"x","name":"X","timezone":"Europe/Berlin","exception_hours":[{"valid_from":"2026-12-26","valid_through":"2026-12-24"}]}`)}, "/0/location/exception_hours/0/valid_through"},
		{"day the runtime does not interpret", []dataset.Record{withLoc(`{"id":"x","name":"X","timezone":"Europe/Berlin","hours":[{"day":"monday","opens":"08:00","closes":"18:00"},{"day":"public_holidays","opens":"10:00","closes":"14:00"}]}`)}, "/0/location/hours/1/day"},
		{"zone not in IANA", []dataset.Record{withLoc(`{"id":"x","name":"X","timezone":"Mars/Olympus_Mons","hours":[]}`)}, "/0/location/timezone"},
		{"service-area country unknown", []dataset.Record{{Location: json.RawMessage(`{"id":"x","name":"X"}`), ServiceArea: &dataset.ServiceArea{Countries: []string{"Atlantis"}}}}, "/0/service_area/countries/0"},
		{"alias collides with id", []dataset.Record{good, {Location: json.RawMessage(`{"id":"y","name":"Y"}`), Aliases: []string{good.ID}}}, "/1/aliases/0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.recs, Options{})
			var fe *dataset.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *dataset.FieldError", err)
			}
			if fe.Pointer != tc.pointer {
				t.Errorf("pointer %s, want %s (%v)", fe.Pointer, tc.pointer, err)
			}
		})
	}
	src, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := location.NewService(src, location.ServiceOptions{Lookup: lookup.Options{BatchMax: 3}}); err == nil || !strings.Contains(err.Error(), "batch maximum") {
		t.Errorf("batch maximum below 10: err = %v", err)
	}
}

// TestPrivateCountryNotRevealed: countries come only from public records,
// so a private store's country cannot turn a -32602 into an empty success.
func TestPrivateCountryNotRevealed(t *testing.T) {
	pub := dataset.Record{Location: json.RawMessage(`{"id":"pub","name":"Public"}`), ServiceArea: &dataset.ServiceArea{Countries: []string{"US"}}}
	hidden := dataset.Record{Location: json.RawMessage(`{"id":"dark","name":"Dark store"}`), ServiceArea: &dataset.ServiceArea{Countries: []string{"FR"}}, Private: true}
	for _, recs := range [][]dataset.Record{{pub}, {pub, hidden}} {
		s := newService(t, recs, testOptions{})
		_, err := s.Search(context.Background(), nil, searchReq(t, `{"serves":{"address":{"address_country":"FR"}}}`))
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok || ip.Violations[0].Pointer != "/location/serves/address" || ip.Violations[0].Keyword != "unevaluable" {
			t.Errorf("%d records: err = %v, want -32602 unevaluable at /location/serves/address", len(recs), err)
		}
		if got := s.src.Capabilities().Countries; !slices.Equal(got, []string{"US"}) {
			t.Errorf("%d records: capabilities countries %v, want [US]", len(recs), got)
		}
	}
}

// TestAddressCountrySpellings: every spelling of a country the schema allows
// selects the same stores; a spelling that is no country is rejected, never
// an empty success.
func TestAddressCountrySpellings(t *testing.T) {
	s := newStore(t, testOptions{PageMax: 1000})
	want := walk(t, s, `{"serves":{"address":{"address_country":"US"}}}`, 1000)
	if len(want) == 0 {
		t.Fatal("no store serves US")
	}
	for _, c := range []string{"us", "USA", "usa", "United States", "united states of america"} {
		got := walk(t, s, fmt.Sprintf(`{"serves":{"address":{"address_country":%q}}}`, c), 1000)
		if !slices.Equal(got, want) {
			t.Errorf("address_country %q: %d stores, US gives %d", c, len(got), len(want))
		}
	}
	_, err := s.Search(context.Background(), nil, searchReq(t, `{"serves":{"address":{"address_country":"U.S.A"}}}`))
	if ip, ok := rpcerr.AsInvalidParams(err); !ok || ip.Violations[0].Pointer != "/location/serves/address/address_country" {
		t.Errorf("U.S.A: err = %v, want -32602 at /location/serves/address/address_country", err)
	}
}

// loadDefault parses the sample dataset (internal/sampledata) for benchmarks.
func loadDefault() ([]dataset.Record, error) { return sampledata.Records() }

// countingSource counts the calls the generated service makes.
type countingSource struct {
	*Source
	candidates, resolves, serves, items int
}

func (c *countingSource) Candidates(ctx context.Context, h location.Hints) ([]location.Candidate, error) {
	c.candidates++
	return c.Source.Candidates(ctx, h)
}

func (c *countingSource) Resolve(ctx context.Context, keys []string) (map[string][]location.Candidate, error) {
	c.resolves++
	return c.Source.Resolve(ctx, keys)
}

func (c *countingSource) Serves(ctx context.Context, t location.ServesTarget, cands []location.Candidate) ([]bool, error) {
	c.serves++
	return c.Source.Serves(ctx, t, cands)
}

func (c *countingSource) Items(ctx context.Context, items []string, cands []location.Candidate) ([]bool, error) {
	c.items++
	return c.Source.Items(ctx, items, cands)
}

// The engine's source-call bound on the real source: pages whose constraints the
// source pushes down exactly cost ceil((L+1)/B)+1 Candidates calls at most,
// and a lookup of K ids one Resolve call.
func TestServiceSourceCalls(t *testing.T) {
	src, err := New(records(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &countingSource{Source: src}
	const batch = 4
	svc, err := location.NewService(c, location.ServiceOptions{Batch: batch})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{
		`{"pagination":{"limit":10}}`,
		`{"query":"market","pagination":{"limit":10}}`,
		`{"filters":{"amenities":["dev.ucp.amenity.wi_fi"]},"pagination":{"limit":10}}`,
	} {
		*c = countingSource{Source: src}
		resp, err := svc.SearchLocations(context.Background(), nil, searchReq(t, req))
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Locations) != 10 {
			t.Fatalf("%s: %d locations", req, len(resp.Locations))
		}
		if bound := (10+1+batch-1)/batch + 1; c.candidates > bound {
			t.Errorf("%s: %d Candidates calls, bound %d", req, c.candidates, bound)
		}
	}
	*c = countingSource{Source: src}
	req := searchReq(t, `{"serves":{"address":{"address_country":"US"}},"filters":{"items":["sku-tv-55"]},"pagination":{"limit":10}}`)
	if _, err := svc.SearchLocations(context.Background(), nil, req); err != nil {
		t.Fatal(err)
	}
	if c.serves > c.candidates || c.items > c.candidates {
		t.Errorf("%d Serves and %d Items calls for %d batches", c.serves, c.items, c.candidates)
	}
	*c = countingSource{Source: src}
	var ids []string
	for _, r := range records(t)[:12] {
		ids = append(ids, r.ID)
	}
	lreq := &location.LookupRequest{IDs: ids}
	lreq.Serves.V.Address.V.AddressCountry.V, lreq.Serves.V.Address.V.AddressCountry.Set = "US", true
	lreq.Serves.V.Address.Set, lreq.Serves.Set = true, true
	if _, err := svc.LookupLocations(context.Background(), nil, lreq); err != nil {
		t.Fatal(err)
	}
	if c.resolves != 1 || c.serves != 1 || c.candidates != 0 {
		t.Errorf("lookup of %d ids: %d Resolve, %d Serves, %d Candidates calls; want 1, 1, 0", len(ids), c.resolves, c.serves, c.candidates)
	}
}
