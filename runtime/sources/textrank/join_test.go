package textrank

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// joinFields is a collection with shared and rare tokens in every field,
// names with repeated tokens, and empty documents.
func joinFields(n int) []Fields {
	words := []string{"Harvest", "Market", "Lane", "Express", "Main", "Street", "北京", "Straße", "Wi-Fi", "Parking"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(k int) string {
		var b strings.Builder
		for i := range k {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	fields := make([]Fields, n)
	for i := range fields {
		if i%17 == 5 {
			continue // no text at all
		}
		fields[i] = Fields{Name: pick(1 + r.IntN(4)), Address: []string{pick(2), pick(1)}, Amenities: []string{pick(r.IntN(3))}}
	}
	return fields
}

// TestJoinEqualsOneIndex: indexing a collection in parts, in any order, and
// joining them gives the index of adding every document in the final order
// to one Index, array for array, whether or not documents' terms cross the
// parts' blocks, and whether or not the parts remember every value's terms.
func TestJoinEqualsOneIndex(t *testing.T) {
	saved, savedKept := partBlock, valuesKept
	defer func() { partBlock, valuesKept = saved, savedKept }()
	for _, tc := range []struct {
		name  string
		docs  int
		parts int
		block int
		kept  int
	}{
		{"empty", 0, 1, saved, savedKept},
		{"one part", 50, 1, saved, savedKept},
		{"two parts", 300, 2, saved, savedKept},
		{"many parts", 1000, 13, saved, savedKept},
		{"more parts than documents", 5, 9, saved, savedKept},
		{"small blocks", 600, 3, 16, savedKept},
		{"blocks smaller than a document", 200, 2, 3, savedKept},
		{"values forgotten often", 600, 3, saved, 2},
		{"no value remembered", 300, 2, saved, 0},
	} {
		partBlock, valuesKept = tc.block, tc.kept
		fields := joinFields(tc.docs)
		r := rand.New(rand.NewPCG(uint64(tc.docs), uint64(tc.parts)))
		order := make([]int32, tc.docs) // read position -> final number
		for i, d := range r.Perm(tc.docs) {
			order[i] = int32(d)
		}
		want := NewIndex()
		final := make([]Fields, tc.docs)
		for i, d := range order {
			final[d] = fields[i]
		}
		for _, f := range final {
			want.Add(f)
		}
		want.Finish()
		parts := make([]*Part, tc.parts)
		for k := range parts {
			parts[k] = NewPart()
			for _, f := range fields[tc.docs*k/tc.parts : tc.docs*(k+1)/tc.parts] {
				parts[k].Add(f)
			}
		}
		got, err := Join(parts, order)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(got.Frozen(), want.Frozen()) {
			t.Errorf("%s: joined index differs from one index", tc.name)
		}
	}
}

// TestJoinRejectsBadOrder: an order that is not a permutation of the
// documents is an error saying so, never a broken index.
func TestJoinRejectsBadOrder(t *testing.T) {
	part := func() *Part {
		p := NewPart()
		p.Add(Fields{Name: "a"})
		p.Add(Fields{Name: "b"})
		return p
	}
	for _, tc := range []struct {
		name  string
		order []int32
		want  string
	}{
		{"short", []int32{0}, "1 positions for 2"},
		{"repeat", []int32{1, 1}, "position 1 moves to 1"},
		{"out of range", []int32{0, 2}, "position 1 moves to 2"},
		{"negative", []int32{-1, 0}, "position 0 moves to -1"},
	} {
		if _, err := Join([]*Part{part()}, tc.order); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestAddIsAddTermsOfAnalyze: Add's scratch tokenising indexes exactly
// what AddTerms(Analyze(f)) does, for ASCII and other scripts, compounds,
// repeated tokens and empty fields.
func TestAddIsAddTermsOfAnalyze(t *testing.T) {
	fields := append(joinFields(400),
		Fields{Name: "Wi-Fi Café O'Neil's", Address: []string{"Straße 5", "New Year's-Eve Rd"}, Amenities: []string{"無料駐車場", "Ｗｉ－Ｆｉ"}},
		Fields{Name: "Market Market market", Address: []string{"", "market"}, Amenities: nil},
		Fields{Name: "", Address: []string{"a-b-c d'e"}, Amenities: []string{"-'-", "x-"}},
		Fields{Name: "ー北京-Lane", Address: []string{"Ελληνικά-Λέξη"}, Amenities: []string{"Пример's"}},
	)
	for _, tc := range []struct {
		name   string
		fields []Fields
	}{
		{"generated", fields[:400]},
		{"scripts and compounds", fields[400:]},
		{"all", fields},
	} {
		viaAdd, viaTerms := NewIndex(), NewIndex()
		for _, f := range tc.fields {
			viaAdd.Add(f)
			viaTerms.AddTerms(Analyze(f))
		}
		viaAdd.Finish()
		viaTerms.Finish()
		if !reflect.DeepEqual(viaAdd.Frozen(), viaTerms.Frozen()) {
			t.Errorf("%s: Add and AddTerms(Analyze) index differently:\n%v\n%v", tc.name, viaAdd.Frozen(), viaTerms.Frozen())
		}
	}
}
