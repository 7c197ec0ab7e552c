package dataset

import (
	"errors"
	"reflect"
	"testing"
)

// FuzzParse checks that Parse never panics, that every rejection is a
// *FieldError with a pointer, and that accepted datasets keep the
// identifier rules.
func FuzzParse(f *testing.F) {
	seeds := []string{
		`[]`,
		`[{"location":{"id":"a","name":"A"}}]`,
		`[{"location":{"id":"a"},"aliases":["b"],"items":["x"],"service_area":{"countries":["US"],"radius_m":5},"private":true}]`,
		`[{"location":{"id":"a"},"aliases":["b"]},{"location":{"id":"b"}}]`,
		`[{"location":{"id":"a"},"service_area":{"radius_m":-1e999}}]`,
		`[{"location":{"id":"a","id":"a"}}]`,
		`{"location":{}}`,
		`[null, 1, "x"]`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fast, ok := parseFast(data); ok {
			strict, err := parseStrict(data)
			ferr := checkIdentifiers(fast)
			if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
				t.Fatalf("strict path says %v, fast path plus identifier check says %v", err, ferr)
			}
			if err == nil && !reflect.DeepEqual(normalized(fast), normalized(strict)) {
				t.Fatalf("fast and strict records differ")
			}
		}
		recs, err := Parse(data)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FieldError", err)
			}
			if fe.Index >= 0 && fe.Pointer == "" {
				t.Fatalf("record error without pointer: %v", err)
			}
			return
		}
		names := map[string]int{}
		for i, r := range recs {
			if r.ID == "" || len(r.Location) == 0 {
				t.Fatalf("record %d accepted without id or location", i)
			}
			if j, dup := names[r.ID]; dup {
				t.Fatalf("id %q of record %d clashes with record %d", r.ID, i, j)
			}
			names[r.ID] = i
		}
		for i, r := range recs {
			for _, a := range r.Aliases {
				if j, dup := names[a]; dup {
					t.Fatalf("alias %q of record %d clashes with record %d", a, i, j)
				}
				names[a] = i
			}
			if sa := r.ServiceArea; sa != nil && sa.RadiusM != nil && !(*sa.RadiusM >= 0) {
				t.Fatalf("record %d accepted with radius %v", i, *sa.RadiusM)
			}
		}
	})
}
