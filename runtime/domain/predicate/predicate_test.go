package predicate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// fakeHooks answers from per-candidate tables and records every call.
type fakeHooks struct {
	serves    map[string]bool   // candidate id -> serves answer
	items     map[string]bool   // candidate id -> items answer
	servesErr error             // returned by Serves when set
	itemsErr  error             // returned by ItemsAvailable when set
	calls     []string          // "serves:<id>" / "items:<id>" in call order
	targets   []Target          // operands seen by Serves
	itemLists [][]string        // operands seen by ItemsAvailable
	values    []any             // Candidate.Value seen by hooks
	extRaw    []json.RawMessage // operands seen by the extension filter
}

func (h *fakeHooks) Serves(_ context.Context, c *Candidate, t Target) (bool, error) {
	h.calls = append(h.calls, "serves:"+c.ID)
	h.targets = append(h.targets, t)
	h.values = append(h.values, c.Value)
	if h.servesErr != nil {
		return false, h.servesErr
	}
	return h.serves[c.ID], nil
}

func (h *fakeHooks) ItemsAvailable(_ context.Context, c *Candidate, items []string) (bool, error) {
	h.calls = append(h.calls, "items:"+c.ID)
	h.itemLists = append(h.itemLists, items)
	h.values = append(h.values, c.Value)
	if h.itemsErr != nil {
		return false, h.itemsErr
	}
	return h.items[c.ID], nil
}

