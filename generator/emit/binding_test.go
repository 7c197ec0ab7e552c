package emit_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// These tests exercise the binding emitted into generated/location (the
// committed output of this emitter for the 2026-08-25 schemas), so that a
// change to binding.go that regenerates into wrong conversions fails here.

func strp(s string) *string { return &s }

func TestPredicateQuery(t *testing.T) {
	openAt := time.Date(2026, 9, 1, 8, 30, 0, 0, time.FixedZone("", 2*3600))
	cases := []struct {
		name string
		req  string
		want predicate.Query
	}{
		{"empty", `{}`, predicate.Query{}},
		{"query text and context are no operands", `{"query":"near me","context":{"address_country":"US"}}`, predicate.Query{}},
		{"distance", `{"distance":{"center":{"latitude":52.5,"longitude":13.4},"max":1500.25}}`,
			predicate.Query{Distance: &predicate.Distance{Center: predicate.Geo{Lat: 52.5, Lon: 13.4}, Max: 1500.25}}},
		{"serves point", `{"serves":{"point":{"latitude":-1,"longitude":179.5}}}`,
			predicate.Query{Serves: &predicate.Target{Key: "point", Point: &predicate.Geo{Lat: -1, Lon: 179.5}, Raw: json.RawMessage(`{"latitude":-1,"longitude":179.5}`)}}},
		{"serves address", `{"serves":{"address":{"address_country":"DE","postal_code":"10115"}}}`,
			predicate.Query{Serves: &predicate.Target{Key: "address", Address: &predicate.Locality{Country: "DE", PostalCode: "10115"}, Raw: json.RawMessage(`{"address_country":"DE","postal_code":"10115"}`)}}},
		{"serves extension key keeps raw operand", `{"serves":{"com.example.zone":{"zone": "Z-7", "n":[1, 2]}}}`,
			predicate.Query{Serves: &predicate.Target{Key: "com.example.zone", Raw: json.RawMessage(`{"zone": "Z-7", "n":[1, 2]}`)}}},
		{"hours", `{"filters":{"hours":{"open_at":"2026-09-01T08:30:00+02:00"}}}`,
			predicate.Query{Filters: predicate.Filters{OpenAt: &openAt}}},
		{"amenities and items", `{"filters":{"amenities":["dev.ucp.amenity.wi_fi"],"items":["sku-1","sku-2"]}}`,
			predicate.Query{Filters: predicate.Filters{Amenities: []string{"dev.ucp.amenity.wi_fi"}, HasAmenities: true, Items: []string{"sku-1", "sku-2"}, HasItems: true}}},
		{"empty amenities stay present", `{"filters":{"amenities":[]}}`,
			predicate.Query{Filters: predicate.Filters{Amenities: []string{}, HasAmenities: true}}},
		{"unknown filters become extensions in name order", `{"filters":{"z.ext":true,"inventory":[{"id":"a"}]}}`,
			predicate.Query{Filters: predicate.Filters{Extensions: []predicate.Extension{
				{Key: "inventory", Raw: json.RawMessage(`[{"id":"a"}]`)},
				{Key: "z.ext", Raw: json.RawMessage(`true`)},
			}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s location.SearchRequest
			if err := json.Unmarshal([]byte(tc.req), &s); err != nil {
				t.Fatalf("decode search: %v", err)
			}
			got, err := s.PredicateQuery()
			if err != nil {
				t.Fatalf("search: %v", err)
			}
			assertQuery(t, got, tc.want)

			// Lookup shares the constraint grammar and must convert identically.
			var l location.LookupRequest
			if err := json.Unmarshal([]byte(tc.req), &l); err != nil {
				t.Fatalf("decode lookup: %v", err)
			}
			got, err = l.PredicateQuery()
			if err != nil {
				t.Fatalf("lookup: %v", err)
			}
			assertQuery(t, got, tc.want)
		})
	}
}

func assertQuery(t *testing.T, got, want predicate.Query) {
	t.Helper()
	if (got.Filters.OpenAt == nil) != (want.Filters.OpenAt == nil) ||
		(got.Filters.OpenAt != nil && !got.Filters.OpenAt.Equal(*want.Filters.OpenAt)) {
		t.Errorf("OpenAt = %v, want %v", got.Filters.OpenAt, want.Filters.OpenAt)
	}
	got.Filters.OpenAt, want.Filters.OpenAt = nil, nil
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Errorf("query\n got %s\nwant %s", gj, wj)
	}
}

