package textrank

import (
	"cmp"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/internal/sampledata"
)

// bruteHits scores every document with Query.Score, the reference the
// index must reproduce: positive scores only, best first, then by number.
func bruteHits(q Query, docs []Doc, keep func(int32) bool) ([]int32, []float64) {
	type hit struct {
		d int32
		s float64
	}
	var hits []hit
	for i, d := range docs {
		if s := q.Score(d); s > 0 && (keep == nil || keep(int32(i))) {
			hits = append(hits, hit{int32(i), s})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.s, a.s) })
	ds, ss := make([]int32, len(hits)), make([]float64, len(hits))
	for i, h := range hits {
		ds[i], ss[i] = h.d, h.s
	}
	return ds, ss
}

func checkIndex(t *testing.T, fields []Fields, queries []string) {
	t.Helper()
	ix := NewIndex()
	docs := make([]Doc, len(fields))
	for i, f := range fields {
		ix.Add(f)
		docs[i] = NewDoc(f)
	}
	ix.Finish()
	odd := func(d int32) bool { return d%2 == 1 }
	for _, text := range queries {
		q := NewQuery(text)
		for _, keep := range []func(int32) bool{nil, odd} {
			h := ix.Search(q, keep)
			wantD, wantS := bruteHits(q, docs, keep)
			if !slices.Equal(h.Docs, wantD) || !slices.Equal(h.Scores, wantS) {
				t.Fatalf("query %q (filtered %v):\nindex %v %v\nbrute %v %v", text, keep != nil, h.Docs, h.Scores, wantD, wantS)
			}
			for i := range docs {
				if h.Has(int32(i)) != slices.Contains(wantD, int32(i)) {
					t.Fatalf("query %q: Has(%d) = %v", text, i, h.Has(int32(i)))
				}
			}
		}
	}
}

// TestIndexMatchesScore proves the inverted index returns exactly the
// documents Query.Score ranks above zero, with the same scores and order,
// on hand-made documents that exercise every rule (fields, prefixes,
// compounds, phrases, scripts without spaces) and on the default dataset.
func TestIndexMatchesScore(t *testing.T) {
	fields := []Fields{
		{Name: "Harvest Lane Market", Address: []string{"12 Market Street", "Brooklyn", "NY"}, Amenities: []string{"Free Wi-Fi"}},
		{Name: "Market Harvest", Address: []string{"Harvest Road"}},
		{Name: "Voltbay Electronics", Amenities: []string{"Electronics recycling", "Wi-Fi"}},
		{Name: "München Straße", Address: []string{"Straße 5", "München"}},
		{Name: "無料駐車場 Store"},
		{Name: "Marketplace", Address: []string{"Markets Lane"}},
		{Name: ""},
		{Name: "New Year's Market Market"},
	}
	queries := []string{"", "market", "MARKET harvest", "harvest market", "mar", "ma", "wifi", "wi-fi", "electro",
		"strasse munchen", "駐車", "new year's", "year s market", "market market", "zzz", "lane market street", "s"}
	checkIndex(t, fields, queries)

	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	var all []Fields
	for _, r := range recs {
		all = append(all, fieldsOf(t, r.Location))
	}
	checkIndex(t, all, append(queries, "electronics", "Voltbay Electronics Yonkers", "pharmacy open late", "berlin", "tokyo 駅"))
}