func (h *fakeHooks) count(prefix string) int {
	n := 0
	for _, c := range h.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

const driveThru = "com.example.drive_thru"

// newEngine wires an engine to h with one extension filter that matches
// candidates whose Value is the string "drive-thru".
func newEngine(h *fakeHooks) *Engine {
	return &Engine{
		Hooks:       h,
		MaxDistance: 50_000,
		ServesKeys:  []string{"com.example.delivery_zone"},
		ExtensionFilters: map[string]ExtensionFilter{
			driveThru: func(_ context.Context, c *Candidate, raw json.RawMessage) (bool, error) {
				h.calls = append(h.calls, "ext:"+c.ID)
				h.extRaw = append(h.extRaw, raw)
				return c.Value == "drive-thru", nil
			},
		},
	}
}

var (
	center  = Geo{Lat: 40.7128, Lon: -74.0060}
	nearby  = Geo{Lat: 40.7228, Lon: -74.0060} // about 1.1 km north
	faraway = Geo{Lat: 41.7128, Lon: -74.0060} // about 111 km north
	noon    = time.Date(2026, 7, 15, 16, 0, 0, 0, time.UTC)

	wednesdays = hours.Schedule{Timezone: "America/New_York", HasHours: true,
		Hours: []hours.Interval{{Day: "wednesday", Opens: "10:00", Closes: "17:00"}}}
	thursdays = hours.Schedule{Timezone: "America/New_York", HasHours: true,
		Hours: []hours.Interval{{Day: "thursday", Opens: "10:00", Closes: "17:00"}}}
)

const (
	wifi    = "dev.ucp.amenity.wi_fi"
	parking = "dev.ucp.amenity.parking"
)

// predicateNames are the constraints a query can carry, in the order used by
// the AND table below.
var predicateNames = []string{"distance", "serves", "hours", "amenities", "items", "extension"}

// fullQuery carries every predicate; queryWith keeps only those in mask.
func queryWith(mask int) Query {
	var q Query
	if mask&1 != 0 {
		q.Distance = &Distance{Center: center, Max: 5_000}
	}
	if mask&2 != 0 {
		q.Serves = &Target{Key: "point", Point: &Geo{Lat: 40.7, Lon: -74}, Raw: json.RawMessage(`{"latitude":40.7,"longitude":-74}`)}
	}
	if mask&4 != 0 {
		q.Filters.OpenAt = &noon
	}
	if mask&8 != 0 {
		q.Filters.Amenities, q.Filters.HasAmenities = []string{wifi, parking}, true
	}
	if mask&16 != 0 {
		q.Filters.Items, q.Filters.HasItems = []string{"sku-1", "sku-2"}, true
	}
	if mask&32 != 0 {
		q.Filters.Extensions = []Extension{{Key: driveThru, Raw: json.RawMessage(`true`)}}
	}
	return q
}

// candidateFailing returns a candidate that satisfies every predicate except
// the one named (none when fail is ""), together with hook answers.
func candidateFailing(fail string) (*Candidate, *fakeHooks) {
	c := &Candidate{
		ID:        "loc-" + fail,
		Geo:       &nearby,
		Amenities: []string{parking, "dev.ucp.amenity.restroom", wifi},
		Schedule:  wednesdays,
		Value:     "drive-thru",
	}
	h := &fakeHooks{serves: map[string]bool{c.ID: true}, items: map[string]bool{c.ID: true}}
	switch fail {
	case "distance":
		c.Geo = &faraway
	case "serves":
		h.serves[c.ID] = false
	case "hours":
		c.Schedule = thursdays
	case "amenities":
		c.Amenities = []string{wifi}
	case "items":
		h.items[c.ID] = false
	case "extension":
		c.Value = "walk-in"
	case "":
	default:
		panic("unknown predicate " + fail)
	}
	return c, h
}

// TestMatchIsConjunction checks every combination of present predicates
// against candidates that fail exactly one predicate: a candidate matches iff
// the predicate it fails is absent from the query.
func TestMatchIsConjunction(t *testing.T) {
	for mask := 0; mask < 1<<len(predicateNames); mask++ {
		var present []string
		for i, n := range predicateNames {
			if mask&(1<<i) != 0 {
				present = append(present, n)
			}
		}
		for _, fail := range append([]string{""}, predicateNames...) {
			name := fmt.Sprintf("query=%s/fails=%s", strings.Join(present, "+"), fail)
			t.Run(name, func(t *testing.T) {
				c, h := candidateFailing(fail)
				want := fail == "" || !slices.Contains(present, fail)
				got, err := newEngine(h).Match(context.Background(), queryWith(mask), c)
				if err != nil {
					t.Fatalf("Match: %v", err)
				}
				if got != want {
					t.Errorf("Match = %v, want %v", got, want)
				}
				if mask&2 == 0 && h.count("serves:") != 0 {
					t.Errorf("serves hook called without serves: %v", h.calls)
				}
				if mask&16 == 0 && h.count("items:") != 0 {
					t.Errorf("items hook called without items: %v", h.calls)
				}
			})
		}
	}
}

func TestHooksRunLastAndOnlyForSurvivors(t *testing.T) {
	q := queryWith(1<<len(predicateNames) - 1) // everything
	for _, tc := range []struct {
		fail      string
		wantCalls []string
	}{
		{"distance", nil},
		{"amenities", nil},
		{"hours", nil},
		{"extension", []string{"ext:loc-extension"}},
		{"serves", []string{"ext:loc-serves", "serves:loc-serves"}},
		{"items", []string{"ext:loc-items", "serves:loc-items", "items:loc-items"}},
		{"", []string{"ext:loc-", "serves:loc-", "items:loc-"}},
	} {
		t.Run("fails="+tc.fail, func(t *testing.T) {
			c, h := candidateFailing(tc.fail)
			if _, err := newEngine(h).Match(context.Background(), q, c); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(h.calls, tc.wantCalls) {
				t.Errorf("calls = %q, want %q", h.calls, tc.wantCalls)
			}
		})
	}
}

func TestOperandsPassedExactly(t *testing.T) {
	h := &fakeHooks{serves: map[string]bool{"a": true}, items: map[string]bool{"a": true}}
	e := newEngine(h)
	value := &struct{ Name string }{"store A"}
	c := &Candidate{ID: "a", Value: value}
	for _, target := range []Target{
		{Key: "point", Point: &Geo{Lat: -33.8688, Lon: 151.2093}, Raw: json.RawMessage(`{"latitude": -33.8688, "longitude":151.2093}`)},
		{Key: "address", Address: &Locality{Country: "US", PostalCode: "10001"}, Raw: json.RawMessage(`{"address_country":"US","postal_code":"10001","x-extra":1}`)},
		{Key: "com.example.delivery_zone", Raw: json.RawMessage(`{"zone":"Z-7"}`)},
	} {
		t.Run(target.Key, func(t *testing.T) {
			h.targets, h.itemLists, h.extRaw, h.values = nil, nil, nil, nil
			want := target // a copy, compared after the call
			items := []string{"sku-9", "sku-1", "SKU-1"}
			ext := json.RawMessage(` {"lanes": 2} `)
			q := Query{Serves: &target, Filters: Filters{Items: items, HasItems: true, Extensions: []Extension{{Key: driveThru, Raw: ext}}}}
			c.Value = value
			e.ExtensionFilters[driveThru] = func(_ context.Context, c *Candidate, raw json.RawMessage) (bool, error) {
				h.extRaw = append(h.extRaw, raw)
				return true, nil
			}
			ok, err := e.Match(context.Background(), q, c)
			if err != nil || !ok {
				t.Fatalf("Match = %v, %v; want true", ok, err)
			}
			if len(h.targets) != 1 || !reflect.DeepEqual(h.targets[0], want) {
				t.Errorf("serves hook got %+v, want %+v", h.targets, want)
			}
			if len(h.itemLists) != 1 || !reflect.DeepEqual(h.itemLists[0], []string{"sku-9", "sku-1", "SKU-1"}) {
				t.Errorf("items hook got %q", h.itemLists)
			}
			if len(h.extRaw) != 1 || string(h.extRaw[0]) != string(ext) {
				t.Errorf("extension filter got %q, want %q", h.extRaw, ext)
			}
			for _, v := range h.values {
				if v != any(value) {
					t.Errorf("hook saw Value %v, want the candidate's own value", v)
				}
			}
		})
	}
}

func TestRejections(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name    string
		engine  func(*fakeHooks) *Engine
		query   Query
		pointer string
		keyword string
	}{
		{"max above cap", newEngine, Query{Distance: &Distance{Center: center, Max: 50_000.001}}, "/distance/max", "maximum"},
		{"negative max", newEngine, Query{Distance: &Distance{Center: center, Max: -1}}, "/distance/max", "minimum"},
		{"NaN max", newEngine, Query{Distance: &Distance{Center: center, Max: nan}}, "/distance/max", "unsupported"},
		{"infinite max without cap", func(h *fakeHooks) *Engine { return &Engine{} }, Query{Distance: &Distance{Center: center, Max: math.Inf(1)}}, "/distance/max", "unsupported"},
		{"center latitude out of range", newEngine, Query{Distance: &Distance{Center: Geo{Lat: 90.5}, Max: 1}}, "/distance/center/latitude", "maximum"},
		{"center latitude below range", newEngine, Query{Distance: &Distance{Center: Geo{Lat: -90.5}, Max: 1}}, "/distance/center/latitude", "minimum"},
		{"center longitude NaN", newEngine, Query{Distance: &Distance{Center: Geo{Lon: nan}, Max: 1}}, "/distance/center/longitude", "type"},
		{"serves without key", newEngine, Query{Serves: &Target{}}, "/serves", "minProperties"},
		{"serves point missing", newEngine, Query{Serves: &Target{Key: "point"}}, "/serves/point", "required"},
		{"serves point out of range", newEngine, Query{Serves: &Target{Key: "point", Point: &Geo{Lat: 0, Lon: 181}}}, "/serves/point/longitude", "maximum"},
		{"serves address missing", newEngine, Query{Serves: &Target{Key: "address"}}, "/serves/address", "anyOf"},
		{"serves address all empty", newEngine, Query{Serves: &Target{Key: "address", Address: &Locality{}}}, "/serves/address", "anyOf"},
		{"serves key not negotiated", newEngine, Query{Serves: &Target{Key: "com.example.other_zone", Raw: json.RawMessage(`{}`)}}, "/serves/com.example.other_zone", "propertyNames"},
		{"serves key escaped", newEngine, Query{Serves: &Target{Key: "a/b~c"}}, "/serves/a~1b~0c", "propertyNames"},
		{"serves without hooks", func(*fakeHooks) *Engine { return &Engine{} }, Query{Serves: &Target{Key: "point", Point: &center}}, "/serves/point", "unsupported"},
		{"unknown filter key", newEngine, Query{Filters: Filters{Extensions: []Extension{{Key: "com.example.color", Raw: json.RawMessage(`"red"`)}}}}, "/filters/com.example.color", "unsupported"},
		{"unknown filter key after a known one", newEngine, Query{Filters: Filters{Extensions: []Extension{{Key: driveThru}, {Key: "inventory"}}}}, "/filters/inventory", "unsupported"},
		{"unknown filter key escaped", newEngine, Query{Filters: Filters{Extensions: []Extension{{Key: "x/y~z"}}}}, "/filters/x~1y~0z", "unsupported"},
		{"items present but empty", newEngine, Query{Filters: Filters{HasItems: true}}, "/filters/items", "minItems"},
		{"items duplicate", newEngine, Query{Filters: Filters{HasItems: true, Items: []string{"a", "b", "a"}}}, "/filters/items/2", "uniqueItems"},
		{"amenity not reverse-domain", newEngine, Query{Filters: Filters{HasAmenities: true, Amenities: []string{wifi, "Wi-Fi"}}}, "/filters/amenities/1", "pattern"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHooks{serves: map[string]bool{"a": true}, items: map[string]bool{"a": true}}
			e := tc.engine(h)
			checkErr := e.Check(tc.query)
			_, matchErr := e.Match(context.Background(), tc.query, &Candidate{ID: "a", Geo: &nearby})
			for _, err := range []error{checkErr, matchErr} {
				assertInvalid(t, err, tc.pointer, tc.keyword)
			}
			if len(h.calls) != 0 {
				t.Errorf("hooks called for a rejected request: %v", h.calls)
			}
		})
	}
}

