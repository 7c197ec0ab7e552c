package location_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// TestDecodeLocationValueIsDecodeLocation: decoding a Location parsed
// already gives what DecodeLocation gives of its text, the same Location
// or the same error, for every Location of the sample dataset and for
// Locations its schema refuses.
func TestDecodeLocationValueIsDecodeLocation(t *testing.T) {
	var records []struct{ Location json.RawMessage }
	if err := json.Unmarshal(sampledata.JSON(t), &records); err != nil {
		t.Fatal(err)
	}
	texts := []string{
		`{"id":"a"}`,
		`{"id":"a","name":7}`,
		`{"id":"a","name":"A","geo":{"latitude":91,"longitude":0}}`,
		`{"id":"a","name":"A","hours":[{"day":"someday","opens":"25:00","closes":"08:00"}]}`,
		`[]`,
	}
	for _, r := range records {
		texts = append(texts, string(r.Location))
	}
	if len(texts) < 20 {
		t.Fatalf("%d Locations to compare; the sample dataset was not read", len(texts))
	}
	for _, text := range texts {
		want, wantErr := location.DecodeLocation([]byte(text))
		doc := schemacheck.NewDocument()
		v, err := doc.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := location.DecodeLocationValue(v)
		doc.Release()
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: DecodeLocationValue = %+v, %v; DecodeLocation = %+v, %v", text, got, gotErr, want, wantErr)
		}
	}
}

// TestRepeatedHoursAreCheckedAlike: the checks remember the text of an
// hours array whose items passed (schemacheck.Passed), and that changes no
// outcome: the same hours in another Location decode alike, an hours array
// differing by one bad item is still refused, as often as it is given,
// with the item's pointer, and a Location whose remembered hours are fine
// is still refused for its other members.
func TestRepeatedHoursAreCheckedAlike(t *testing.T) {
	hours := `[{"day":"monday","opens":"07:45","closes":"19:15"},{"day":"tuesday","opens":"07:45","closes":"19:15"}]`
	bad := strings.Replace(hours, `"closes":"19:15"}]`, `"closes":"24:15"}]`, 1)
	loc := func(id, name, hours string) []byte {
		return []byte(`{"id":"` + id + `","name":` + name + `,"timezone":"Europe/Paris","hours":` + hours + `}`)
	}
	for round := range 2 {
		for _, id := range []string{"a", "b"} {
			l, err := location.DecodeLocation(loc(id, `"Store"`, hours))
			if err != nil || len(l.Hours.V) != 2 || l.Hours.V[1].Closes != "19:15" {
				t.Fatalf("round %d, %s: %+v, %v", round, id, l, err)
			}
		}
		if _, err := location.DecodeLocation(loc("c", `"Store"`, bad)); err == nil || !strings.Contains(err.Error(), "/hours/1/closes") {
			t.Errorf("round %d: hours with a bad item: %v, want an error at /hours/1/closes", round, err)
		}
		if _, err := location.DecodeLocation(loc("d", `7`, hours)); err == nil || !strings.Contains(err.Error(), "/name") {
			t.Errorf("round %d: a bad name beside remembered hours: %v, want an error at /name", round, err)
		}
	}
}

// TestRepeatedAmenitiesAreCheckedAlike: a store's amenities (a map of
// objects under propertyNames) are remembered once they pass, as hours
// are; a bad key or a bad member beside a remembered map is still refused
// with its pointer, each time.
func TestRepeatedAmenitiesAreCheckedAlike(t *testing.T) {
	amenities := `{"dev.ucp.amenity.parking":{"description":"Free customer parking"},"dev.ucp.amenity.wi_fi":{"description":"Free Wi-Fi"}}`
	badKey := strings.Replace(amenities, `"dev.ucp.amenity.wi_fi"`, `"wi fi"`, 1)
	badValue := strings.Replace(amenities, `{"description":"Free Wi-Fi"}`, `{"description":7}`, 1)
	loc := func(id, name, amenities string) []byte {
		return []byte(`{"id":"` + id + `","name":` + name + `,"amenities":` + amenities + `}`)
	}
	for round := range 2 {
		for _, id := range []string{"a", "b"} {
			l, err := location.DecodeLocation(loc(id, `"Store"`, amenities))
			if err != nil || len(l.Amenities.V) != 2 || l.Amenities.V["dev.ucp.amenity.wi_fi"].Description != "Free Wi-Fi" {
				t.Fatalf("round %d, %s: %+v, %v", round, id, l, err)
			}
		}
		if _, err := location.DecodeLocation(loc("c", `"Store"`, badKey)); err == nil || !strings.Contains(err.Error(), "/amenities/wi fi") {
			t.Errorf("round %d: amenities with a bad key: %v, want an error at /amenities/wi fi", round, err)
		}
		if _, err := location.DecodeLocation(loc("c", `"Store"`, badValue)); err == nil || !strings.Contains(err.Error(), "/amenities/dev.ucp.amenity.wi_fi/description") {
			t.Errorf("round %d: amenities with a bad member: %v, want an error at its description", round, err)
		}
		if _, err := location.DecodeLocation(loc("d", `7`, amenities)); err == nil || !strings.Contains(err.Error(), "/name") {
			t.Errorf("round %d: a bad name beside remembered amenities: %v, want an error at /name", round, err)
		}
	}
}
