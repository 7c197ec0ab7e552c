package conform

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// The storefinder binary is built once per test run, the first time a
// test needs it.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func storefinderBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "conform-storefinder-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "storefinder")
		out, err := exec.Command("go", "build", "-o", binPath, "../../../../examples/storefinder").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build storefinder: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// startStorefinder runs the storefinder over HTTP on a free port with the
// per-caller rate limits off (parallel checker runs share its address) and
// returns its base URL; it is stopped when the test ends.
func startStorefinder(t *testing.T, args ...string) string {
	t.Helper()
	bin := storefinderBinary(t)
	args = append([]string{"--addr", "127.0.0.1:0", "--rate", "0", "--items-rate", "0", "--other-rate", "0"}, args...)
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	logs := bufio.NewScanner(stderr)
	endpoint := ""
	var seen strings.Builder
	for endpoint == "" && logs.Scan() {
		seen.WriteString(logs.Text() + "\n")
		if _, rest, ok := strings.Cut(logs.Text(), "endpoint="); ok && strings.Contains(logs.Text(), "serving MCP") {
			endpoint, _, _ = strings.Cut(rest, " ")
		}
	}
	if endpoint == "" {
		t.Fatalf("the storefinder never logged its endpoint:\n%s", seen.String())
	}
	go func() { // keep draining so the process never blocks on a full pipe
		for logs.Scan() {
		}
	}()
	return strings.TrimSuffix(endpoint, "/ucp/mcp")
}

// craftedItems are the item ids of the crafted dataset: held by different,
// overlapping sets of stores, so AND and OR give different answers.
var craftedItems = []string{"sku-x", "sku-y", "sku-z"}

