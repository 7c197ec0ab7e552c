package finder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// place is a test Location.
type place struct {
	id      string
	geo     *predicate.Geo
	aliases []string
	score   float64 // relevance for any non-empty text
	serves  bool    // answer to any serves target
	items   bool    // answer to any items list
}

// countingSource is an in-memory Source that records every call, so tests
// can hold the engine to its stated bound on source calls.
type countingSource struct {
	places []*place // sorted by id
	caps   Capabilities

	candidates, resolves, serves, items, counts int
	batches                                     []int // candidates returned per call
	exactPushdown                               bool  // drop places that fail serves/items
	failCandidates                              error
	servesErr                                   error
}

func newSource(n int) *countingSource {
	s := &countingSource{caps: Capabilities{Serves: []string{"point", "address"}, Countries: []string{"US"}}}
	for i := range n {
		s.places = append(s.places, &place{id: fmt.Sprintf("loc_%03d", i), score: float64(i % 7), serves: true, items: true})
	}
	return s
}

func (s *countingSource) Capabilities() Capabilities { return s.caps }

func (s *countingSource) Candidates(ctx context.Context, h Hints) ([]Candidate[place], error) {
	s.candidates++
	if s.failCandidates != nil {
		return nil, s.failCandidates
	}
	var all []Candidate[place]
	for _, p := range s.places {
		if s.exactPushdown && (h.Query.Serves != nil && !p.serves || h.Query.Filters.HasItems && !p.items) {
			continue
		}
		c := Candidate[place]{Location: p, Ref: p.id}
		if h.Order == ByRelevance {
			c.Score = p.score
		}
		all = append(all, c)
	}
	slices.SortFunc(all, func(a, b Candidate[place]) int {
		return Compare(h.Order, Position{a.Score, a.Location.id}, Position{b.Score, b.Location.id})
	})
	var out []Candidate[place]
	for _, c := range all {
		if h.After != nil && Compare(h.Order, *h.After, Position{c.Score, c.Location.id}) >= 0 {
			continue
		}
		if len(out) == h.Limit {
			break
		}
		out = append(out, c)
	}
	s.batches = append(s.batches, len(out))
	return out, nil
}

func (s *countingSource) Resolve(ctx context.Context, keys []string) (map[string][]Candidate[place], error) {
	s.resolves++
	out := map[string][]Candidate[place]{}
	for _, k := range keys {
		for _, p := range s.places {
			if p.id == k || slices.Contains(p.aliases, k) {
				out[k] = append(out[k], Candidate[place]{Location: p})
			}
		}
	}
	return out, nil
}

func (s *countingSource) Serves(ctx context.Context, t predicate.Target, cands []Candidate[place]) ([]bool, error) {
	s.serves++
	if s.servesErr != nil {
		return nil, s.servesErr
	}
	out := make([]bool, len(cands))
	for i, c := range cands {
		out[i] = c.Location.serves
	}
	return out, nil
}

func (s *countingSource) Items(ctx context.Context, items []string, cands []Candidate[place]) ([]bool, error) {
	s.items++
	out := make([]bool, len(cands))
	for i, c := range cands {
		out[i] = c.Location.items
	}
	return out, nil
}

var placeBinding = Binding[place]{
	ID:        func(p *place) string { return p.id },
	Candidate: func(p *place) predicate.Candidate { return predicate.Candidate{ID: p.id, Geo: p.geo} },
}

