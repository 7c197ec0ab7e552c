package dataset

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestEachAgreesWithParse: Each hands over exactly Parse's records, in
// order, whatever the read window, and each record stays correct when fn
// copies it before the window moves on; an input Parse rejects is either
// the same *FieldError or ErrNotStreamable (structure), never records
// Parse would not return.
func TestEachAgreesWithParse(t *testing.T) {
	saved := [2]int{streamBlock, recsBlock}
	defer func() { streamBlock, recsBlock = saved[0], saved[1] }()
	cases := []struct {
		name, data string
		structural bool
	}{
		{"sample dataset", string(sampleJSON(t)), false},
		{"empty", " [ ]\n", false},
		{"empty lists", `[{"location":{"id":"c"},"aliases":[],"items":[],"service_area":{},"private":false}]`, false},
		{"declined escape", `[{"location":{"id":"a"}},{"location":{"id":"b"},"aliases":["x\"y"]}]`, false},
		{"invalid record", `[{"location":{"id":"a"}},{"location":{"id":"b"},"stock":1}]`, false},
		{"truncated", `[{"location":{"id":"a"}},{"loc`, true},
		{"trailing data", `[] x`, true},
		{"not an array", `{"location":{}}`, true},
	}
	for _, sizes := range testshared.RaceCases([][2]int{saved, {7, 3}, {1, 1}}, [][2]int{{7, 3}}) {
		streamBlock, recsBlock = sizes[0], sizes[1]
		for _, tc := range cases {
			want, wantErr := Parse([]byte(tc.data))
			var got []Record
			err := Each(strings.NewReader(tc.data), func(i int, rec Record) error {
				if i != len(got) {
					t.Fatalf("%s: record %d handed over as %d", tc.name, len(got), i)
				}
				rec.Location = bytes.Clone(rec.Location)
				got = append(got, rec)
				return nil
			})
			switch {
			case tc.structural:
				if !errors.Is(err, ErrNotStreamable) || wantErr == nil {
					t.Fatalf("%s, blocks %v: err = %v, want ErrNotStreamable (Parse: %v)", tc.name, sizes, err, wantErr)
				}
			case wantErr != nil:
				if err == nil || err.Error() != wantErr.Error() {
					t.Fatalf("%s, blocks %v: err = %v, want %v", tc.name, sizes, err, wantErr)
				}
			default:
				if err != nil {
					t.Fatalf("%s, blocks %v: %v", tc.name, sizes, err)
				}
				if !reflect.DeepEqual(normalized(got), normalized(want)) {
					t.Fatalf("%s, blocks %v: records differ", tc.name, sizes)
				}
			}
		}
	}
	stop := errors.New("stop")
	n := 0
	err := Each(bytes.NewReader(sampleJSON(t)), func(int, Record) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: Each returned %v after %d calls, want it after 1", err, n)
	}
}
