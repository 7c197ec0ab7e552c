package location_test

import (
	"encoding/json"
	"fmt"
	"reflect"
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
