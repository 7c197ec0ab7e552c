package textrank

import (
	"math"
	"reflect"
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

// FuzzJoin checks on arbitrary text that parts joined index exactly what
// one Index does: the parts tokenise ASCII text their own way (Part's
// appendTermsASCII) and keep tokens and values in tables of their own.
func FuzzJoin(f *testing.F) {
	f.Add("Harvest Lane-Market", "O'Neil's Wi-Fi", "a--b -c d'", "Straße 5")
	f.Add("X-Y-Z", "x-y-z", "XYZ", "無料-駐車場")
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		fields := []Fields{
			{Name: a, Address: []string{b, c}, Amenities: []string{d}},
			{Name: b, Address: []string{a, a}},
			{Name: c + "-" + d, Amenities: []string{a, b}},
			{Name: d, Address: []string{c}},
		}
		want := NewIndex()
		for _, f := range fields {
			want.Add(f)
		}
		want.Finish()
		parts := []*Part{NewPart(), NewPart()}
		for i, f := range fields {
			parts[i%2].Add(f)
		}
		// Part 0 holds documents 0 and 2, part 1 documents 1 and 3.
		got, err := Join(parts, []int32{0, 2, 1, 3})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Frozen(), want.Frozen()) {
			t.Fatalf("joined index differs from one index:\n%v\n%v", got.Frozen(), want.Frozen())
		}
	})
}
