package sample

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zones of the sample are loaded below

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

var update = flag.Bool("update", false, "rewrite stores.json from internal/storegen")

// TestGenerateReproducesEmbeddedDataset is the golden test of the committed
// dataset: regenerating with the default seed must give the embedded file
// byte for byte. Run with -update after changing the tables.
func TestGenerateReproducesEmbeddedDataset(t *testing.T) {
	got, err := storegen.Generate(storegen.DefaultSeed)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if *update {
		path := "stores.json"
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("update %s: %v", path, err)
		}
		t.Logf("wrote %s (%d bytes); rebuild to re-embed it", path, len(got))
		return
	}
	want := DefaultJSON()
	if bytes.Equal(got, want) {
		t.Logf("%d bytes reproduced", len(got))
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			t.Fatalf("generator output differs from embedded stores.json at line %d:\n got: %.300s\nwant: %.300s\n(regenerate with go run ./internal/storegen/gendata -o examples/storefinder/sample/stores.json)", i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("generator output has %d lines, embedded stores.json has %d", len(gl), len(wl))
}

// testLocation is the part of a UCP Location the tests below inspect.
type testLocation struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Address struct {
		Country string `json:"address_country"`
	} `json:"address"`
	Geo *struct {
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	} `json:"geo"`
	Timezone string `json:"timezone"`
	Hours    []struct {
		Day, Opens, Closes string
	} `json:"hours"`
	ExceptionHours []struct {
		ValidFrom    string `json:"valid_from"`
		ValidThrough string `json:"valid_through"`
		Opens        string `json:"opens"`
		Closes       string `json:"closes"`
	} `json:"exception_hours"`
	Amenities map[string]struct {
		Description string `json:"description"`
	} `json:"amenities"`
}

func decodeLocation(t *testing.T, r dataset.Record) testLocation {
	t.Helper()
	var loc testLocation
	if err := json.Unmarshal(r.Location, &loc); err != nil {
		t.Fatalf("record %s: decode location: %v", r.ID, err)
	}
	return loc
}

func TestDefaultHasTheCasesTheServerNeeds(t *testing.T) {
	recs, err := Default()
	if err != nil {
		t.Fatalf("Default: %v", err)
	}
	zones := map[string]bool{}
	countries := map[string]bool{}
	var east179, west179, private, allDay, split, overnight, timed, closure, identical, noHours, aliased, deliver int
	for _, r := range recs {
		loc := decodeLocation(t, r)
		if loc.ID != r.ID {
			t.Fatalf("record ID %q differs from location id %q", r.ID, loc.ID)
		}
		if loc.Timezone != "" {
			if _, err := time.LoadLocation(loc.Timezone); err != nil {
				t.Errorf("%s: timezone %q does not load: %v", r.ID, loc.Timezone, err)
			}
			zones[loc.Timezone] = true
		}
		countries[loc.Address.Country] = true
		if loc.Geo == nil {
			t.Errorf("%s: generated store without geo", r.ID)
			continue
		}
		if loc.Geo.Longitude > 179 {
			east179++
		}
		if loc.Geo.Longitude < -179 {
			west179++
		}
		if r.Private {
			private++
		}
		if len(r.Aliases) > 0 {
			aliased++
		}
		if r.ServiceArea != nil && r.ServiceArea.RadiusM != nil && *r.ServiceArea.RadiusM > 0 {
			deliver++
		}
		if len(loc.Hours) == 0 {
			noHours++
		}
		perDay := map[string]int{}
		full := 0
		for _, h := range loc.Hours {
			perDay[h.Day]++
			if h.Opens == "00:00" && h.Closes == "23:59" {
				full++
			}
			if h.Closes < h.Opens {
				overnight++
			}
		}
		if full == 7 {
			allDay++
		}
		for _, n := range perDay {
			if n > 1 {
				split++
				break
			}
		}
		ranges := map[string]int{}
		for _, e := range loc.ExceptionHours {
			if e.Opens == "" {
				closure++
			} else {
				timed++
				ranges[e.ValidFrom+".."+e.ValidThrough]++
			}
		}
		for _, n := range ranges {
			if n > 1 {
				identical++
			}
		}
	}
	t.Logf("%d stores, %d zones, %d countries; antimeridian east/west %d/%d; private %d; 24h %d; split %d; overnight intervals %d; exceptions timed %d, closures %d, identical-range pairs %d; no hours %d",
		len(recs), len(zones), len(countries), east179, west179, private, allDay, split, overnight, timed, closure, identical, noHours)
	checks := []struct {
		what string
		got  int
		min  int
	}{
		{"stores", len(recs), 2000},
		{"time zones", len(zones), 6},
		{"countries", len(countries), 5},
		{"stores east of 179E", east179, 1},
		{"stores west of 179W", west179, 1},
		{"private stores", private, 1},
		{"24h stores", allDay, 1},
		{"split-shift stores", split, 1},
		{"overnight intervals", overnight, 1},
		{"timed exceptions", timed, 1},
		{"full closures", closure, 1},
		{"identical timed exception ranges", identical, 1},
		{"stores without hours", noHours, 1},
		{"stores with aliases", aliased, 1},
		{"stores with a delivery radius", deliver, 1},
	}
	for _, c := range checks {
		if c.got < c.min {
			t.Errorf("%s: got %d, want at least %d", c.what, c.got, c.min)
		}
	}
	if private*100 > len(recs)*10 {
		t.Errorf("private stores %d of %d: more than a few percent", private, len(recs))
	}
}