func newEngine(t *testing.T, s *countingSource, opts Options) *Engine[place] {
	t.Helper()
	e, err := New[place](s, placeBinding, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func ids(locs []*place) []string {
	out := make([]string, len(locs))
	for i, l := range locs {
		out[i] = l.id
	}
	return out
}

// walk pages through a search and returns every id in order.
func walk(t *testing.T, e *Engine[place], req SearchRequest) []string {
	t.Helper()
	var got []string
	for range 1000 {
		page, err := e.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		got = append(got, ids(page.Locations)...)
		if !page.HasNextPage {
			if page.Cursor != "" {
				t.Fatalf("cursor %q on the last page", page.Cursor)
			}
			return got
		}
		c := page.Cursor
		req.Cursor = &c
	}
	t.Fatal("search did not end")
	return nil
}

func TestSearchWalksEveryMatchOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		limit int
		batch int
		text  string
		drop  func(i int) bool // places that fail serves
	}{
		{"by id, exact pages", 30, 10, 0, "", nil},
		{"by id, small batches", 31, 4, 3, "", nil},
		{"by id, serves drops every third", 40, 5, 4, "", func(i int) bool { return i%3 == 0 }},
		{"by relevance", 25, 6, 5, "coffee", nil},
		{"by relevance, serves drops some", 25, 3, 2, "coffee", func(i int) bool { return i%4 == 1 }},
		{"empty source", 0, 10, 0, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSource(tc.n)
			var q predicate.Query
			if tc.drop != nil {
				q.Serves = &predicate.Target{Key: "point", Point: &predicate.Geo{Lat: 1, Lon: 2}}
				for i, p := range s.places {
					p.serves = !tc.drop(i)
				}
			}
			e := newEngine(t, s, Options{Batch: tc.batch})
			limit := tc.limit
			got := walk(t, e, SearchRequest{Query: q, Text: tc.text, Limit: &limit})

			var want []string
			order := ByID
			if tc.text != "" {
				order = ByRelevance
			}
			var wantCands []*place
			for _, p := range s.places {
				if p.serves {
					wantCands = append(wantCands, p)
				}
			}
			slices.SortFunc(wantCands, func(a, b *place) int {
				sa, sb := a.score, b.score
				if order == ByID {
					sa, sb = 0, 0
				}
				return Compare(order, Position{sa, a.id}, Position{sb, b.id})
			})
			want = ids(wantCands)
			if !slices.Equal(got, want) {
				t.Errorf("walked %v\nwant   %v", got, want)
			}
		})
	}
}

// TestSearchSourceCallBound holds the engine's stated cost: a page of limit L
// costs at most ceil((L+1)/B)+1 Candidates calls with exact pushdown, and at
// most one Serves and one Items call per batch.
func TestSearchSourceCallBound(t *testing.T) {
	for _, tc := range []struct {
		n, limit, batch int
		text            string
		serves, items   bool
	}{
		{1000, 10, 0, "", false, false},
		{1000, 10, 1, "", false, false},
		{1000, 10, 3, "", true, true},
		{1000, 10, 11, "", true, false},
		{1000, 10, 12, "q", false, true},
		{1000, 100, 7, "q", true, true},
		{11, 10, 11, "", true, true}, // source ends exactly at limit+1
		{5, 10, 2, "", false, false},
		{0, 1, 1, "", true, true},
	} {
		name := fmt.Sprintf("n=%d L=%d B=%d text=%q serves=%v items=%v", tc.n, tc.limit, tc.batch, tc.text, tc.serves, tc.items)
		t.Run(name, func(t *testing.T) {
			s := newSource(tc.n)
			s.exactPushdown = true
			for i, p := range s.places {
				p.serves = i%2 == 0
				p.items = i%3 != 1
			}
			var q predicate.Query
			if tc.serves {
				q.Serves = &predicate.Target{Key: "point", Point: &predicate.Geo{}}
			}
			if tc.items {
				q.Filters = predicate.Filters{HasItems: true, Items: []string{"sku"}}
			}
			e := newEngine(t, s, Options{Batch: tc.batch, Pages: pagingOpts(tc.limit)})
			limit := tc.limit
			page, err := e.Search(context.Background(), SearchRequest{Query: q, Text: tc.text, Limit: &limit})
			if err != nil {
				t.Fatal(err)
			}
			b := tc.batch
			if b == 0 {
				b = max(tc.limit+1, DefaultMinBatch)
			}
			bound := (tc.limit+1+b-1)/b + 1
			if s.candidates > bound {
				t.Errorf("%d Candidates calls, bound ceil((L+1)/B)+1 = %d", s.candidates, bound)
			}
			if s.serves > s.candidates || s.items > s.candidates {
				t.Errorf("%d Serves and %d Items calls for %d batches", s.serves, s.items, s.candidates)
			}
			if !tc.serves && s.serves != 0 || !tc.items && s.items != 0 {
				t.Errorf("Serves %d / Items %d called without the constraint", s.serves, s.items)
			}
			if len(page.Locations) > tc.limit {
				t.Errorf("page of %d, limit %d", len(page.Locations), tc.limit)
			}
		})
	}
}

