package geodesic

import (
	"math"
	"testing"
)

// FuzzDistance checks, for any four float64s, that Distance never panics;
// that for valid points it is finite, non-negative, no longer than the
// half meridian, symmetric within 1e-9 m, and that Within accepts its own
// result; and that invalid points give NaN and Within false.
func FuzzDistance(f *testing.F) {
	seeds := [][4]float64{
		{0, 0, 0, 0},
		{0, 0, 0, 180},
		{90, 0, -90, 0},
		{90, 10, 90, -170},
		{0, 179.9, 0, -179.9},
		{0, 0, 0, 179.5},                  // equator, just past (1-f)*180
		{0, 0, 1e-9, 179.8},               // nearly antipodal, near the equator
		{33.892, 116.04, -33.8921, 296.5}, // nearly antipodal
		{-89.9999, 164.08, 0.0887, 97.77},
		{1e-300, 0, -1e-300, 180},
		{5e-324, -5e-324, -5e-324, 179.99999999999997},
		{45, 1e300, -45, -1e300},
		{-7.24, -171.76, 78.69, -171.76}, // meridian
		{math.NaN(), 0, 0, 0},
		{0, math.Inf(1), 0, 0},
		{91, 0, 0, 0},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, lat1, lon1, lat2, lon2 float64) {
		a, b := Point{lat1, lon1}, Point{lat2, lon2}
		d := Distance(a, b)
		if !a.valid() || !b.valid() {
			if !math.IsNaN(d) {
				t.Fatalf("Distance(%v, %v) = %v for an invalid point, want NaN", a, b, d)
			}
			if Within(a, b, math.Inf(1)) {
				t.Fatalf("Within(%v, %v, +Inf) = true for an invalid point", a, b)
			}
			return
		}
		if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			t.Fatalf("Distance(%v, %v) = %v, want finite and >= 0", a, b, d)
		}
		if d > halfMeridian+MaxError {
			t.Fatalf("Distance(%v, %v) = %.10f exceeds the half meridian", a, b, d)
		}
		if r := Distance(b, a); math.Abs(d-r) > 1e-9 {
			t.Fatalf("Distance not symmetric: %.10f vs %.10f", d, r)
		}
		if !Within(a, b, d) {
			t.Fatalf("Within(%v, %v, %v) = false, want true", a, b, d)
		}
	})
}
