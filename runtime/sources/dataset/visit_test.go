package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// keeper is a recorder that keeps what it needs (a RecordKeeper).
type keeper struct{ recorder }

func (k *keeper) KeepsRecords() bool { return true }

// TestOpenFileWithKeepers: when every Visitor keeps what it needs, the File
// holds no Records but Len counts them, the Visitors saw exactly what they
// would have otherwise, the identifier rules still hold over every record,
// and ReadLocation reports a record it does not hold instead of panicking.
func TestOpenFileWithKeepers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampleJSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, parts := range testshared.RaceCases([]int{1, 2, 3, 7, 64}, []int{1, 3}) {
		plain, err := OpenFileWith(path, parts, func() Visitor { return &recorder{} })
		if err != nil {
			t.Fatal(err)
		}
		kept, err := OpenFileWith(path, parts, func() Visitor { return &keeper{} })
		if err != nil {
			t.Fatal(err)
		}
		if kept.Records != nil || kept.Len() != len(plain.Records) || plain.Len() != len(plain.Records) {
			t.Errorf("%d sections: %d Records, Len %d, want none and %d", parts, len(kept.Records), kept.Len(), len(plain.Records))
		}
		var saw, want []string
		for _, v := range kept.Visitors() {
			saw = append(saw, v.(*keeper).ids...)
		}
		for _, v := range plain.Visitors() {
			want = append(want, v.(*recorder).ids...)
		}
		if !reflect.DeepEqual(saw, want) {
			t.Errorf("%d sections: keepers saw %d ids, recorders %d", parts, len(saw), len(want))
		}
		if _, err := kept.ReadLocation(0, nil); err == nil || !strings.Contains(err.Error(), "no record 0 in memory") {
			t.Errorf("%d sections: ReadLocation of a taken-over record: %v", parts, err)
		}
		plain.Close()
		kept.Close()
	}

	// The identifier rules, read from the identities the keepers' parse
	// holds instead of the records: the same first conflict, named alike.
	for _, tc := range []struct{ name, data string }{
		{"an id twice", `[{"location":{"id":"a"}},` + "\n" + `{"location":{"id":"b"}},` + "\n" + `{"location":{"id":"a"}}]`},
		{"an alias that is another id", `[{"location":{"id":"a"}},` + "\n" + `{"location":{"id":"b"},"aliases":["x"]},` + "\n" + `{"location":{"id":"c"},"aliases":["y","a"]}]`},
		{"an alias twice", `[{"location":{"id":"a"},"aliases":["x"]},` + "\n" + `{"location":{"id":"b"}},` + "\n" + `{"location":{"id":"c"},"aliases":["x"]}]`},
	} {
		path := filepath.Join(t.TempDir(), "conflict.json")
		if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{1, 3} {
			_, want := OpenFileWith(path, parts, nil)
			_, got := OpenFileWith(path, parts, func() Visitor { return &keeper{} })
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Errorf("%s, %d sections, keepers: %v, want %v", tc.name, parts, got, want)
			}
		}
	}
}
