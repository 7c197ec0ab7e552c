package conform

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestGeodesicAgreesWithGeographicLib holds the checker's distance reference
// to GeographicLib's inverse solutions: every pair it answers is within
// 0.1 mm of the reference, and the only pairs it may decline are nearly
// antipodal ones (of any category), which it declines with errNoConvergence rather than a
// wrong number.
func TestGeodesicAgreesWithGeographicLib(t *testing.T) {
	path := testshared.Path(t, "testdata", "geodesic", "wgs84-inverse.tsv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	answered, declined := map[string]int{}, map[string]int{}
	worst := 0.0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 6 {
			t.Fatalf("%s: want 6 columns, got %q", path, line)
		}
		var v [5]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(cols[i+1], 64); err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
		}
		got, err := geodesicDistance(v[0], v[1], v[2], v[3])
		if err != nil {
			if !nearlyAntipodal(v[0], v[1], v[2], v[3]) {
				t.Errorf("%s (%s): %v", line, cols[0], err)
			}
			declined[cols[0]]++
			continue
		}
		answered[cols[0]]++
		if d := math.Abs(got - v[4]); d > 1e-4 {
			t.Errorf("%s (%s): got %.6f m, GeographicLib %.6f m (off by %.3g m)", line, cols[0], got, v[4], d)
		} else if d > worst {
			worst = d
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if answered["local"] == 0 || answered["antimeridian"] == 0 {
		t.Fatalf("no rows read from %s", path)
	}
	t.Logf("answered %v, declined %v, worst agreement %.3g m", answered, declined, worst)
}

// nearlyAntipodal reports points within about a degree of each other's
// antipode, the only ones Vincenty's method may fail to converge on.
func nearlyAntipodal(lat1, lon1, lat2, lon2 float64) bool {
	return math.Abs(math.Remainder(lon2-lon1, 360)) > 179 && math.Abs(lat1+lat2) < 1.5
}

// TestGeodesicTable pins cases whose answer is known without a reference
// file: coincident points, both sides of the antimeridian, and the guard.
func TestGeodesicTable(t *testing.T) {
	cases := []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want                   float64
		wantErr                bool
	}{
		{"same point", 40.7, -74, 40.7, -74, 0, false},
		{"quarter equator", 0, 0, 0, 90, wgs84A * math.Pi / 2, false},
		{"across the antimeridian equals the short way", 0, 179.5, 0, -179.5, wgs84A * math.Pi / 180, false},
		{"exactly antipodal on the equator", 0, 0, 0, 180, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := geodesicDistance(tc.lat1, tc.lon1, tc.lat2, tc.lon2)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("got %v m, want errNoConvergence", got)
				}
				return
			}
			if err != nil || math.Abs(got-tc.want) > 1e-6 {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