func pagingOpts(limit int) pagination.Options {
	return pagination.Options{MaxLimit: max(limit, 100)}
}

func TestLookupOneResolveCall(t *testing.T) {
	s := newSource(60)
	s.places[3].aliases = []string{"alias-3", "shared"}
	s.places[4].aliases = []string{"shared"}
	s.places[5].serves = false
	e := newEngine(t, s, Options{Lookup: lookup.Options{BatchMax: 20}})
	var in []string
	for i := range 30 {
		in = append(in, fmt.Sprintf("loc_%03d", i))
	}
	in = append([]string{"alias-3", "missing", "shared", "loc_003"}, in...)
	q := predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Country: "usa"}}}
	res, err := e.Lookup(context.Background(), LookupRequest{IDs: in, Query: q})
	if err != nil {
		t.Fatal(err)
	}
	if s.resolves != 1 || s.serves != 1 || s.items != 0 || s.candidates != 0 {
		t.Errorf("calls: resolve %d serves %d items %d candidates %d; want 1, 1, 0, 0", s.resolves, s.serves, s.items, s.candidates)
	}
	if res.Unprocessed == 0 || len(res.Processed) != 20 {
		t.Errorf("processed %d, unprocessed %d", len(res.Processed), res.Unprocessed)
	}
	first := res.Entries[0]
	if first.Location.id != "loc_003" || !slices.Equal(first.Inputs, []string{"alias-3", "shared", "loc_003"}) {
		t.Errorf("first entry %s inputs %v", first.Location.id, first.Inputs)
	}
	for _, en := range res.Entries {
		if en.Location.id == "loc_005" {
			t.Error("loc_005 does not serve the target but was returned")
		}
	}
	var codes []string
	for _, m := range res.Messages {
		codes = append(codes, m.Code)
	}
	if !slices.Equal(codes, []string{lookup.CodeBatchLimitApplied, lookup.CodeNotFound}) {
		t.Errorf("message codes %v", codes)
	}
}

func TestRejectedBeforeAnyCandidate(t *testing.T) {
	geo := &predicate.Geo{Lat: 1, Lon: 2}
	for _, tc := range []struct {
		name    string
		caps    Capabilities
		q       predicate.Query
		pointer string
		keyword string
		text    string
	}{
		{"point not supported", Capabilities{Serves: []string{"address"}, Countries: []string{"US"}},
			predicate.Query{Serves: &predicate.Target{Key: "point", Point: geo}}, "/serves/point", "unsupported", "evaluates address"},
		{"address not supported", Capabilities{},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Country: "US"}}}, "/serves/address", "unsupported", "no serves target"},
		{"country not modelled", Capabilities{Serves: []string{"address"}, Countries: []string{"US"}},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Country: "France"}}}, "/serves/address", "unevaluable", "country FR"},
		{"not a country", Capabilities{Serves: []string{"address"}, Countries: []string{"US"}},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Country: "Atlantis"}}}, "/serves/address/address_country", "format", "Atlantis"},
		{"postal code without country", Capabilities{Serves: []string{"address"}, Countries: []string{"US"}},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{PostalCode: "10001"}}}, "/serves/address", "unevaluable", "10001"},
		{"region without country", Capabilities{Serves: []string{"address"}, Countries: []string{"US", "CA"}},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Region: "NY"}}}, "/serves/address", "unevaluable", `address_region "NY" without address_country names no country (region codes repeat across countries); add address_country, one of CA, US`},
		{"region without country, no countries", Capabilities{Serves: []string{"address"}},
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Region: "NY"}}}, "/serves/address", "unevaluable", "models no country's addresses"},
		{"extension key not offered", Capabilities{Serves: []string{"point"}},
			predicate.Query{Serves: &predicate.Target{Key: "com.example.zone"}}, "/serves/com.example.zone", "propertyNames", "; use point"},
		{"extension key hint lists only offered keys", Capabilities{Serves: []string{"address", "com.example.other"}, Countries: []string{"US"}},
			predicate.Query{Serves: &predicate.Target{Key: "com.example.zone"}}, "/serves/com.example.zone", "propertyNames", "; use address or com.example.other"},
		{"filter not offered", Capabilities{},
			predicate.Query{Filters: predicate.Filters{Extensions: []predicate.Extension{{Key: "com.example.vegan"}}}}, "/filters/com.example.vegan", "unsupported", ""},
		{"radius above cap", Capabilities{MaxDistance: 1000},
			predicate.Query{Distance: &predicate.Distance{Center: *geo, Max: 1001}}, "/distance/max", "maximum", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSource(5)
			s.caps = tc.caps
			e := newEngine(t, s, Options{})
			_, err := e.Search(context.Background(), SearchRequest{Query: tc.q})
			assertInvalid(t, err, tc.pointer, tc.keyword, tc.text)
			_, err = e.Lookup(context.Background(), LookupRequest{IDs: []string{"loc_001"}, Query: tc.q})
			assertInvalid(t, err, tc.pointer, tc.keyword, tc.text)
			if s.candidates+s.resolves+s.serves+s.items != 0 {
				t.Errorf("source was called (%d candidates, %d resolves) before the rejection", s.candidates, s.resolves)
			}
		})
	}
}

