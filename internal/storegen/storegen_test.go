package storegen

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
)

func TestGenerateIsAFunctionOfTheSeed(t *testing.T) {
	a, err := Generate(7)
	if err != nil {
		t.Fatalf("Generate(7): %v", err)
	}
	b, err := Generate(7)
	if err != nil {
		t.Fatalf("Generate(7) again: %v", err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	def, err := Generate(DefaultSeed)
	if err != nil {
		t.Fatalf("Generate(DefaultSeed): %v", err)
	}
	if bytes.Equal(a, def) {
		t.Fatal("seed 7 reproduced the default dataset: the seed is ignored")
	}
	for _, out := range [][]byte{a, def} {
		if _, err := dataset.Parse(out); err != nil {
			t.Fatalf("generated dataset does not parse: %v", err)
		}
	}
	if !bytes.HasSuffix(a, []byte("]\n")) || !bytes.HasPrefix(a, []byte("[\n{")) {
		t.Fatalf("output framing wrong: starts %q ends %q", a[:3], a[len(a)-3:])
	}
	if len(a) > 6<<20 {
		t.Errorf("output is %d bytes, over the 6 MB budget", len(a))
	}
}

// TestHolidayDatesFallOnTheirWeekdays guards the hand-written holiday table
// against a slipped date.
func TestHolidayDatesFallOnTheirWeekdays(t *testing.T) {
	want := map[string]time.Weekday{
		"Thanksgiving Day": time.Thursday,
		"Black Friday":     time.Friday,
		"Easter Sunday":    time.Sunday,
		"Good Friday":      time.Friday,
		"Karfreitag":       time.Friday,
		"Ostermontag":      time.Monday,
		"Påskeaften":       time.Saturday,
	}
	seen := 0
	for code, hs := range holidays {
		for _, h := range hs {
			from, err := time.Parse(time.DateOnly, h.from)
			if err != nil {
				t.Fatalf("%s %s: %v", code, h.title, err)
			}
			through, err := time.Parse(time.DateOnly, h.through)
			if err != nil || through.Before(from) {
				t.Fatalf("%s %s: bad range %s..%s (%v)", code, h.title, h.from, h.through, err)
			}
			if wd, ok := want[h.title]; ok {
				seen++
				if from.Weekday() != wd {
					t.Errorf("%s %s on %s is a %s, want %s", code, h.title, h.from, from.Weekday(), wd)
				}
			}
		}
	}
	if seen < len(want) {
		t.Errorf("checked %d weekday-bound holidays, want at least %d", seen, len(want))
	}
}

func TestCheckScheduleRejectsBrokenLocations(t *testing.T) {
	good := func() outLocation {
		return outLocation{
			ID: "x", Name: "X", Timezone: "Pacific/Fiji",
			Hours: []outDailyHour{{Day: "monday", Opens: "09:00", Closes: "17:00"}},
			ExceptionHours: []outException{
				{ValidFrom: "2026-12-24", ValidThrough: "2026-12-24", Opens: "09:00", Closes: "12:00"},
				{ValidFrom: "2026-12-24", ValidThrough: "2026-12-24", Opens: "13:00", Closes: "15:00"},
				{ValidFrom: "2026-12-25", ValidThrough: "2026-12-26"},
			},
			Amenities: map[string]outAmenity{"dev.ucp.amenity.parking": {Description: "Parking"}},
		}
	}
	if err := checkSchedule(ptr(good())); err != nil {
		t.Fatalf("valid location rejected: %v", err)
	}
	cases := []struct {
		name   string
		mutate func(*outLocation)
		want   string
	}{
		{"no timezone", func(l *outLocation) { l.Timezone = "" }, "timezone"},
		{"unknown zone", func(l *outLocation) { l.Timezone = "Mars/Olympus" }, "Mars/Olympus"},
		{"bad day", func(l *outLocation) { l.Hours[0].Day = "Monday" }, "weekday"},
		{"opens equals closes", func(l *outLocation) { l.Hours[0].Closes = "09:00" }, "opens equals closes"},
		{"midnight to midnight", func(l *outLocation) { l.Hours[0].Opens, l.Hours[0].Closes = "00:00", "00:00" }, "opens equals closes"},
		{"bad clock", func(l *outLocation) { l.Hours[0].Opens = "24:00" }, "HH:MM"},
		{"bad date", func(l *outLocation) { l.ExceptionHours[2].ValidThrough = "2026-02-30" }, "valid_through"},
		{"reversed range", func(l *outLocation) { l.ExceptionHours[2].ValidFrom = "2026-12-27" }, "after valid_through"},
		{"half interval", func(l *outLocation) { l.ExceptionHours[0].Closes = "" }, "HH:MM"},
		{"overlapping ranges", func(l *outLocation) { l.ExceptionHours[2].ValidFrom = "2026-12-24" }, "intersects"},
		{"closure beside timed range", func(l *outLocation) {
			l.ExceptionHours[2].ValidFrom, l.ExceptionHours[2].ValidThrough = "2026-12-24", "2026-12-24"
		}, "intersects"},
		{"bad amenity key", func(l *outLocation) { l.Amenities["Parking"] = outAmenity{Description: "P"} }, "reverse-domain"},
		{"empty description", func(l *outLocation) { l.Amenities["dev.ucp.amenity.wi_fi"] = outAmenity{} }, "description"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := good()
			c.mutate(&l)
			err := checkSchedule(&l)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error mentioning %q", err, c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestMicroDegrees(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "0"},
		{179_000_000, "179"},
		{-179_970_000, "-179.97"},
		{-500_000, "-0.5"},
		{51_880_001, "51.880001"},
		{180_000_000, "180"},
	}
	for _, c := range cases {
		if got := string(microDegrees(c.in)); got != c.want {
			t.Errorf("microDegrees(%d) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestGenerateToScales checks that the scaled generator writes exactly the
// requested number of valid, uniquely identified stores, deterministically.
func TestGenerateToScales(t *testing.T) {
	// Generation runs on one goroutine: the race pass needs no large file.
	for _, n := range testshared.RaceCases([]int{1, 7, 5000}, []int{1, 7, 1000}) {
		var a, b bytes.Buffer
		if err := GenerateTo(&a, 11, n); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := GenerateTo(&b, 11, n); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("n=%d: output differs between runs", n)
		}
		recs, err := dataset.Parse(a.Bytes())
		if err != nil {
			t.Fatalf("n=%d: generated file does not parse: %v", n, err)
		}
		if len(recs) != n {
			t.Fatalf("n=%d: got %d records", n, len(recs))
		}
	}
	if err := GenerateTo(io.Discard, 1, 0); err == nil {
		t.Fatal("n=0: want an error")
	}
}

// TestLightShape checks the Light records: the same stores as Full (ids,
// names, geo and weekly hours), every Location valid against the UCP
// schemas and the store finder's rules (memory.New validates each one with
// the generated decoder), and about 860 bytes a store.
func TestLightShape(t *testing.T) {
	n := testshared.RaceCases([]int{5000}, []int{1000})[0] // one goroutine: see TestGenerateToScales
	var full, light bytes.Buffer
	if err := GenerateTo(&full, DefaultSeed, n); err != nil {
		t.Fatal(err)
	}
	if err := GenerateShapeTo(&light, DefaultSeed, n, Light); err != nil {
		t.Fatal(err)
	}
	frecs, err := dataset.Parse(full.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	lrecs, err := dataset.Parse(light.Bytes())
	if err != nil {
		t.Fatalf("light file does not parse: %v", err)
	}
	if _, err := memory.New(lrecs, memory.Options{}); err != nil {
		t.Fatalf("light file is not a valid store dataset: %v", err)
	}
	if len(lrecs) != n {
		t.Fatalf("got %d light records", len(lrecs))
	}
	for i := range lrecs {
		var f, l struct {
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Geo   json.RawMessage `json:"geo"`
			Hours json.RawMessage `json:"hours"`
		}
		if json.Unmarshal(frecs[i].Location, &f) != nil || json.Unmarshal(lrecs[i].Location, &l) != nil {
			t.Fatalf("record %d: undecodable", i)
		}
		if f.ID != l.ID || f.Name != l.Name || string(f.Geo) != string(l.Geo) || string(f.Hours) != string(l.Hours) {
			t.Fatalf("record %d: light store %s differs from full store %s", i, l.ID, f.ID)
		}
	}
	per := light.Len() / n
	if per < 700 || per > 1000 || light.Len()*2 > full.Len() {
		t.Errorf("light records average %d bytes (full %d), want about 860", per, full.Len()/n)
	}
	t.Logf("light %d bytes a store, full %d", per, full.Len()/n)
	if err := GenerateShapeTo(io.Discard, 1, 1, Shape(9)); err == nil {
		t.Error("unknown shape: want an error")
	}
}
