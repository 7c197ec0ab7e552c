package location_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestNewServiceUnusableScheduleIsLoud: a Business's own Source may hand the
// service a Location whose schedule the runtime cannot evaluate, such as a
// day value a newer UCP release added. An hours filter meeting it fails the
// request with -32603 and a log line naming the location, the member and
// the value, instead of silently leaving the store out of every answer.
func TestNewServiceUnusableScheduleIsLoud(t *testing.T) {
	l, err := location.DecodeLocation([]byte(`{"id":"s1","name":"One","timezone":"Europe/Berlin",
		"hours":[{"day":"monday","opens":"09:00","closes":"18:00"},{"day":"sunday","opens":"10:00","closes":"14:00"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	l.Hours.V[1].Day = "public_holidays" // what data from a newer schema carries
	src := &sliceSource{locs: []location.Location{*l}}
	hooks, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := location.DecodeSearchRequest([]byte(`{"filters":{"hours":{"open_at":"2026-05-18T12:00:00+02:00"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = hooks.SearchLocations(context.Background(), nil, req)
	var ue *predicate.UnusableScheduleError
	if !errors.As(err, &ue) || ue.LocationID != "s1" || ue.Pointer != "/hours/1/day" || ue.Value != "public_holidays" {
		t.Fatalf("search = %v; want an UnusableScheduleError for s1 at /hours/1/day with public_holidays", err)
	}

	var logs bytes.Buffer
	cs := connect(t, hooks, &ucpcore.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	_, err = call(t, cs, "search_locations", `{"meta":`+goodMeta+`,"location":{"filters":{"hours":{"open_at":"2026-05-18T12:00:00+02:00"}}}}`)
	if je := wireError(t, err); je.Code != -32603 {
		t.Errorf("client saw %d %s, want -32603", je.Code, je.Message)
	}
	for _, want := range []string{`\"s1\"`, "/hours/1/day", "public_holidays"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log does not name %s:\n%s", want, logs.String())
		}
	}
}
