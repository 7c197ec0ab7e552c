package textrank

import (
	"math"
	"testing"
)

// FuzzScore checks on arbitrary text that tokenising never panics or yields
// empty tokens, that scores are finite and never negative, and that a
// non-empty query always finds a store named by its own text.
func FuzzScore(f *testing.F) {
	for _, s := range []string{"", "Harvest Lane Market", "Straße 12", "無料駐車場", "Ｗｉ－Ｆｉ", "New Year's", "-'-", "a\u0301\u0301", "\xff\xfe", "ー"} {
		f.Add(s, "market")
	}
	f.Fuzz(func(t *testing.T, query, other string) {
		for _, tok := range Tokenize(query) {
			if tok == "" {
				t.Fatalf("Tokenize(%q) produced an empty token", query)
			}
		}
		q := NewQuery(query)
		self := q.Score(NewDoc(Fields{Name: query}))
		rest := q.Score(NewDoc(Fields{Name: other, Address: []string{other}, Amenities: []string{query}}))
		for _, s := range []float64{self, rest} {
			if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
				t.Fatalf("query %q scored %v", query, s)
			}
		}
		if !q.Empty() && self < nameWeight {
			t.Fatalf("query %q scored %v against a store with the same name", query, self)
		}
	})
}

// FuzzIndex checks on arbitrary text that the inverted index finds exactly
// the documents, scores and order that scoring every document gives.
func FuzzIndex(f *testing.F) {
	f.Add("Harvest Lane Market", "Market Street", "Free Wi-Fi", "market harvest")
	f.Add("無料駐車場", "Straße 5", "New Year's", "駐車 strasse")
	f.Fuzz(func(t *testing.T, a, b, c, query string) {
		fields := []Fields{
			{Name: a, Address: []string{b}, Amenities: []string{c}},
			{Name: b, Address: []string{c, a}},
			{Name: c + " " + a, Amenities: []string{b}},
			{Name: query},
		}
		checkIndex(t, fields, []string{query, a, b + " " + c})
	})
}
