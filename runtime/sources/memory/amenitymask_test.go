package memory

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// withAmenities is recs with record i given the amenity keys keys(i).
func withAmenities(t *testing.T, recs []dataset.Record, keys func(i int) []string) []dataset.Record {
	t.Helper()
	out := slices.Clone(recs)
	for i := range out {
		var loc map[string]any
		if err := json.Unmarshal(out[i].Location, &loc); err != nil {
			t.Fatal(err)
		}
		am := map[string]any{}
		for _, k := range keys(i) {
			am[k] = map[string]any{"description": "test " + k}
		}
		loc["amenities"] = am
		b, err := json.Marshal(loc)
		if err != nil {
			t.Fatal(err)
		}
		out[i].Location = b
	}
	return out
}

// amenitySearch is every id an amenity filter of keys matches, across pages.
func amenitySearch(t *testing.T, s testStore, keys ...string) []string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"filters": map[string]any{"amenities": keys}})
	if err != nil {
		t.Fatal(err)
	}
	return walk(t, s, string(b), 200)
}

// TestAmenityMasksMatchTheKeys: the amenity filter by bits selects exactly
// the records holding every key, like the binary search it stands in for;
// past 64 distinct keys there are no masks and the search is the same.
func TestAmenityMasksMatchTheKeys(t *testing.T) {
	base := records(t)[:300]
	key := func(n int) string { return fmt.Sprintf("dev.ucp.amenity.k%d", n) }
	// Under the race detector the two sides of the 64-key limit; the
	// filter runs on one goroutine, and the plain pass checks every count.
	for _, distinct := range testshared.RaceCases([]int{5, 64, 65, 80}, []int{64, 65}) {
		t.Run(fmt.Sprint(distinct, " keys"), func(t *testing.T) {
			recs := withAmenities(t, base, func(i int) []string {
				var ks []string
				for n := range distinct {
					if (i*7+n*3)%(n%4+2) == 0 {
						ks = append(ks, key(n))
					}
				}
				return ks
			})
			s := newService(t, recs, testOptions{PageMax: 1000})
			if got := s.src.amenityMasks() != nil; got != (distinct <= 64) {
				t.Fatalf("masks made: %v, with %d distinct keys", got, distinct)
			}
			for _, req := range [][]string{{key(0)}, {key(1), key(2)}, {key(distinct - 1), key(0), key(3)}, {key(1), "dev.ucp.amenity.nowhere"}} {
				var want []string
				for i, r := range recs {
					var loc struct {
						Amenities map[string]json.RawMessage `json:"amenities"`
					}
					if err := json.Unmarshal(r.Location, &loc); err != nil {
						t.Fatal(err)
					}
					if !r.Private && !slices.ContainsFunc(req, func(k string) bool { _, ok := loc.Amenities[k]; return !ok }) {
						want = append(want, recs[i].ID)
					}
				}
				// The pool's own test, record by record, against the
				// binary search (the engine re-checks amenities, so a
				// search alone would not see a pool that lets too much in).
				p, err := s.src.pool(nil, req)
				if err != nil {
					t.Fatal(err)
				}
				for d := range s.src.ents {
					if got, want := p.hasAmenities(s.src, int32(d)), hasAll(s.src.lists[s.src.ents[d].amenities], req); got != want {
						t.Fatalf("%v: doc %d: by bits %v, by keys %v", req, d, got, want)
					}
				}
				got := amenitySearch(t, s, req...)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%v: %d ids, want %d", req, len(got), len(want))
				}
				if len(req) == 2 && req[1] != "dev.ucp.amenity.nowhere" && (len(want) == 0 || len(want) == len(recs)) {
					t.Errorf("%v selects %d of %d records: the case tells nothing", req, len(want), len(recs))
				}
			}
		})
	}
}