func assertInvalid(t *testing.T, err error, pointer, keyword, text string) {
	t.Helper()
	ip, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		t.Fatalf("error %v, want InvalidParams at %s", err, pointer)
	}
	v := ip.Violations[0]
	if v.Pointer != pointer || v.Keyword != keyword || !strings.Contains(v.Message, text) {
		t.Errorf("violation %+v, want %s %s containing %q", v, pointer, keyword, text)
	}
}

func TestServesUnevaluableMessageSaysItOnce(t *testing.T) {
	s := newSource(3)
	s.servesErr = fmt.Errorf("%w: regions of Mars are not modelled", predicate.ErrUnevaluable)
	e := newEngine(t, s, Options{})
	_, err := e.Search(context.Background(), SearchRequest{Query: predicate.Query{Serves: &predicate.Target{Key: "point", Point: &predicate.Geo{}}}})
	assertInvalid(t, err, "/serves/point", "unevaluable", "this Business cannot evaluate the serves target: regions of Mars are not modelled")
	ip, _ := rpcerr.AsInvalidParams(err)
	if strings.Contains(ip.Violations[0].Message, predicate.ErrUnevaluable.Error()) {
		t.Errorf("message repeats the sentinel: %q", ip.Violations[0].Message)
	}
}

func TestCursorBoundToDigest(t *testing.T) {
	s := newSource(30)
	e := newEngine(t, s, Options{})
	limit := 5
	page, err := e.Search(context.Background(), SearchRequest{Limit: &limit, Digest: [32]byte{1}})
	if err != nil || !page.HasNextPage {
		t.Fatalf("first page: %v %+v", err, page)
	}
	c := page.Cursor
	_, err = e.Search(context.Background(), SearchRequest{Limit: &limit, Cursor: &c, Digest: [32]byte{2}})
	assertInvalid(t, err, "/pagination/cursor", "cursor", "does not match")
}

