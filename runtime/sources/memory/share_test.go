package memory

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// TestSharedSchedules proves that equal schedules share one compiled value
// and that sharing never lets a schedule skip validation: a record whose
// schedule differs from an accepted one only in an unknown zone is still
// rejected, whatever order the records come in.
func TestSharedSchedules(t *testing.T) {
	const hours = `"hours":[{"day":"monday","opens":"08:00","closes":"18:00"}]`
	rec := func(id, tz string) dataset.Record {
		return dataset.Record{ID: id, Location: json.RawMessage(`{"id":"` + id + `","name":"N","timezone":"` + tz + `",` + hours + `}`)}
	}
	s, err := New([]dataset.Record{rec("a", "America/New_York"), rec("b", "America/New_York"), rec("c", "Europe/Berlin")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ents[0].compiled != s.ents[1].compiled || s.ents[0].compiled == s.ents[2].compiled {
		t.Error("equal schedules must share one compiled value, different ones must not")
	}
	for _, tc := range []struct {
		recs []dataset.Record
		ptr  string
	}{
		{[]dataset.Record{rec("a", "America/New_York"), rec("b", "Mars/Olympus_Mons")}, "/1/location/timezone"},
		{[]dataset.Record{rec("b", "Mars/Olympus_Mons"), rec("a", "America/New_York")}, "/0/location/timezone"},
	} {
		_, err := New(tc.recs, Options{})
		var fe *dataset.FieldError
		if !errors.As(err, &fe) || fe.Pointer != tc.ptr {
			t.Errorf("unknown zone: err = %v, want a field error at %s", err, tc.ptr)
		}
	}
}
