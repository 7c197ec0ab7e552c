package spatial

import (
	"math"
	"testing"
)

// FuzzCandidates checks the superset property for arbitrary centers and
// radii against a fixed set of awkward points (poles, antimeridian, dense
// clusters), and that bad inputs are errors rather than panics.
func FuzzCandidates(f *testing.F) {
	points := []Point{
		{90, 0}, {-90, 0}, {89.9, 179.9}, {-89.9, -179.9}, {0, 180}, {0, -179.999},
		{-16.8, 179.99}, {-16.8, -179.99}, {51.8, -176.66}, {51.5, 179.15},
		{40.78, -73.97}, {40.79, -73.96}, {35.69, 139.70}, {-33.87, 151.21}, {0, 0},
	}
	ix, err := New(points)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(0.0, 0.0, 1000.0)
	f.Add(90.0, 12.0, 5.0)
	f.Add(-16.8, -179.999, 5000.0)
	f.Add(51.6, 180.0, 200000.0)
	f.Add(0.0, 0.0, 2e7)
	f.Add(89.99, -45.0, 12000.0)
	f.Add(91.0, 0.0, 1.0)
	f.Add(0.0, 0.0, -1.0)
	f.Fuzz(func(t *testing.T, lat, lon, max float64) {
		center := Point{lat, lon}
		cands, err := ix.Candidates(center, max)
		bad := math.IsNaN(lat) || lat < -90 || lat > 90 || math.IsNaN(lon) || math.IsInf(lon, 0) || math.IsNaN(max) || max < 0
		if bad {
			if err == nil {
				t.Fatalf("Candidates(%v, %v) accepted a bad input", center, max)
			}
			return
		}
		if err != nil {
			t.Fatalf("Candidates(%v, %v): %v", center, max, err)
		}
		if miss := missing(cands, bruteForce(points, center, max)); len(miss) > 0 {
			t.Fatalf("Candidates(%v, %v) missed %v", center, max, miss)
		}
	})
}
