package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestParseFileAgreesWithParse proves the streaming reader returns exactly
// Parse's records, or exactly Parse's error, including when every block
// boundary (read window, Location blocks, record blocks) falls inside
// records.
func TestParseFileAgreesWithParse(t *testing.T) {
	saved := [3]int{streamBlock, arenaBlock, recsBlock}
	defer func() { streamBlock, arenaBlock, recsBlock = saved[0], saved[1], saved[2] }()
	cases := []struct{ name, data string }{
		{"sample dataset", string(sampleJSON(t))},
		{"empty", " [ ]\n"},
		{"empty lists", `[{"location":{"id":"c"},"aliases":[],"items":[],"service_area":{},"private":false}]`},
		{"declined escape", `[{"location":{"id":"a"}},{"location":{"id":"b"},"aliases":["x\"y"]}]`},
		{"invalid", `[{"location":{"id":"a"}},{"location":{"id":"b"},"stock":1}]`},
		{"truncated", `[{"location":{"id":"a"}},{"loc`},
		{"trailing data", `[] x`},
		{"duplicate id", `[{"location":{"id":"a"}},{"location":{"id":"a"}}]`},
		{"not an array", `{"location":{}}`},
	}
	for _, sizes := range testshared.RaceCases([][3]int{saved, {7, 64, 3}, {1, 1, 1}}, [][3]int{{7, 64, 3}}) {
		streamBlock, arenaBlock, recsBlock = sizes[0], sizes[1], sizes[2]
		for _, tc := range cases {
			path := filepath.Join(t.TempDir(), "stores.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			want, wantErr := Parse([]byte(tc.data))
			got, err := ParseFile(path)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("%s, blocks %v: ParseFile error %v, Parse error %v", tc.name, sizes, err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(normalized(got), normalized(want)) {
				t.Fatalf("%s, blocks %v: records differ", tc.name, sizes)
			}
		}
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
}

// TestStreamScanAllocatesNothing: scan hands its function the stream's own
// scanner, so reading a record costs no scanner on the heap.
func TestStreamScanAllocatesNothing(t *testing.T) {
	st := &stream{r: strings.NewReader(""), b: []byte(`  {"a":1}`), eof: true}
	peek := func(s *scanner) bool { return s.peek() != 0 }
	if n := testing.AllocsPerRun(100, func() {
		st.i = 0
		if ok, err := st.scan(peek); !ok || err != nil {
			t.Fatalf("scan: %v, %v", ok, err)
		}
	}); n != 0 {
		t.Errorf("scan allocates %v times a call", n)
	}
}
