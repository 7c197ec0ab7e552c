package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// recorder keeps what a Visitor is shown.
type recorder struct {
	ids  []string
	locs []string
	offs []int64
}

func (r *recorder) Visit(rec *Record, loc []byte) {
	r.ids = append(r.ids, rec.ID)
	r.locs = append(r.locs, string(loc))
	r.offs = append(r.offs, rec.Span.Off)
}

// TestOpenFileWithVisitsEveryRecordOnce: whatever the number of sections
// and wherever the guesses fall, the kept Visitors saw exactly Records, in
// file order, each with the text ReadLocation returns, and a file the fast
// path declines is seen by none.
func TestOpenFileWithVisitsEveryRecordOnce(t *testing.T) {
	pretty := "[\n{\"location\":{\"id\":\"a\",\n\"hours\":[\n{\"day\":\"monday\"},\n{\"day\":\"tuesday\"}]},\n\"items\":[\n\"x\",\n\"y\"]},\n{\"location\":{\"id\":\"b\"}}\n]\n"
	cases := []struct {
		name, data string
		visited    bool
	}{
		{"sample dataset", string(sampleJSON(t)), true},
		{"pretty-printed", pretty, true},
		{"one record", `[{"location":{"id":"a"}}]`, true},
		{"empty", "[\n]\n", true},
		{"declined", `[{"location":{"id":"a"},"aliases":["x\"y"]}]`, false},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range testshared.RaceCases([]int{0, 1, 2, 3, 7, 64}, []int{0, 3}) {
			made := 0
			df, err := OpenFileWith(path, parts, func() Visitor { made++; return &recorder{} })
			if err != nil {
				t.Fatalf("%s, %d sections: %v", tc.name, parts, err)
			}
			if !tc.visited {
				if df.Visitors() != nil {
					t.Errorf("%s: %d Visitors of a strictly parsed file", tc.name, len(df.Visitors()))
				}
				df.Close()
				continue
			}
			var all recorder
			for _, v := range df.Visitors() {
				r := v.(*recorder)
				all.ids = append(all.ids, r.ids...)
				all.locs = append(all.locs, r.locs...)
				all.offs = append(all.offs, r.offs...)
			}
			var want recorder
			for i, rec := range df.Records {
				text, err := df.ReadLocation(i, nil)
				if err != nil {
					t.Fatal(err)
				}
				want.ids = append(want.ids, rec.ID)
				want.locs = append(want.locs, string(text))
				want.offs = append(want.offs, rec.Span.Off)
			}
			if len(df.Visitors()) == 0 || len(df.Visitors()) > made {
				t.Errorf("%s, %d sections: %d Visitors kept of %d made", tc.name, parts, len(df.Visitors()), made)
			}
			if !reflect.DeepEqual(all.ids, want.ids) || !reflect.DeepEqual(all.locs, want.locs) || !reflect.DeepEqual(all.offs, want.offs) {
				t.Errorf("%s, %d sections: visited %v, want %v", tc.name, parts, all.ids, want.ids)
			}
			df.Close()
		}
	}
}
