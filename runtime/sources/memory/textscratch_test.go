package memory

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// TestTextScratchIsTextFields: the load's reused fields carry the text
// TextFields gives, Location after Location (a shorter list after a longer
// one included), and index to the same terms.
func TestTextScratchIsTextFields(t *testing.T) {
	var locs []*location.Location
	for _, raw := range []string{
		`{"id":"a","name":"A"}`,
		`{"id":"b","name":"Bäckerei Süd","address":{"street_address":"1 Main St","address_locality":"Springfield","postal_code":"12345","address_country":"US"},
			"amenities":{"dev.ucp.amenity.wi_fi":{"description":"Wi-Fi"},"dev.ucp.amenity.parking":{"description":"Free parking"},"a.z":{"description":"Zed"}}}`,
		`{"id":"c","name":"C","address":{"address_locality":"Lyon"},"amenities":{}}`,
		`{"id":"d","name":"D","address":{}}`,
		`{"id":"e","name":"E","amenities":{"x.y":{"description":"Just one"}}}`,
	} {
		l, err := location.DecodeLocation([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		locs = append(locs, l)
	}
	for _, shape := range []storegen.Shape{storegen.Full, storegen.Light} {
		recs, err := dataset.Parse(generated(t, 300, shape))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			l, err := location.DecodeLocation(r.Location)
			if err != nil {
				t.Fatal(err)
			}
			locs = append(locs, l)
		}
	}
	var sc textScratch
	for round := range 2 { // the second round reuses lists grown by the first
		for i, l := range locs {
			got, want := sc.fields(l), TextFields(l)
			if got.Name != want.Name || !slices.Equal(got.Address, want.Address) || !slices.Equal(got.Amenities, want.Amenities) {
				t.Fatalf("round %d, location %d (%s): fields %+v, want %+v", round, i, l.ID, got, want)
			}
			if g, w := textrank.Analyze(got), textrank.Analyze(want); !reflect.DeepEqual(g, w) {
				t.Fatalf("round %d, location %d (%s): terms differ", round, i, l.ID)
			}
		}
	}
}