// craftedData writes a small dataset that exercises every mutant: 24
// stores on a 700 m grid in New York (pairs from 0.7 to 4 km apart, so a
// 1 km clamp and a spherical distance both show), overlapping amenities and
// items, schedules that differ between New York and UTC readings, more
// stores than a batch maximum of 10, and one private store.
func craftedData(t *testing.T) string {
	t.Helper()
	type rec struct {
		Location    map[string]any `json:"location"`
		Items       []string       `json:"items,omitempty"`
		ServiceArea map[string]any `json:"service_area,omitempty"`
		Private     bool           `json:"private,omitempty"`
	}
	days := []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
	hours := func(opens, closes string, n int) []map[string]string {
		var out []map[string]string
		for _, d := range days[:n] {
			out = append(out, map[string]string{"day": d, "opens": opens, "closes": closes})
		}
		return out
	}
	var recs []rec
	for i := range 25 {
		amen := map[string]any{}
		if i%2 == 0 {
			amen["dev.ucp.amenity.parking"] = map[string]string{"description": "Parking"}
		}
		if i%3 == 0 {
			amen["dev.ucp.amenity.wi_fi"] = map[string]string{"description": "Wi-Fi"}
		}
		if i%4 == 1 {
			amen["dev.ucp.amenity.restroom"] = map[string]string{"description": "Restroom"}
		}
		var items []string
		if i%2 == 0 {
			items = append(items, "sku-x")
		}
		if i%3 != 0 {
			items = append(items, "sku-y")
		}
		if i%5 != 1 {
			items = append(items, "sku-z")
		}
		l := map[string]any{
			"id":   fmt.Sprintf("loc_crafted_%02d", i),
			"name": fmt.Sprintf("Crafted Store %d", i),
			"address": map[string]string{
				"street_address": fmt.Sprintf("%d Grid Street", 100+i), "address_locality": "New York",
				"address_region": "NY", "address_country": "US", "postal_code": fmt.Sprintf("100%02d", i%5),
			},
			"geo":      map[string]float64{"latitude": 40.74 + float64(i/5)*0.0063, "longitude": -74.00 + float64(i%5)*0.0083},
			"timezone": "America/New_York",
		}
		if len(amen) > 0 {
			l["amenities"] = amen
		}
		switch i % 3 {
		case 0:
			l["hours"] = hours("09:00", "17:00", 7)
		case 1:
			l["hours"] = hours("00:00", "23:59", 7)
		case 2:
			l["hours"] = hours("20:00", "02:00", 5)
		}
		r := rec{Location: l, Items: items}
		if i%4 != 3 {
			r.ServiceArea = map[string]any{"countries": []string{"US"}, "regions": []string{"NY"}, "radius_m": 3000}
		}
		r.Private = i == 24
		recs = append(recs, r)
	}
	data, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crafted.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runConform runs the checker the way the command does, fast and bounded.
func runConform(t *testing.T, url string, o Options) *Report {
	t.Helper()
	o.URL = url
	if o.AgentProfile == "" {
		o.AgentProfile = "https://platform.example/" + strings.ReplaceAll(t.Name(), "/", "-")
	}
	if o.Rate == 0 {
		o.Rate = 1000
	}
	if o.MaxRequests == 0 {
		o.MaxRequests = 1200
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	r, err := Run(ctx, o)
	if err != nil {
		t.Fatalf("conform %s: %v", url, err)
	}
	if r.Incomplete != "" {
		t.Fatalf("conform %s: incomplete: %s", url, r.Incomplete)
	}
	return r
}

// failures lists the failed checks of r, one line each.
func failures(r *Report) string {
	var b strings.Builder
	for _, c := range r.Checks {
		if c.Status == Fail {
			fmt.Fprintf(&b, "%s [%s %s]: %s\n", c.ID, c.Version, c.Transport, strings.Join(c.Details, "; "))
		}
	}
	return b.String()
}

// exercised are the checks whose passing means the data gave them real
// work: neither skipped nor short of a second operand.
var exercised = []string{
	"discovery.profile", "discovery.supported-versions", "discovery.transport-served",
	"errors.invalid-params", "mcp.errors", "rest.errors", "search.browse",
	"distance.inclusive-geodesic", "filters.amenities-and", "filters.items-and",
	"filters.hours-zone", "serves.and", "serves.country-forms", "search.no-implicit-operands",
	"pagination.walk", "pagination.cursor-bound", "lookup.inputs", "lookup.canonical-ids",
	"lookup.dedupe", "lookup.batch-limit", "lookup.not-found", "lookup.refinement", "parity.mcp-rest",
}

// mustPass fails the test unless every check named is in r and passed at
// every version and transport it ran at, without a remark.
func mustPass(t *testing.T, r *Report, ids ...string) {
	t.Helper()
	for _, id := range ids {
		cs := r.Find(id)
		if len(cs) == 0 {
			t.Errorf("%s did not run", id)
		}
		for _, c := range cs {
			if c.Status != Pass || len(c.Details) > 0 {
				t.Errorf("%s [%s %s]: %s %v", id, c.Version, c.Transport, c.Status, c.Details)
			}
		}
	}
}

// TestConformPassesTheStorefinder runs the checker against the real
// storefinder on its embedded dataset, both versions and both transports,
// as `ucpgen conform` would: every MUST holds.
func TestConformPassesTheStorefinder(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the storefinder (not in -short mode)")
	}
	url := startStorefinder(t, "--supported-versions", "2026-08-21")
	r := runConform(t, url, Options{Items: []string{"sku-aa-batteries-8", "sku-phone-charger-usbc", "sku-usbc-cable-1m"}})
	if r.Failed() {
		t.Fatalf("the storefinder failed:\n%s", failures(r))
	}
	if got := len(r.Find("parity.mcp-rest")); got != 2 {
		t.Errorf("parity ran at %d versions, want 2", got)
	}
	mustPass(t, r, "distance.inclusive-geodesic", "filters.amenities-and", "filters.items-and", "filters.hours-zone", "pagination.cursor-bound", "parity.mcp-rest")
	t.Logf("%d checks, %d requests in %s", len(r.Checks), r.Requests, r.Duration)
}

// TestConformPassesTheStorefinderOnPostGIS is the same run with the
// crafted dataset loaded into PostGIS, the storefinder's other Source.
func TestConformPassesTheStorefinderOnPostGIS(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the storefinder (not in -short mode)")
	}
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	url := startStorefinder(t, "--postgres", dsn, "--data", craftedData(t), "--batch-max", "10", "--supported-versions", "2026-08-21")
	r := runConform(t, url, Options{Items: craftedItems})
	if r.Failed() {
		t.Fatalf("the storefinder on PostGIS failed:\n%s", failures(r))
	}
	mustPass(t, r, exercised...)
}

// TestConformAsksEveryTransportAboutTheSameInstants runs the checker with a
// clock that is a minute later at every reading, as a real run crosses a
// minute now and then: the hours questions of every session still name
// the same instants, so parity compares like with like and the real
// storefinder passes.
func TestConformAsksEveryTransportAboutTheSameInstants(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the storefinder (not in -short mode)")
	}
	url := startStorefinder(t, "--supported-versions", "2026-08-21")
	var mu sync.Mutex
	reads := 0
	saved := now
	now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		reads++
		return time.Date(2026, 12, 3, 11, 37, 0, 0, time.UTC).Add(time.Duration(reads) * time.Minute) // a new minute at every reading
	}
	t.Cleanup(func() { now = saved })
	r := runConform(t, url, Options{Items: []string{"sku-aa-batteries-8", "sku-phone-charger-usbc", "sku-usbc-cable-1m"}})
	if r.Failed() {
		t.Fatalf("the storefinder failed with a clock that moves on:\n%s", failures(r))
	}
	mustPass(t, r, "filters.hours-zone", "parity.mcp-rest")
}