func TestPredicateQueryRejects(t *testing.T) {
	cases := []struct {
		name, req, pointer, keyword string
	}{
		{"serves with two keys", `{"serves":{"point":{"latitude":1,"longitude":2},"address":{"address_country":"US"}}}`, "/location/serves", "maxProperties"},
		{"serves with point and extension", `{"serves":{"point":{"latitude":1,"longitude":2},"x.y":1}}`, "/location/serves", "maxProperties"},
		{"empty serves", `{"serves":{}}`, "/location/serves", "minProperties"},
		{"open_at without offset", `{"filters":{"hours":{"open_at":"2026-09-01T08:30:00"}}}`, "/location/filters/hours/open_at", "format"},
		{"open_at not a time", `{"filters":{"hours":{"open_at":"tomorrow"}}}`, "/location/filters/hours/open_at", "format"},
		{"hours member other than open_at", `{"filters":{"hours":{"open_at":"2026-09-01T08:30:00Z","closes_after":"x"}}}`, "/location/filters/hours/closes_after", "unsupported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s location.SearchRequest
			if err := json.Unmarshal([]byte(tc.req), &s); err != nil {
				t.Fatalf("decode: %v", err)
			}
			_, err := s.PredicateQuery()
			ip, ok := rpcerr.AsInvalidParams(err)
			if !ok {
				t.Fatalf("err = %v, want *rpcerr.InvalidParams", err)
			}
			if v := ip.Violations[0]; v.Pointer != tc.pointer || v.Keyword != tc.keyword {
				t.Errorf("violation = %+v, want pointer %s keyword %s", v, tc.pointer, tc.keyword)
			}
		})
	}
}

// TestUnknownFilterRejectedByEngine shows the end-to-end guarantee: an
// unknown filter key is carried to the engine, which rejects it by pointer
// instead of ignoring it.
func TestUnknownFilterRejectedByEngine(t *testing.T) {
	var s location.SearchRequest
	if err := json.Unmarshal([]byte(`{"filters":{"com.example.vegan":true}}`), &s); err != nil {
		t.Fatal(err)
	}
	q, err := s.PredicateQuery()
	if err != nil {
		t.Fatal(err)
	}
	var e predicate.Engine
	ip, ok := rpcerr.AsInvalidParams(e.Check(q))
	if !ok || ip.Violations[0].Pointer != "/filters/com.example.vegan" {
		t.Fatalf("engine check = %v, want rejection at the request-relative /filters/com.example.vegan", ip)
	}
}

