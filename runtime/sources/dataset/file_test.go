package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// openAll parses path with OpenFile in the given number of sections and
// returns the records with their Locations read back from the file.
func openAll(t *testing.T, path string, parts int) ([]Record, error) {
	t.Helper()
	saved := parallelFrom
	parallelFrom = 0
	defer func() { parallelFrom = saved }()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	recs, ok, err := parseSections(f, fi.Size(), parts)
	f.Close()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errDeclined
	}
	if err := checkIdentifiers(recs); err != nil {
		return nil, err
	}
	df, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer df.Close()
	if !reflect.DeepEqual(recs, df.Records) {
		t.Fatalf("%d sections and OpenFile disagree", parts)
	}
	out := make([]Record, len(recs))
	for i := range recs {
		text, err := df.ReadLocation(i, nil)
		if err != nil {
			t.Fatalf("ReadLocation(%d): %v", i, err)
		}
		out[i] = recs[i]
		out[i].Location, out[i].Span = bytes.Clone(text), Span{}
	}
	return out, nil
}

var errDeclined = errors.New("declined")

// TestOpenFileAgreesWithParse proves that parsing in sections, however many
// and wherever the guessed boundaries fall (between records, inside a
// pretty-printed record, past the end), gives exactly Parse's records, and
// that every Location read back from the file is Parse's text.
func TestOpenFileAgreesWithParse(t *testing.T) {
	saved := streamBlock
	defer func() { streamBlock = saved }()
	pretty := "[\n{\"location\":{\"id\":\"a\",\n\"hours\":[\n{\"day\":\"monday\"},\n{\"day\":\"tuesday\"}]},\n\"items\":[\n\"x\",\n\"y\"]},\n{\"location\":{\"id\":\"b\"}}\n]\n"
	cases := []struct{ name, data string }{
		{"sample dataset", string(sampleJSON(t))},
		{"pretty-printed", pretty},
		{"one record", `[{"location":{"id":"a"}}]`},
		{"empty", "[\n]\n"},
	}
	for _, block := range testshared.RaceCases([]int{saved, 5}, []int{5}) {
		streamBlock = block
		for _, tc := range cases {
			path := filepath.Join(t.TempDir(), "stores.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			want, err := Parse([]byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			for _, parts := range testshared.RaceCases([]int{1, 2, 3, 7, 64}, []int{3}) {
				got, err := openAll(t, path, parts)
				if err != nil {
					t.Fatalf("%s, %d sections, block %d: %v", tc.name, parts, block, err)
				}
				if !reflect.DeepEqual(normalized(got), normalized(want)) {
					t.Fatalf("%s, %d sections, block %d: records differ from Parse", tc.name, parts, block)
				}
			}
		}
	}
}

// TestOpenFileErrorsAreParse's keeps the errors (and the strict fallback)
// of Parse, whether the fast path declines or the file breaks a rule it
// checks itself.
func TestOpenFileErrorsAreParses(t *testing.T) {
	for _, data := range []string{
		`[{"location":{"id":"a"}},{"location":{"id":"b"},"stock":1}]`,
		`[{"location":{"id":"a"}},` + "\n" + `{"location":{"id":"a"}}]`,
		`[{"location":{"id":"a"}},{"loc`,
		`{"location":{}}`,
	} {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, want := Parse([]byte(data))
		_, err := OpenFile(path)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: OpenFile error %v, Parse error %v", data, err, want)
		}
	}
	// A declined (escaped) string is parsed strictly, and kept in memory.
	path := filepath.Join(t.TempDir(), "stores.json")
	data := `[{"location":{"id":"a"},"aliases":["x\"y"]}]`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer df.Close()
	if text, err := df.ReadLocation(0, nil); err != nil || string(text) != `{"id":"a"}` {
		t.Errorf("strict fallback location = %q, %v", text, err)
	}
}

// TestReadLocationDetectsChangedFile rewrites the file under an open File:
// a read of a changed text is an ErrChanged error, never another record's
// bytes, and so is a read past a truncated end.
func TestReadLocationDetectsChangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	data := []byte("[\n{\"location\":{\"id\":\"a\",\"name\":\"A\"}},\n{\"location\":{\"id\":\"b\",\"name\":\"B\"}}\n]\n")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer df.Close()
	if df.Records[1].Location != nil || df.Records[1].Span.Len == 0 {
		t.Fatalf("record 1 keeps %q in memory, span %+v", df.Records[1].Location, df.Records[1].Span)
	}
	// Same length, different text: in place, so the open file sees it.
	changed := bytes.Replace(data, []byte(`"name":"B"`), []byte(`"name":"C"`), 1)
	if err := os.WriteFile(path, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	if text, err := df.ReadLocation(0, nil); err != nil || string(text) != `{"id":"a","name":"A"}` {
		t.Errorf("unchanged record 0 = %q, %v", text, err)
	}
	_, err = df.ReadLocation(1, nil)
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "byte ") {
		t.Errorf("changed record 1: err = %v, want ErrChanged naming the offset", err)
	}
	if err := os.Truncate(path, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := df.ReadLocation(0, nil); !errors.Is(err, ErrChanged) {
		t.Errorf("truncated file: err = %v, want ErrChanged", err)
	}
}
