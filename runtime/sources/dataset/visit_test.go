package dataset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
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

// parser is a recorder that parses each Location strictly itself (a
// LocationParser), counting the Locations it took and refused.
type parser struct {
	recorder
	taken, refused int
}

func (p *parser) VisitUnchecked(rec *Record, loc []byte) bool {
	if _, err := schemacheck.Parse(loc); err != nil {
		p.refused++
		return false
	}
	p.taken++
	p.Visit(rec, loc)
	return true
}

// reader is a parser that also reads each Location in place (a
// LocationReader), from a bound of a few bytes doubled until the Location
// fits, counting the Locations it read.
type reader struct {
	parser
	read []byte // the text of the Location read last
	in   int
}

func (r *reader) ReadLocation(b []byte) (int, string, bool) {
	r.read = nil
	for bound := 4; ; bound *= 2 {
		doc := schemacheck.NewDocument()
		v, n, err := doc.ParseFirst(b[:min(bound, len(b))])
		if err == nil {
			defer doc.Release()
			if id := v.Get("id"); id != nil && id.Kind == schemacheck.String && id.Str != "" && !strings.Contains(id.Raw, `\`) {
				r.read = b[:n]
				return n, strings.Clone(id.Str), true
			}
			return 0, "", false
		}
		doc.Release()
		if bound >= len(b) {
			return 0, "", false
		}
	}
}

func (r *reader) VisitUnchecked(rec *Record, loc []byte) bool {
	if r.read != nil && len(loc) == len(r.read) && &loc[0] == &r.read[0] {
		r.in++
	}
	r.read = nil
	return r.parser.VisitUnchecked(rec, loc)
}

// TestLocationParserLoadsWhatACheckedScanLoads: a file read for a
// LocationParser, whose scan only delimits each Location, ends as a file
// read for a plain Visitor: the same Records or the same error, and
// Visitors that saw exactly the Records, whether the parser takes every
// Location, refuses one the scan accepts, or refuses one it declines.
func TestLocationParserLoadsWhatACheckedScanLoads(t *testing.T) {
	deep := strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600)
	type parserCase struct {
		name, data string
		taken      bool // the parser takes at least one Location
		refused    bool // the parser refuses at least one Location
		odd        bool // either may be so
	}
	cases := []parserCase{
		{"sample dataset", string(sampleJSON(t)), true, false, false},
		{"escaped member name inside", `[{"location":{"id":"a","x":{"n\u0061me":1}}},{"location":{"id":"b"}}]`, true, false, false},
		{"invalid UTF-8 in a value", "[{\"location\":{\"id\":\"a\",\"x\":\"\xff\"}},{\"location\":{\"id\":\"b\"}}]", true, true, false},
		{"nested deeper than the parser reads", `[{"location":{"id":"b"}},{"location":{"id":"a","x":` + deep + `}}]`, true, true, false},
		{"a number with a leading zero", `[{"location":{"id":"a","x":[01]}}]`, false, true, false},
		{"a bare word", `[{"location":{"id":"b"}},{"location":{"id":"a","x":tru}}]`, true, true, false},
		{"brackets that do not match", `[{"location":{"id":"a","x":[1}}}]`, false, true, false},
		{"a control byte in a value", "[{\"location\":{\"id\":\"a\",\"x\":\"\x01\"}}]", false, false, false},
		{"cut off", `[{"location":{"id":"a","x":[1,2`, false, false, false},
	}
	// Every oddity of the scan's own tests as a member's value: whatever
	// the parser makes of it, the file ends as with a checked scan.
	for _, v := range valueCases {
		cases = append(cases, parserCase{name: "value " + v, data: `[{"location":{"id":"a","x":` + v + `}}]`, odd: true})
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{1, 3} {
			want, wantErr := OpenFileWith(path, parts, func() Visitor { return &recorder{} })
			// A LocationReader ends as a LocationParser does.
			read, readErr := OpenFileWith(path, parts, func() Visitor { return &reader{} })
			if fmt.Sprint(readErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s, %d sections, read in place: error %v, want %v", tc.name, parts, readErr, wantErr)
			}
			if readErr == nil {
				if r, w := readRecords(t, read), readRecords(t, want); !reflect.DeepEqual(r, w) {
					t.Errorf("%s, %d sections, read in place: Records %+v, a checked scan's %+v", tc.name, parts, r, w)
				}
				in := 0
				for _, v := range read.Visitors() {
					in += v.(*reader).in
				}
				if tc.taken && !tc.refused && !tc.odd && in != len(read.Records) {
					t.Errorf("%s, %d sections: %d of %d Locations read in place", tc.name, parts, in, len(read.Records))
				}
				read.Close()
			}
			got, gotErr := OpenFileWith(path, parts, func() Visitor { return &parser{} })
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%s, %d sections: error %v, want %v", tc.name, parts, gotErr, wantErr)
			}
			if wantErr != nil {
				continue
			}
			records := readRecords(t, got)
			if w := readRecords(t, want); !reflect.DeepEqual(records, w) {
				t.Errorf("%s, %d sections: Records %+v, a checked scan's %+v", tc.name, parts, records, w)
			}
			var all recorder
			taken, refused := 0, 0
			for _, v := range got.Visitors() {
				p := v.(*parser)
				all.ids = append(all.ids, p.ids...)
				all.locs = append(all.locs, p.locs...)
				taken += p.taken
				refused += p.refused
			}
			var seen recorder
			for _, rec := range records {
				seen.ids = append(seen.ids, rec.ID)
				seen.locs = append(seen.locs, string(rec.Location))
			}
			if got.Visitors() != nil && (!reflect.DeepEqual(all.ids, seen.ids) || !reflect.DeepEqual(all.locs, seen.locs)) {
				t.Errorf("%s, %d sections: the parsers saw %v, want %v", tc.name, parts, all.ids, seen.ids)
			}
			if !tc.odd && ((taken > 0) != tc.taken || (refused > 0) != tc.refused) {
				t.Errorf("%s, %d sections: the parsers took %d and refused %d Locations", tc.name, parts, taken, refused)
			}
			want.Close()
			got.Close()
		}
	}
}

// FuzzLocationParserLoadsWhatACheckedScanLoads is the test above on any
// file: read for a parsing Visitor, it ends with the error, or the
// Records, a checked scan gives.
func FuzzLocationParserLoadsWhatACheckedScanLoads(f *testing.F) {
	f.Add([]byte(`[{"location":{"id":"a","x":{"n\u0061me":[1,"}"]}}},{"location":{"id":"b","y":tru}}]`))
	f.Add([]byte("[{\"location\":{\"id\":\"a\",\"x\":\"\xff\"},\"aliases\":[\"c\"]},{\"location\":{\"id\":\"b\",\"x\":[01]}}]"))
	f.Add([]byte(`[{"location":{"id":"a","x":[1}}},{"location":{"id":"b","x":{"y":null,"z":-0.5e3}}}]`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "stores.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		want, wantErr := OpenFileWith(path, 1, func() Visitor { return &recorder{} })
		got, gotErr := OpenFileWith(path, 1, func() Visitor { return &parser{} })
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, want %v", gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		defer want.Close()
		defer got.Close()
		if g, w := readRecords(t, got), readRecords(t, want); !reflect.DeepEqual(g, w) {
			t.Fatalf("Records %+v, a checked scan's %+v", g, w)
		}
	})
}

// readRecords is df's Records with each Location's text read back and no
// Span, so a file held as text (the strict path) and one held as places in
// the file compare alike.
func readRecords(t *testing.T, df *File) []Record {
	t.Helper()
	out := make([]Record, len(df.Records))
	for i, rec := range df.Records {
		text, err := df.ReadLocation(i, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec.Location, rec.Span = bytes.Clone(text), Span{}
		out[i] = rec
	}
	return out
}
