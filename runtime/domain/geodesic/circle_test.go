package geodesic

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCircleReused holds one prepared Circle, as a search uses it for every
// candidate, to the exact comparison Distance(center, p) <= max, for
// centres near the equator, at mid latitude, near a pole and on the
// antimeridian, with radii from a metre to half the globe, and points
// scattered around each edge; and checks that the sphere screen (latitude
// alone included) decides most of them.
func TestCircleReused(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 12))
	centres := []Point{{0.5, 10}, {48.85, 2.35}, {-89.95, 40}, {12, 179.999}, {-33.9, -180}}
	radii := []float64{0, 1, 250, 5_000, 80_000, 2_500_000, 19_000_000, math.Inf(1)}
	decided, byLat, total := 0, 0, 0
	for _, o := range centres {
		for _, max := range radii {
			c := NewCircle(o, max)
			span := 3.0
			if max < math.Inf(1) {
				span = math.Min(180, 3*max/111_000+1e-5)
			}
			for i := 0; i < 4000; i++ {
				p := Point{
					Lat: math.Max(-90, math.Min(90, o.Lat+(rng.Float64()*2-1)*span)),
					Lon: o.Lon + (rng.Float64()*2-1)*span,
				}
				want := Distance(o, p) <= max
				if got := c.Contains(p); got != want {
					t.Fatalf("NewCircle(%v, %v).Contains(%v) = %v, Distance %v", o, max, p, got, Distance(o, p))
				}
				total++
				if c.screen(p) != 0 {
					decided++
				}
				s := math.Sin((p.Lat - o.Lat) * rad / 2)
				if s*s > c.hOut {
					byLat++
				}
			}
		}
	}
	if decided < total*9/10 {
		t.Errorf("the sphere screen decided %d of %d points, want at least 90%%", decided, total)
	}
	if byLat == 0 {
		t.Error("no point was rejected by its latitude alone")
	}
}

// TestCircleRefuses checks the rules Within documents: a negative or NaN
// max, and an invalid point or centre, never match.
func TestCircleRefuses(t *testing.T) {
	good := Point{10, 20}
	for _, max := range []float64{-1, math.NaN()} {
		if NewCircle(good, max).Contains(good) {
			t.Errorf("NewCircle(p, %v).Contains(p) = true, want false", max)
		}
	}
	for _, bad := range []Point{{91, 0}, {math.NaN(), 0}, {0, math.Inf(1)}} {
		if NewCircle(good, math.Inf(1)).Contains(bad) || NewCircle(bad, math.Inf(1)).Contains(good) {
			t.Errorf("a circle with invalid point %v matched", bad)
		}
	}
}

// BenchmarkCircleContains measures a prepared filter against the local
// reference pairs (40 km circles).
func BenchmarkCircleContains(b *testing.B) {
	pairs := benchPairs(b, "local")
	circles := make([]Circle, len(pairs))
	for i, p := range pairs {
		circles[i] = NewCircle(p.a, 40_000)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		k := i % len(pairs)
		if circles[k].Contains(pairs[k].b) {
			n++
		}
	}
	sink = float64(n)
}