func TestSearchStopsWhenCallerGoesAway(t *testing.T) {
	s := newSource(100)
	for _, p := range s.places {
		p.serves = false
	}
	e := newEngine(t, s, Options{Batch: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Search(ctx, SearchRequest{Query: predicate.Query{Serves: &predicate.Target{Key: "point", Point: &predicate.Geo{}}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if s.candidates != 0 {
		t.Errorf("%d Candidates calls after cancellation", s.candidates)
	}
}

func TestTotalCountPolicy(t *testing.T) {
	s := newSource(12)
	e := newEngine(t, s, Options{Batch: 50})
	all := 20
	page, err := e.Search(context.Background(), SearchRequest{Limit: &all})
	if err != nil {
		t.Fatal(err)
	}
	if page.HasNextPage || page.TotalCount == nil || *page.TotalCount != 12 {
		t.Errorf("one page holding every match: has_next_page %v, total_count %v, want false and 12", page.HasNextPage, page.TotalCount)
	}
	// The source runs dry inside the first batch here too, but the page has
	// a next one: whether a source runs dry that early depends on its
	// prefilter, so total_count is omitted and answers stay source-independent.
	limit := 5
	page, err = e.Search(context.Background(), SearchRequest{Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if !page.HasNextPage || page.TotalCount != nil {
		t.Errorf("first of several pages: has_next_page %v, total_count %v, want true and omitted", page.HasNextPage, page.TotalCount)
	}
	c := page.Cursor
	page, err = e.Search(context.Background(), SearchRequest{Limit: &limit, Cursor: &c})
	if err != nil {
		t.Fatal(err)
	}
	if page.TotalCount != nil {
		t.Errorf("second page: total_count %d, want it omitted", *page.TotalCount)
	}
	s2 := newSource(100)
	e2 := newEngine(t, s2, Options{Batch: 6})
	page, err = e2.Search(context.Background(), SearchRequest{Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if page.TotalCount != nil {
		t.Errorf("source not exhausted: total_count %d, want it omitted", *page.TotalCount)
	}
}

func TestSourceBreakingTheKeysetIsAnError(t *testing.T) {
	s := &misorderedSource{newSource(5)}
	e, err := New[place](s, placeBinding, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Search(context.Background(), SearchRequest{})
	if err == nil || !strings.Contains(err.Error(), "not after") {
		t.Fatalf("error %v, want an ordering error", err)
	}
}

type misorderedSource struct{ *countingSource }

func (m *misorderedSource) Candidates(ctx context.Context, h Hints) ([]Candidate[place], error) {
	out, err := m.countingSource.Candidates(ctx, h)
	slices.Reverse(out)
	return out, err
}

func TestNewRejectsBadCapabilities(t *testing.T) {
	for name, caps := range map[string]Capabilities{
		"lower-case country": {Countries: []string{"us"}},
		"alpha-3 country":    {Countries: []string{"USA"}},
		"bad serves key":     {Serves: []string{"zone"}},
		"counts no counter":  {Counts: true},
		"negative radius":    {MaxDistance: -1},
	} {
		s := newSource(1)
		s.caps = caps
		if _, err := New[place](s, placeBinding, Options{}); err == nil {
			t.Errorf("%s: New accepted %+v", name, caps)
		}
	}
}

// A selective predicate the source cannot push down must not cost one call
// per first-batch of rows: batches double up to MaxBatchGrowth times the
// first one.
func TestSelectiveSearchBatchesGrow(t *testing.T) {
	s := newSource(1000)
	for i, p := range s.places {
		p.serves = i == 999
	}
	e := newEngine(t, s, Options{Batch: 4})
	limit := 10
	page, err := e.Search(context.Background(), SearchRequest{Limit: &limit, Query: predicate.Query{Serves: &predicate.Target{Key: "point", Point: &predicate.Geo{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(page.Locations); !slices.Equal(got, []string{"loc_999"}) {
		t.Errorf("page %v, want [loc_999]", got)
	}
	// 4+8+...+256 (capped at 64x4) reads 508 rows in 7 calls; two more
	// capped calls reach the end: 9 calls, where fixed batches of 4 need 250.
	if s.candidates > 9 {
		t.Errorf("%d Candidates calls (batches %v), want at most 9", s.candidates, s.batches)
	}
	for i, n := range s.batches[:len(s.batches)-1] {
		if want := 4 << i; n != min(want, 4*MaxBatchGrowth) {
			t.Errorf("batch %d had %d candidates, want %d", i, n, want)
		}
	}
}

// countingCounter is a source that can count its matches cheaply.
type countingCounter struct {
	*countingSource
	total int
}

func (c *countingCounter) Count(context.Context, predicate.Query) (int, error) {
	c.counts++
	return c.total, nil
}

func TestTotalCountFromCounter(t *testing.T) {
	s := &countingCounter{countingSource: newSource(100), total: 100}
	s.caps.Counts = true
	e, err := New[place](s, placeBinding, Options{Batch: 5})
	if err != nil {
		t.Fatal(err)
	}
	limit := 3
	page, err := e.Search(context.Background(), SearchRequest{Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if page.TotalCount == nil || *page.TotalCount != 100 || s.counts != 1 {
		t.Errorf("total_count %v after %d Count calls, want 100 after 1", page.TotalCount, s.counts)
	}
	if !page.HasNextPage {
		t.Error("no next page")
	}
}

// viewSource attaches a predicate view to every candidate, its Value
// already the Location or not, and with the wrong id when lie is set.
type viewSource struct {
	*countingSource
	withValue, lie bool
}

func (v *viewSource) Candidates(ctx context.Context, h Hints) ([]Candidate[place], error) {
	out, err := v.countingSource.Candidates(ctx, h)
	for i := range out {
		pc := &predicate.Candidate{ID: out[i].Location.id}
		if v.lie {
			pc.ID += "x"
		}
		if v.withValue {
			pc.Value = out[i].Location
		}
		out[i].Predicate = pc
	}
	return out, err
}

// A source's views give the same pages whether or not they carry the
// Location already (used as they are, or copied), and a view of another
// Location is refused either way.
func TestPredicateViewsFromTheSource(t *testing.T) {
	four := 4
	want := walk(t, newEngine(t, newSource(25), Options{}), SearchRequest{Limit: &four})
	for _, withValue := range []bool{false, true} {
		e, err := New[place](&viewSource{countingSource: newSource(25), withValue: withValue}, placeBinding, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := walk(t, e, SearchRequest{Limit: &four}); !slices.Equal(got, want) {
			t.Errorf("withValue %v: %v, want %v", withValue, got, want)
		}
		e, err = New[place](&viewSource{countingSource: newSource(25), withValue: withValue, lie: true}, placeBinding, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Search(context.Background(), SearchRequest{Limit: &four}); err == nil || !strings.Contains(err.Error(), "predicate view of") {
			t.Errorf("withValue %v, view of another id: error %v", withValue, err)
		}
	}
}

// TestSearchEvaluatesNoCandidatePastThePage holds the engine to evaluating
// local predicates only up to the page's last needed match when no
// batch-wide predicate (serves, items) follows, and to every candidate of
// the batch when one does, with the same pages either way.
func TestSearchEvaluatesNoCandidatePastThePage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		serves    bool
		wantEvals int
	}{
		// limit 3 needs 4 matches: loc_000, 002, 004 and 006, the 7th
		// candidate of the batch.
		{"local predicates only", false, 7},
		// Serves is asked once for the batch's survivors, so the whole
		// first batch (DefaultMinBatch) is evaluated.
		{"serves follows", true, DefaultMinBatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSource(40)
			var evaluated []string
			s.caps.Filters = map[string]predicate.ExtensionFilter{
				"com.example.even": func(_ context.Context, c *predicate.Candidate, _ json.RawMessage) (bool, error) {
					evaluated = append(evaluated, c.ID)
					var n int
					_, err := fmt.Sscanf(c.ID, "loc_%d", &n)
					return err == nil && n%2 == 0, err
				},
			}
			q := predicate.Query{Filters: predicate.Filters{Extensions: []predicate.Extension{{Key: "com.example.even", Raw: json.RawMessage("true")}}}}
			if tc.serves {
				q.Serves = &predicate.Target{Key: "point", Point: &predicate.Geo{Lat: 1, Lon: 2}}
			}
			e := newEngine(t, s, Options{})
			three := 3
			page, err := e.Search(context.Background(), SearchRequest{Query: q, Limit: &three})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(page.Locations); !slices.Equal(got, []string{"loc_000", "loc_002", "loc_004"}) || !page.HasNextPage {
				t.Fatalf("first page %v (next page %v)", got, page.HasNextPage)
			}
			if len(evaluated) != tc.wantEvals {
				t.Errorf("evaluated %d candidates (%v), want %d", len(evaluated), evaluated, tc.wantEvals)
			}
			var want []string
			for i := 0; i < 40; i += 2 {
				want = append(want, fmt.Sprintf("loc_%03d", i))
			}
			if got := walk(t, e, SearchRequest{Query: q, Limit: &three}); !slices.Equal(got, want) {
				t.Errorf("walked %v\nwant   %v", got, want)
			}
		})
	}
}
