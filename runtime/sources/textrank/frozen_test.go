package textrank

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func frozenFixture() Frozen {
	ix := NewIndex()
	ix.Add(Fields{Name: "Harvest Market", Address: []string{"1 Main St"}})
	ix.Add(Fields{Name: "Market Express", Amenities: []string{"Parking"}})
	ix.Finish()
	return ix.Frozen()
}

// clone deep-copies f, so a case can break its copy alone.
func (f Frozen) clone() Frozen {
	return Frozen{Docs: f.Docs, Vocab: slices.Clone(f.Vocab), Off: slices.Clone(f.Off), Post: slices.Clone(f.Post),
		NameOff: slices.Clone(f.NameOff), NameSeq: slices.Clone(f.NameSeq)}
}

// TestFromFrozen: the Frozen form of an index gives back an index that
// searches alike, and each broken invariant is an error saying which.
func TestFromFrozen(t *testing.T) {
	good := frozenFixture()
	ix, err := FromFrozen(good.clone())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ix.Frozen(), good) {
		t.Fatal("round trip differs")
	}
	if h := ix.Search(NewQuery("market"), nil); len(h.Docs) != 2 {
		t.Fatalf("search of the reopened index: %v", h.Docs)
	}
	for _, tc := range []struct {
		name  string
		spoil func(*Frozen)
		want  string
	}{
		{"vocab out of order", func(f *Frozen) { f.Vocab[0], f.Vocab[1] = f.Vocab[1], f.Vocab[0] }, "is not after token"},
		{"offsets short", func(f *Frozen) { f.Off = f.Off[:len(f.Off)-1] }, "list offsets"},
		{"list backwards", func(f *Frozen) { f.Off[1], f.Off[2] = f.Off[2], f.Off[1] }, "ends"},
		{"document out of range", func(f *Frozen) { f.Post[0] = 7 }, "holds document 7"},
		{"names short", func(f *Frozen) { f.NameOff = f.NameOff[:1] }, "name offsets"},
		{"name token out of range", func(f *Frozen) { f.NameSeq[0] = 999 }, "vocab id 999"},
		{"negative documents", func(f *Frozen) { f.Docs = -1 }, "-1 documents"},
	} {
		f := good.clone()
		tc.spoil(&f)
		if _, err := FromFrozen(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