// TestDefaultLocationsMatchUpstreamSchema validates every embedded Location
// against the official 2026-08-25 Location schema, with formats asserted.
func TestDefaultLocationsMatchUpstreamSchema(t *testing.T) {
	dir := testshared.Path(t, "ucp-upstream", "2026-08-25", "source", "schemas", "common", "types")
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("list schemas in %s: %v (%d files)", dir, err, len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("parse %s: %v", f, err)
		}
		if err := c.AddResource("https://ucp.dev/schemas/common/types/"+filepath.Base(f), doc); err != nil {
			t.Fatalf("add %s: %v", f, err)
		}
	}
	sch, err := c.Compile("https://ucp.dev/schemas/common/types/location.json")
	if err != nil {
		t.Fatalf("compile location.json: %v", err)
	}

	// The compiled schema must be able to fail on each rule the generator
	// has to respect, or a pass below would prove nothing.
	for _, bad := range []string{
		`{"id":"x","name":"y","hours":[{"day":"monday","opens":"09:00","closes":"17:00"}]}`,
		`{"id":"x","name":"y","timezone":"UTC","hours":[{"day":"monday","opens":"9:00","closes":"17:00"}]}`,
		`{"id":"x","name":"y","timezone":"UTC","hours":[{"day":"mon","opens":"09:00","closes":"17:00"}]}`,
		`{"id":"x","name":"y","timezone":"UTC","exception_hours":[{"valid_from":"2026-13-01","valid_through":"2026-12-01"}]}`,
		`{"id":"x","name":"y","timezone":"UTC","exception_hours":[{"valid_from":"2026-12-01","valid_through":"2026-12-01","opens":"10:00"}]}`,
		`{"id":"x","name":"y","amenities":{"Parking":{"description":"P"}}}`,
		`{"id":"x","name":"y","amenities":{"dev.ucp.amenity.parking":{"description":""}}}`,
		`{"id":"x","name":"y","geo":{"latitude":91,"longitude":0}}`,
		`{"id":"x"}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err == nil {
			t.Fatalf("schema accepted the invalid Location %s", bad)
		}
	}

	recs, err := Default()
	if err != nil {
		t.Fatalf("Default: %v", err)
	}
	failed := 0
	for i, r := range recs {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Location))
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if err := sch.Validate(v); err != nil {
			failed++
			if failed <= 5 {
				t.Errorf("record %d (%s) fails the Location schema: %v", i, r.ID, err)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d locations fail the schema", failed, len(recs))
	}
	t.Logf("%d locations valid against location.json", len(recs))
}

func TestDefaultJSONIsACopy(t *testing.T) {
	a := DefaultJSON()
	a[0] = 'X'
	if DefaultJSON()[0] != '[' {
		t.Fatal("DefaultJSON exposes the embedded bytes to mutation")
	}
}