func assertInvalid(t *testing.T, err error, pointer, keyword string) {
	t.Helper()
	var ip *rpcerr.InvalidParams
	if !errors.As(err, &ip) {
		t.Fatalf("error %v (%T) is not *rpcerr.InvalidParams", err, err)
	}
	if len(ip.Violations) != 1 {
		t.Fatalf("violations = %+v, want one", ip.Violations)
	}
	v := ip.Violations[0]
	if v.Pointer != pointer || v.Keyword != keyword {
		t.Errorf("violation at %q (%s), want %q (%s): %s", v.Pointer, v.Keyword, pointer, keyword, v.Message)
	}
	if v.Message == "" {
		t.Error("violation has no message")
	}
}

func TestAcceptedRequests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query Query
	}{
		{"empty query", Query{}},
		{"max equal to cap", Query{Distance: &Distance{Center: center, Max: 50_000}}},
		{"max zero", Query{Distance: &Distance{Center: center, Max: 0}}},
		{"center on the antimeridian and pole", Query{Distance: &Distance{Center: Geo{Lat: -90, Lon: 180}, Max: 1}}},
		{"negotiated serves key", Query{Serves: &Target{Key: "com.example.delivery_zone", Raw: json.RawMessage(`{"zone":"Z-7"}`)}}},
		{"address with only a region", Query{Serves: &Target{Key: "address", Address: &Locality{Region: "CA"}}}},
		{"empty amenities list", Query{Filters: Filters{HasAmenities: true, Amenities: []string{}}}},
		{"registered extension filter", Query{Filters: Filters{Extensions: []Extension{{Key: driveThru, Raw: json.RawMessage(`true`)}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := newEngine(&fakeHooks{}).Check(tc.query); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

func TestNoCapAcceptsLargeRadius(t *testing.T) {
	e := &Engine{}
	if err := e.Check(Query{Distance: &Distance{Center: center, Max: 3e7}}); err != nil {
		t.Fatalf("Check without cap: %v", err)
	}
	ok, err := e.Match(context.Background(), Query{Distance: &Distance{Center: center, Max: 3e7}}, &Candidate{Geo: &Geo{Lat: -40.7128, Lon: 105.994}})
	if err != nil || !ok {
		t.Errorf("Match near antipode with 30,000 km radius = %v, %v; want true", ok, err)
	}
}

func TestDistanceIsInclusive(t *testing.T) {
	e := &Engine{}
	for _, g := range []Geo{nearby, faraway, {Lat: 40.7128, Lon: -74.0060}, {Lat: 0.5, Lon: 179.9}, {Lat: -40.7, Lon: 105.9}} {
		exact := geodesic.Distance(center, g)
		for _, tc := range []struct {
			max  float64
			want bool
		}{
			{exact, true},
			{math.Nextafter(exact, math.Inf(1)), true},
			{math.Nextafter(exact, 0), exact == 0},
		} {
			q := Query{Distance: &Distance{Center: center, Max: tc.max}}
			got, err := e.Match(context.Background(), q, &Candidate{ID: "x", Geo: &g})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("geo %v, distance %.17g m, max %.17g: match = %v, want %v", g, exact, tc.max, got, tc.want)
			}
		}
	}
}

func TestDistanceNeedsUsableGeo(t *testing.T) {
	e := &Engine{}
	q := Query{Distance: &Distance{Center: center, Max: 1e7}}
	for _, tc := range []struct {
		name string
		geo  *Geo
	}{
		{"missing", nil},
		{"NaN latitude", &Geo{Lat: math.NaN(), Lon: 0}},
		{"latitude out of range", &Geo{Lat: 95, Lon: -74}},
		{"longitude out of range", &Geo{Lat: 40, Lon: -190}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := e.Match(context.Background(), q, &Candidate{ID: "x", Geo: tc.geo})
			if err != nil || ok {
				t.Errorf("Match = %v, %v; want false, nil", ok, err)
			}
		})
	}
	// Without a distance relation, a missing geo does not matter.
	if ok, err := e.Match(context.Background(), Query{}, &Candidate{ID: "x"}); err != nil || !ok {
		t.Errorf("no distance, no geo: Match = %v, %v; want true", ok, err)
	}
}

func TestAmenitiesExactKeys(t *testing.T) {
	keys := []string{"dev.ucp.amenity.shopping.in_store_pickup", "com.example.Wifi", wifi}
	for _, tc := range []struct {
		name string
		want []string
		ok   bool
	}{
		{"exact key", []string{"dev.ucp.amenity.shopping.in_store_pickup"}, true},
		{"all of several", []string{wifi, "dev.ucp.amenity.shopping.in_store_pickup"}, true},
		{"repeated id", []string{wifi, wifi}, true},
		{"prefix of a key", []string{"dev.ucp.amenity.shopping"}, false},
		{"key is a prefix of the id", []string{"dev.ucp.amenity.wi_fi.fast"}, false},
		{"no case folding", []string{"com.example.wifi"}, false},
		{"unknown id", []string{"com.example.helipad"}, false},
		{"one of two missing", []string{wifi, "com.example.helipad"}, false},
		{"empty list", []string{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Query{Filters: Filters{HasAmenities: true, Amenities: tc.want}}
			got, err := (&Engine{}).Match(context.Background(), q, &Candidate{ID: "x", Amenities: keys})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.ok {
				t.Errorf("Match = %v, want %v", got, tc.ok)
			}
		})
	}
}

func TestHoursFilterUsesSchedule(t *testing.T) {
	at, err := ParseOpenAt("2026-07-15T17:00:00-04:00")
	if err != nil {
		t.Fatal(err)
	}
	before := at.Add(-time.Second)
	for _, tc := range []struct {
		name  string
		sched hours.Schedule
		at    time.Time
		want  bool
	}{
		{"open at 16:59:59", wednesdays, before, true},
		{"closed at closes", wednesdays, at, false},
		{"absent hours never match", hours.Schedule{}, before, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Query{Filters: Filters{OpenAt: &tc.at}}
			got, err := (&Engine{}).Match(context.Background(), q, &Candidate{ID: "x", Schedule: tc.sched})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUnusableScheduleIsLoud: an hours filter that meets a schedule it
// cannot evaluate (a day value added upstream that the runtime does not
// interpret, a bad zone) fails with a typed error naming the location, the
// member and the value, instead of silently matching nothing.
func TestUnusableScheduleIsLoud(t *testing.T) {
	at, err := ParseOpenAt("2026-07-15T12:00:00-04:00")
	if err != nil {
		t.Fatal(err)
	}
	holidays := append(slices.Clone(wednesdays.Hours), hours.Interval{Day: "public_holidays", Opens: "10:00", Closes: "14:00"})
	for _, tc := range []struct {
		name           string
		sched          hours.Schedule
		pointer, value string
	}{
		{"a day the runtime does not interpret", hours.Schedule{Timezone: "America/New_York", HasHours: true, Hours: holidays}, "/hours/1/day", "public_holidays"},
		{"an unknown zone", hours.Schedule{Timezone: "No/Where", HasHours: true, Hours: wednesdays.Hours}, "/timezone", "No/Where"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Query{Filters: Filters{OpenAt: &at}}
			got, err := (&Engine{}).Match(context.Background(), q, &Candidate{ID: "s1", Schedule: tc.sched})
			var ue *UnusableScheduleError
			if !errors.As(err, &ue) {
				t.Fatalf("Match = %v, %v; want an *UnusableScheduleError", got, err)
			}
			if ue.LocationID != "s1" || ue.Pointer != tc.pointer || ue.Value != tc.value {
				t.Errorf("error %+v; want location s1, pointer %s, value %q", ue, tc.pointer, tc.value)
			}
			if _, isInvalid := rpcerr.AsInvalidParams(err); isInvalid {
				t.Error("a data fault is reported as the client's -32602")
			}
		})
	}
	// Without an hours filter the schedule is not evaluated, so the
	// Location still matches other constraints.
	if ok, err := (&Engine{}).Match(context.Background(), Query{}, &Candidate{ID: "s1", Schedule: hours.Schedule{Timezone: "No/Where", HasHours: true}}); !ok || err != nil {
		t.Errorf("without an hours filter: %v, %v", ok, err)
	}
}

// TestCompiledScheduleWins proves the engine evaluates a candidate's
// compiled schedule, not its Schedule, when the source supplied one: the two
// disagree here on purpose.
func TestCompiledScheduleWins(t *testing.T) {
	at, err := ParseOpenAt("2026-07-15T16:00:00-04:00")
	if err != nil {
		t.Fatal(err)
	}
	open, err := wednesdays.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    Candidate
		want bool
	}{
		{"compiled open, schedule absent", Candidate{ID: "x", Compiled: open}, true},
		{"compiled absent, schedule open", Candidate{ID: "x", Schedule: wednesdays}, true},
		{"neither", Candidate{ID: "x"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Query{Filters: Filters{OpenAt: &at}}
			got, err := (&Engine{}).Match(context.Background(), q, &tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseOpenAt(t *testing.T) {
	if _, err := ParseOpenAt("2026-07-15T12:00:00Z"); err != nil {
		t.Errorf("valid instant: %v", err)
	}
	for _, s := range []string{"2026-07-15T12:00:00", "2026-07-15 12:00:00Z", "tomorrow"} {
		_, err := ParseOpenAt(s)
		assertInvalid(t, err, "/filters/hours/open_at", "format")
	}
}

func TestServesUnevaluableRejects(t *testing.T) {
	h := &fakeHooks{servesErr: fmt.Errorf("postal system of %q is not modelled: %w", "XK", ErrUnevaluable)}
	q := Query{Serves: &Target{Key: "address", Address: &Locality{Country: "XK", PostalCode: "10000"}}}
	_, err := newEngine(h).Match(context.Background(), q, &Candidate{ID: "a"})
	assertInvalid(t, err, "/serves/address", "unevaluable")
	if !strings.Contains(err.Error(), "postal system") {
		t.Errorf("error %q lost the hook's reason", err)
	}
}

func TestExtensionUnevaluableRejects(t *testing.T) {
	e := newEngine(&fakeHooks{})
	e.ExtensionFilters[driveThru] = func(context.Context, *Candidate, json.RawMessage) (bool, error) {
		return false, fmt.Errorf("lane count: %w", ErrUnevaluable)
	}
	q := Query{Filters: Filters{Extensions: []Extension{{Key: driveThru, Raw: json.RawMessage(`{"lanes":"many"}`)}}}}
	_, err := e.Match(context.Background(), q, &Candidate{ID: "a"})
	assertInvalid(t, err, "/filters/"+driveThru, "unevaluable")
}

func TestExtensionInvalidParamsPassThrough(t *testing.T) {
	e := newEngine(&fakeHooks{})
	e.ExtensionFilters[driveThru] = func(context.Context, *Candidate, json.RawMessage) (bool, error) {
		return false, rpcerr.Invalid("/filters/"+driveThru+"/lanes", "type", "lanes must be an integer")
	}
	q := Query{Filters: Filters{Extensions: []Extension{{Key: driveThru}}}}
	_, err := e.Match(context.Background(), q, &Candidate{ID: "a"})
	assertInvalid(t, err, "/filters/"+driveThru+"/lanes", "type")
}

func TestItemsUnevaluableFailsMatchWithoutError(t *testing.T) {
	q := Query{Filters: Filters{HasItems: true, Items: []string{"sku-unknown"}}}
	h := &fakeHooks{itemsErr: fmt.Errorf("catalog has no %q: %w", "sku-unknown", ErrUnevaluable)}
	ok, err := newEngine(h).Match(context.Background(), q, &Candidate{ID: "a"})
	if err != nil || ok {
		t.Errorf("Match = %v, %v; want false, nil", ok, err)
	}
	// Without hooks, nobody can establish availability: no match, no error.
	ok, err = (&Engine{}).Match(context.Background(), q, &Candidate{ID: "a"})
	if err != nil || ok {
		t.Errorf("no hooks: Match = %v, %v; want false, nil", ok, err)
	}
}

// An empty item id names no item: the request is served and matches
// nothing, without asking the hooks.
func TestEmptyItemIDMatchesNothing(t *testing.T) {
	q := Query{Filters: Filters{HasItems: true, Items: []string{"sku-1", ""}}}
	h := &fakeHooks{}
	ok, err := newEngine(h).Match(context.Background(), q, &Candidate{ID: "a"})
	if err != nil || ok {
		t.Errorf("Match = %v, %v; want false, nil", ok, err)
	}
	if n := h.count("items"); n != 0 {
		t.Errorf("the items hook ran %d times for an id that names no item", n)
	}
}

// CheckNumbers refuses a radius beyond float64 (decoded as +Inf) at its
// pointer with the violation Prepare gives, and passes finite ones.
func TestCheckNumbersRefusesInfiniteRadius(t *testing.T) {
	center := Geo{Lat: 51.5, Lon: -0.12}
	for _, m := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		err := Query{Distance: &Distance{Center: center, Max: m}}.CheckNumbers()
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok || ip.Violations[0].Pointer != "/distance/max" || ip.Violations[0].Keyword != "unsupported" {
			t.Errorf("CheckNumbers(max %v) = %v, want unsupported at /distance/max", m, err)
		}
		if _, perr := (&Engine{}).Prepare(Query{Distance: &Distance{Center: center, Max: m}}); perr == nil || perr.Error() != err.Error() {
			t.Errorf("Prepare(max %v) = %v, want the same refusal %v", m, perr, err)
		}
	}
	if err := (Query{Distance: &Distance{Center: center, Max: math.MaxFloat64}}).CheckNumbers(); err != nil {
		t.Errorf("CheckNumbers(max MaxFloat64) = %v, want nil", err)
	}
}

func TestHookErrorsPropagateWrapped(t *testing.T) {
	boom := errors.New("inventory service unavailable")
	for _, tc := range []struct {
		name  string
		hooks *fakeHooks
		query Query
	}{
		{"serves", &fakeHooks{servesErr: boom}, Query{Serves: &Target{Key: "point", Point: &center}}},
		{"items", &fakeHooks{serves: map[string]bool{}, itemsErr: boom}, Query{Filters: Filters{HasItems: true, Items: []string{"x"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newEngine(tc.hooks).Match(context.Background(), tc.query, &Candidate{ID: "store-7"})
			if !errors.Is(err, boom) {
				t.Fatalf("error %v does not wrap the hook's error", err)
			}
			if _, isInvalid := rpcerr.AsInvalidParams(err); isInvalid {
				t.Error("a hook failure must not become invalid params")
			}
			if !strings.Contains(err.Error(), "store-7") {
				t.Errorf("error %q does not name the candidate", err)
			}
		})
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := &fakeHooks{serves: map[string]bool{"a": true}}
	_, err := newEngine(h).Match(ctx, Query{Serves: &Target{Key: "point", Point: &center}}, &Candidate{ID: "a"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if len(h.calls) != 0 {
		t.Errorf("hooks called after cancellation: %v", h.calls)
	}
}

func TestPreparedReusedAcrossCandidates(t *testing.T) {
	h := &fakeHooks{serves: map[string]bool{"a": true, "c": true}}
	p, err := newEngine(h).Prepare(Query{
		Distance: &Distance{Center: center, Max: 5_000},
		Serves:   &Target{Key: "address", Address: &Locality{PostalCode: "10001"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var matched []string
	for _, c := range []*Candidate{
		{ID: "a", Geo: &nearby}, {ID: "b", Geo: &nearby}, {ID: "c", Geo: &faraway}, {ID: "d"},
	} {
		ok, err := p.Match(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			matched = append(matched, c.ID)
		}
	}
	if !slices.Equal(matched, []string{"a"}) {
		t.Errorf("matched %v, want [a]", matched)
	}
	if want := []string{"serves:a", "serves:b"}; !slices.Equal(h.calls, want) {
		t.Errorf("hook calls %v, want %v (only candidates within distance)", h.calls, want)
	}
}

func TestNilCandidateIsAnError(t *testing.T) {
	ok, err := (&Engine{}).Match(context.Background(), Query{}, nil)
	if err == nil || ok {
		t.Errorf("Match(nil) = %v, %v; want an error", ok, err)
	}
}

// MatchLocal is Match without the hooks: same verdict on every local
// predicate, and no hook is ever called.
func TestMatchLocalLeavesHooksOut(t *testing.T) {
	q := queryWith(1<<len(predicateNames) - 1)
	for _, fail := range []string{"distance", "amenities", "hours", "extension", "serves", "items", ""} {
		t.Run("fails="+fail, func(t *testing.T) {
			c, h := candidateFailing(fail)
			p, err := newEngine(h).Prepare(q)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := p.MatchLocal(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			local := fail != "distance" && fail != "amenities" && fail != "hours" && fail != "extension"
			if ok != local {
				t.Errorf("MatchLocal = %v, want %v", ok, local)
			}
			if h.count("serves:")+h.count("items:") != 0 {
				t.Errorf("MatchLocal called hooks: %q", h.calls)
			}
			if p.Serves() == nil || !p.HasItems() || len(p.Items()) == 0 {
				t.Error("prepared query lost its serves target or items")
			}
		})
	}
}

// The serves rejection says the Business's reason once, without the
// sentinel's own words.
func TestUnevaluableReason(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: postal codes of %q are not modelled", ErrUnevaluable, "FR"), `postal codes of "FR" are not modelled`},
		{fmt.Errorf("zone lookup: %w", ErrUnevaluable), "zone lookup"},
		{ErrUnevaluable, "no reason given"},
	} {
		if got := UnevaluableReason(tc.err); got != tc.want {
			t.Errorf("UnevaluableReason(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
	h := &fakeHooks{servesErr: fmt.Errorf("%w: regions are not modelled", ErrUnevaluable)}
	q := Query{Serves: &Target{Key: "address", Address: &Locality{Region: "NY"}}}
	_, err := newEngine(h).Match(context.Background(), q, &Candidate{ID: "a"})
	ip, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	if msg := ip.Violations[0].Message; msg != "this Business cannot evaluate the serves target: regions are not modelled" {
		t.Errorf("message %q", msg)
	}
}

// TestIsReverseDomainMatchesThePattern holds the hand-written matcher to
// the schema's pattern, compiled by regexp, on the edges of every rule.
func TestIsReverseDomainMatchesThePattern(t *testing.T) {
	for _, id := range []string{
		"dev.ucp.amenity.parking", "dev.ucp.amenity.wi_fi", "a.b", "a.0", "a1-b.c_d-e_", "a.b.c.d.e",
		"", "a", "a.", ".a", "a..b", "A.b", "a.B", "1a.b", "-a.b", "a-.b", "a.-b", "a.b-", "a._b", "a_.b",
		"a.b_", "a.b_-c", "dev.ucp.amenity.parking ", "dev.ucp.amenity.caf\u00e9", "a.b\n",
	} {
		if got, want := isReverseDomain(id), reverseDomainRegexp.MatchString(id); got != want {
			t.Errorf("isReverseDomain(%q) = %v, the pattern says %v", id, got, want)
		}
	}
}

var reverseDomainRegexp = regexp.MustCompile(reverseDomainPattern)

func FuzzIsReverseDomain(f *testing.F) {
	for _, s := range []string{"dev.ucp.amenity.parking", "a.b_", "a-.b", "x.y.z-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := isReverseDomain(id), reverseDomainRegexp.MatchString(id); got != want {
			t.Fatalf("isReverseDomain(%q) = %v, the pattern says %v", id, got, want)
		}
	})
}