func TestPredicateCandidate(t *testing.T) {
	cases := []struct {
		name string
		loc  string
		want predicate.Candidate
	}{
		{"bare", `{"id":"a","name":"A"}`, predicate.Candidate{ID: "a"}},
		{"full", `{"id":"b","name":"B","geo":{"latitude":40.5,"longitude":-73.9},
			"amenities":{"dev.ucp.amenity.wi_fi":{"description":"Wi-Fi"},"dev.ucp.amenity.parking":{"description":"Parking"}},
			"timezone":"America/New_York",
			"hours":[{"day":"monday","opens":"09:00","closes":"17:00"}],
			"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25","title":"Closed"},
			                   {"valid_from":"2026-12-24","valid_through":"2026-12-24","opens":"09:00","closes":"12:00"}]}`,
			predicate.Candidate{ID: "b", Geo: &predicate.Geo{Lat: 40.5, Lon: -73.9},
				Amenities: []string{"dev.ucp.amenity.parking", "dev.ucp.amenity.wi_fi"},
				Schedule: hours.Schedule{Timezone: "America/New_York", HasHours: true,
					Hours:         []hours.Interval{{Day: "monday", Opens: "09:00", Closes: "17:00"}},
					HasExceptions: true,
					Exceptions: []hours.Exception{
						{ValidFrom: "2026-12-25", ValidThrough: "2026-12-25"},
						{ValidFrom: "2026-12-24", ValidThrough: "2026-12-24", Opens: strp("09:00"), Closes: strp("12:00")},
					}}}},
		{"empty hours list is present, not unknown", `{"id":"c","name":"C","timezone":"UTC","hours":[]}`,
			predicate.Candidate{ID: "c", Schedule: hours.Schedule{Timezone: "UTC", HasHours: true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l location.Location
			if err := json.Unmarshal([]byte(tc.loc), &l); err != nil {
				t.Fatal(err)
			}
			got := l.PredicateCandidate()
			if got.Value != &l {
				t.Errorf("Value = %v, want the Location itself", got.Value)
			}
			got.Value = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("candidate\n got %+v\nwant %+v", got, tc.want)
			}

			var ll location.LookupLocation
			if err := json.Unmarshal([]byte(tc.loc), &ll); err != nil {
				t.Fatal(err)
			}
			got = ll.PredicateCandidate()
			got.Value = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lookup candidate\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestPredicateCandidatePresized: each list of the candidate is allocated
// at its final length once (no spare capacity left by doubling), and a
// list that is absent or empty in the Location stays nil.
func TestPredicateCandidatePresized(t *testing.T) {
	three := `"amenities":{"a.x":{"description":"X"},"a.y":{"description":"Y"},"a.z":{"description":"Z"}},
		"hours":[{"day":"monday","opens":"09:00","closes":"17:00"},{"day":"tuesday","opens":"09:00","closes":"17:00"},
		         {"day":"friday","opens":"10:00","closes":"12:00"}],
		"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25"},
		                   {"valid_from":"2026-12-24","valid_through":"2026-12-24","opens":"09:00","closes":"12:00"},
		                   {"valid_from":"2026-12-31","valid_through":"2026-12-31"}]`
	cases := []struct {
		name string
		loc  string
		n    int // length of every list; 0: each must be nil
	}{
		{"absent", `{"id":"a","name":"A"}`, 0},
		{"empty", `{"id":"a","name":"A","amenities":{},"hours":[],"exception_hours":[]}`, 0},
		{"one each", `{"id":"a","name":"A","amenities":{"a.x":{"description":"X"}},
			"hours":[{"day":"monday","opens":"09:00","closes":"17:00"}],
			"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25"}]}`, 1},
		{"three each", `{"id":"a","name":"A",` + three + `}`, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l location.Location
			if err := json.Unmarshal([]byte(tc.loc), &l); err != nil {
				t.Fatal(err)
			}
			var ll location.LookupLocation
			if err := json.Unmarshal([]byte(tc.loc), &ll); err != nil {
				t.Fatal(err)
			}
			for who, c := range map[string]predicate.Candidate{"Location": l.PredicateCandidate(), "LookupLocation": ll.PredicateCandidate()} {
				lists := []struct {
					name     string
					nil      bool
					len, cap int
				}{
					{"amenities", c.Amenities == nil, len(c.Amenities), cap(c.Amenities)},
					{"hours", c.Schedule.Hours == nil, len(c.Schedule.Hours), cap(c.Schedule.Hours)},
					{"exceptions", c.Schedule.Exceptions == nil, len(c.Schedule.Exceptions), cap(c.Schedule.Exceptions)},
				}
				for _, li := range lists {
					if tc.n == 0 && !li.nil {
						t.Errorf("%s %s: not nil (len %d, cap %d)", who, li.name, li.len, li.cap)
					}
					if li.len != tc.n || li.cap != tc.n {
						t.Errorf("%s %s: len %d, cap %d, want both %d", who, li.name, li.len, li.cap, tc.n)
					}
				}
			}
		})
	}
}

// TestCandidateMatchesThroughEngine checks that the converted schedule and
// amenities drive a real match: open Monday 10:00 New York with Wi-Fi.
func TestCandidateMatchesThroughEngine(t *testing.T) {
	var l location.Location
	loc := `{"id":"b","name":"B","geo":{"latitude":40.5,"longitude":-73.9},"timezone":"America/New_York",
		"amenities":{"dev.ucp.amenity.wi_fi":{"description":"Wi-Fi"}},
		"hours":[{"day":"monday","opens":"09:00","closes":"17:00"}]}`
	if err := json.Unmarshal([]byte(loc), &l); err != nil {
		t.Fatal(err)
	}
	c := l.PredicateCandidate()
	cases := []struct {
		req  string
		want bool
	}{
		{`{"filters":{"hours":{"open_at":"2026-09-07T14:00:00Z"},"amenities":["dev.ucp.amenity.wi_fi"]}}`, true},
		{`{"filters":{"hours":{"open_at":"2026-09-07T21:00:00Z"}}}`, false},
		{`{"filters":{"amenities":["dev.ucp.amenity.parking"]}}`, false},
		{`{"distance":{"center":{"latitude":40.5,"longitude":-73.9},"max":0}}`, true},
		{`{"distance":{"center":{"latitude":40.6,"longitude":-73.9},"max":1000}}`, false},
	}
	var e predicate.Engine
	for _, tc := range cases {
		var s location.SearchRequest
		if err := json.Unmarshal([]byte(tc.req), &s); err != nil {
			t.Fatal(err)
		}
		q, err := s.PredicateQuery()
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Match(context.Background(), q, &c)
		if err != nil || got != tc.want {
			t.Errorf("%s: match = %v, %v; want %v", tc.req, got, err, tc.want)
		}
	}
}

// FuzzPredicateQuery checks that any decodable request converts without
// panicking and that every rejection is a typed invalid-params error.
func FuzzPredicateQuery(f *testing.F) {
	for _, s := range []string{`{}`, `{"serves":{}}`, `{"serves":{"a":1,"b":2}}`,
		`{"filters":{"hours":{"open_at":"2026-01-01T00:00:00Z"},"x":null}}`,
		`{"filters":{"hours":{"open_at":"bad"}}}`, `{"distance":{"center":{"latitude":1,"longitude":2},"max":3}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s location.SearchRequest
		if json.Unmarshal(data, &s) != nil {
			return
		}
		_, err := s.PredicateQuery()
		var ip *rpcerr.InvalidParams
		if err != nil && !errors.As(err, &ip) {
			t.Fatalf("untyped error %v for %s", err, data)
		}
	})
}

// TestPredicateCandidateInto: one candidate written over and over, as a
// load does, holds exactly what PredicateCandidate gives for the last
// Location, whatever the ones before held (more amenities, hours and
// exceptions, or a geo the last one lacks), and refills its lists in place
// when they have room.
func TestPredicateCandidateInto(t *testing.T) {
	locs := []string{
		`{"id":"a","name":"A","geo":{"latitude":1,"longitude":2},"timezone":"UTC",
			"amenities":{"a.x":{"description":"X"},"a.y":{"description":"Y"},"a.z":{"description":"Z"}},
			"hours":[{"day":"monday","opens":"09:00","closes":"17:00"},{"day":"friday","opens":"10:00","closes":"12:00"}],
			"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25"},
			                   {"valid_from":"2026-12-24","valid_through":"2026-12-24","opens":"09:00","closes":"12:00"}]}`,
		`{"id":"b","name":"B","timezone":"Europe/Berlin","amenities":{"a.w":{"description":"W"}},
			"hours":[{"day":"sunday","opens":"08:00","closes":"09:00"}]}`,
		`{"id":"c","name":"C"}`,
		`{"id":"d","name":"D","timezone":"UTC","hours":[],"exception_hours":[{"valid_from":"2027-01-01","valid_through":"2027-01-02"}]}`,
	}
	var c predicate.Candidate
	var cl predicate.Candidate
	for i, raw := range locs {
		var l location.Location
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatal(err)
		}
		hours := c.Schedule.Hours
		l.PredicateCandidateInto(&c)
		if want := l.PredicateCandidate(); !sameCandidate(c, want) {
			t.Errorf("Location %d: written over\n got %+v\nwant %+v", i, c, want)
		}
		if len(c.Schedule.Hours) > 0 && cap(hours) >= len(c.Schedule.Hours) && &c.Schedule.Hours[0] != &hours[:1][0] {
			t.Errorf("Location %d: the hours list had room for %d and was not reused", i, len(c.Schedule.Hours))
		}
		var ll location.LookupLocation
		if err := json.Unmarshal([]byte(raw), &ll); err != nil {
			t.Fatal(err)
		}
		ll.PredicateCandidateInto(&cl)
		if want := ll.PredicateCandidate(); !sameCandidate(cl, want) {
			t.Errorf("LookupLocation %d: written over\n got %+v\nwant %+v", i, cl, want)
		}
	}
}

// TestPredicateCandidateIntoAllocatesNothing: once a candidate's lists
// have room, viewing a Location with hours, exception hours (closures and
// opening times) and amenities allocates nothing: the exception times
// point into the Location's own list.
func TestPredicateCandidateIntoAllocatesNothing(t *testing.T) {
	var l location.Location
	if err := json.Unmarshal([]byte(`{"id":"a","name":"A","timezone":"UTC",
		"amenities":{"a.x":{"description":"X"}},
		"hours":[{"day":"monday","opens":"09:00","closes":"17:00"}],
		"exception_hours":[{"valid_from":"2026-12-25","valid_through":"2026-12-25"},
		                   {"valid_from":"2026-12-24","valid_through":"2026-12-24","opens":"09:00","closes":"12:00"}]}`), &l); err != nil {
		t.Fatal(err)
	}
	var c predicate.Candidate
	l.PredicateCandidateInto(&c)
	if got := *c.Schedule.Exceptions[1].Opens; got != "09:00" || c.Schedule.Exceptions[0].Opens != nil {
		t.Fatalf("exception times %v, %q", c.Schedule.Exceptions[0].Opens, got)
	}
	if c.Schedule.Exceptions[1].Closes != &l.ExceptionHours.V[1].Closes.V {
		t.Error("the closing time is a copy, not the Location's own")
	}
	if n := testing.AllocsPerRun(100, func() { l.PredicateCandidateInto(&c) }); n != 0 {
		t.Errorf("PredicateCandidateInto allocates %v times a call", n)
	}
}

// sameCandidate compares two views, an empty list equal to none.
func sameCandidate(a, b predicate.Candidate) bool {
	if len(a.Amenities) == 0 && len(b.Amenities) == 0 {
		a.Amenities, b.Amenities = nil, nil
	}
	if len(a.Schedule.Hours) == 0 && len(b.Schedule.Hours) == 0 {
		a.Schedule.Hours, b.Schedule.Hours = nil, nil
	}
	if len(a.Schedule.Exceptions) == 0 && len(b.Schedule.Exceptions) == 0 {
		a.Schedule.Exceptions, b.Schedule.Exceptions = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
