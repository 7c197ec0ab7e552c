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

// TestDecodeLocationValueIntoRefills: decoding Location after Location
// into one value (the sample dataset's, in file order, then ones with
// more and fewer hours, no amenities, an unknown member, and refused ones)
// leaves it equal to what DecodeLocationValue returns for each, with the
// same error for a refused one; a list or map it held is refilled, not
// made again; and json.Unmarshal over a Location shares nothing with it.
func TestDecodeLocationValueIntoRefills(t *testing.T) {
	var records []struct{ Location json.RawMessage }
	if err := json.Unmarshal(sampledata.JSON(t), &records); err != nil {
		t.Fatal(err)
	}
	texts := []string{
		`{"id":"a","name":"A","timezone":"Europe/Berlin","hours":[{"day":"monday","opens":"08:00","closes":"18:00"},{"day":"tuesday","opens":"08:00","closes":"18:00"},{"day":"wednesday","opens":"08:00","closes":"18:00"}],"amenities":{"dev.ucp.amenity.parking":{"description":"P"},"dev.ucp.amenity.wi_fi":{"description":"W"}},"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25"}]}`,
		`{"id":"b","name":"B","timezone":"Europe/Berlin","hours":[{"day":"friday","opens":"09:00","closes":"17:00"}],"x-extra":{"k":1}}`,
		`{"id":"c","name":"C","timezone":"Europe/Berlin","hours":[],"amenities":{}}`,
		`{"id":"a","name":7}`,
		`{"id":"d","name":"D","hours":[{"day":"someday","opens":"25:00","closes":"08:00"}]}`,
	}
	for _, r := range records {
		texts = append(texts, string(r.Location))
	}
	var x location.Location
	for _, text := range texts {
		doc := schemacheck.NewDocument()
		v, err := doc.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := location.DecodeLocationValue(v)
		gotErr := location.DecodeLocationValueInto(v, &x)
		doc.Release()
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%.80s: DecodeLocationValueInto error %v, DecodeLocationValue %v", text, gotErr, wantErr)
		}
		if wantErr == nil && !reflect.DeepEqual(&x, want) {
			t.Fatalf("%.80s: DecodeLocationValueInto = %+v, DecodeLocationValue = %+v", text, x, *want)
		}
	}

	// Refilled: the second Location's hours and amenities live where the
	// first's did.
	decode := func(text string) {
		t.Helper()
		doc := schemacheck.NewDocument()
		defer doc.Release()
		v, err := doc.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if err := location.DecodeLocationValueInto(v, &x); err != nil {
			t.Fatal(err)
		}
	}
	decode(texts[0])
	hours, amenities := &x.Hours.V[0], reflect.ValueOf(x.Amenities.V).UnsafePointer()
	decode(strings.Replace(texts[0], `"id":"a"`, `"id":"a2"`, 1))
	if &x.Hours.V[0] != hours || reflect.ValueOf(x.Amenities.V).UnsafePointer() != amenities {
		t.Error("the hours or the amenities were made again, not refilled")
	}
	if err := location.DecodeLocationValueInto(&schemacheck.Value{Kind: schemacheck.Object}, nil); err == nil || !strings.Contains(err.Error(), "into a Location, got nil") {
		t.Errorf("decoding into a nil Location: %v", err)
	}

	// json.Unmarshal keeps its own semantics: a copy taken before is
	// left as it was.
	var y location.Location
	if err := json.Unmarshal([]byte(texts[0]), &y); err != nil {
		t.Fatal(err)
	}
	before := y.Hours.V
	if err := json.Unmarshal([]byte(texts[1]), &y); err != nil {
		t.Fatal(err)
	}
	if before[0].Day != "monday" || len(y.Hours.V) != 1 || y.Hours.V[0].Day != "friday" {
		t.Errorf("Unmarshal over a Location changed the hours it held before: %+v, now %+v", before, y.Hours.V)
	}
}
