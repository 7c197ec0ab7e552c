package geodesic

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// Lengths of WGS 84 meridian arcs (GeographicLib GeodSolve -i -E -p 12):
// equator to pole, and pole to pole (also the distance between any two
// exactly antipodal points, since on an oblate ellipsoid the shortest line
// between antipodes runs over a pole).
const (
	quarterMeridian = 10001965.7293127254
	halfMeridian    = 20003931.4586254470
)

func TestSincosDegExactAtQuadrants(t *testing.T) {
	for k := -8; k <= 8; k++ {
		x := float64(90 * k)
		s, c := sincosDeg(x)
		var ws, wc float64
		switch ((k % 4) + 4) % 4 {
		case 0:
			ws, wc = 0, 1
		case 1:
			ws, wc = 1, 0
		case 2:
			ws, wc = 0, -1
		case 3:
			ws, wc = -1, 0
		}
		if s != ws || c != wc || s == 0 && math.Signbit(s) || c == 0 && math.Signbit(c) {
			t.Errorf("sincosDeg(%v) = (%v, %v), want exactly (%v, %v) without negative zeros", x, s, c, ws, wc)
		}
	}
	for _, x := range []float64{30, 45, -60, 123.456, 1e6 + 30, -719.5} {
		s, c := sincosDeg(x)
		r := math.Mod(x, 360) * math.Pi / 180
		if math.Abs(s-math.Sin(r)) > 1e-15 || math.Abs(c-math.Cos(r)) > 1e-15 {
			t.Errorf("sincosDeg(%v) = (%v, %v), want (%v, %v)", x, s, c, math.Sin(r), math.Cos(r))
		}
	}
}

// exactLonDiff computes |lon2 - lon1| reduced to [0, 180] with exact
// big-float arithmetic, then rounds once: what lonDiffDeg must return.
func exactLonDiff(lon1, lon2 float64) float64 {
	d := new(big.Float).SetPrec(2000).Sub(big.NewFloat(lon2).SetPrec(2000), big.NewFloat(lon1).SetPrec(2000))
	d.Abs(d)
	c360 := big.NewFloat(360)
	turns, _ := new(big.Float).Quo(d, c360).Int(nil) // d >= 0: truncation is floor
	d.Sub(d, new(big.Float).SetPrec(2000).Mul(new(big.Float).SetInt(turns), c360))
	if d.Cmp(big.NewFloat(180)) > 0 {
		d.Sub(c360, d)
	}
	f, _ := d.Float64()
	return f
}

func TestLonDiffDegExact(t *testing.T) {
	cases := []struct{ lon1, lon2 float64 }{
		{179.9, -179.9},
		{-179.9, 179.9},
		{179.99999999999997, -179.99999999999997},
		{0, 180}, {-180, 180}, {180, -180}, {10, 370}, {-90, 90},
		{1e-20, 180}, {-1e-20, 180}, {123.456, -236.544},
		{1e15 + 0.5, -3}, {-540.25, 179.75}, {0.1, 0.3},
	}
	for _, c := range cases {
		want := exactLonDiff(c.lon1, c.lon2)
		if got := lonDiffDeg(c.lon1, c.lon2); got != want {
			t.Errorf("lonDiffDeg(%v, %v) = %.17g, exact %.17g", c.lon1, c.lon2, got, want)
		}
	}
}

func TestDistanceKnownValues(t *testing.T) {
	cases := []struct {
		name string
		a, b Point
		want float64
	}{
		{"equatorial antipodes", Point{0, 0}, Point{0, 180}, halfMeridian},
		{"pole to pole", Point{90, 0}, Point{-90, 0}, halfMeridian},
		{"pole to pole, any longitudes", Point{90, 37}, Point{-90, -150}, halfMeridian},
		{"antipodes at 37.5", Point{37.5, 10}, Point{-37.5, -170}, halfMeridian},
		{"antipodes at -81", Point{-81, -100}, Point{81, 80}, halfMeridian},
		{"equator to pole", Point{0, 0}, Point{90, 0}, quarterMeridian},
		{"equator to pole, other longitude", Point{0, 0}, Point{90, 123}, quarterMeridian},
		// GeodSolve -i -E -p 12; -E parses 179.9 in long double, which
		// differs from the float64 179.9 by about 1e-10 m here.
		{"equator across antimeridian", Point{0, 179.9}, Point{0, -179.9}, 22263.8981586534},
		{"45N across antimeridian", Point{45, 179.9}, Point{45, -179.9}, 15769.3630157757},
		{"60S across antimeridian", Point{-60, -179.99}, Point{-59.99, 179.99}, 1577.0541530945},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Distance(c.a, c.b)
			if err := math.Abs(got - c.want); !(err <= MaxError) {
				t.Errorf("Distance(%v, %v) = %.10f, want %.10f (error %.3g m)", c.a, c.b, got, c.want, err)
			}
		})
	}
}

func TestDistanceAcrossAntimeridianEqualsShiftedPair(t *testing.T) {
	// Shifting both longitudes by 180 degrees is exact for these values, so
	// the two pairs have exactly the same longitude difference and must give
	// exactly the same distance.
	for _, lat := range []float64{0, 12.5, -45, 89.9} {
		for _, lon := range []float64{179.9, 179.999999, 170.25} {
			a, b := Point{lat, lon}, Point{lat + 0.01, -lon}
			as, bs := Point{lat, lon - 180}, Point{lat + 0.01, -lon + 180}
			if d, ds := Distance(a, b), Distance(as, bs); d != ds {
				t.Errorf("Distance(%v, %v) = %.10f but shifted pair gives %.10f", a, b, d, ds)
			}
		}
	}
}

func TestDistanceZero(t *testing.T) {
	for _, c := range []struct{ a, b Point }{
		{Point{0, 0}, Point{0, 0}},
		{Point{51.5, -0.12}, Point{51.5, -0.12}},
		{Point{-33.9, 151.2}, Point{-33.9, 151.2 + 360}},
		{Point{10, 180}, Point{10, -180}},
		{Point{90, 0}, Point{90, 135}},
		{Point{-90, -45}, Point{-90, 170}},
		{Point{0, -540}, Point{0, 180}},
	} {
		if d := Distance(c.a, c.b); d != 0 {
			t.Errorf("Distance(%v, %v) = %v, want exactly 0", c.a, c.b, d)
		}
		if !Within(c.a, c.b, 0) {
			t.Errorf("Within(%v, %v, 0) = false, want true (equality matches)", c.a, c.b)
		}
	}
}

func TestDistanceSymmetric(t *testing.T) {
	// The canonical frame (point farther from the equator first, southern
	// hemisphere, longitude difference in [0, 180]) is the same for (a, b)
	// and (b, a), so the results are identical, not merely close.
	for _, p := range loadReference(t) {
		if d1, d2 := Distance(p.a, p.b), Distance(p.b, p.a); d1 != d2 {
			t.Errorf("line %d: Distance(a, b) = %.10f, Distance(b, a) = %.10f", p.line, d1, d2)
		}
	}
}

func TestDistanceInvalidInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	good := Point{10, 20}
	for _, bad := range []Point{
		{nan, 0}, {0, nan}, {90.000001, 0}, {-91, 0}, {inf, 0}, {-inf, 0},
		{0, inf}, {0, -inf}, {nan, nan},
	} {
		if d := Distance(good, bad); !math.IsNaN(d) {
			t.Errorf("Distance(%v, %v) = %v, want NaN", good, bad, d)
		}
		if d := Distance(bad, good); !math.IsNaN(d) {
			t.Errorf("Distance(%v, %v) = %v, want NaN", bad, good, d)
		}
		if Within(good, bad, inf) || Within(bad, good, inf) {
			t.Errorf("Within with invalid point %v = true, want false", bad)
		}
	}
	for _, max := range []float64{-1, -1e-300, math.Copysign(0, -1) - 1e-320, nan, -inf} {
		if Within(good, good, max) {
			t.Errorf("Within(p, p, %v) = true, want false", max)
		}
	}
	if !Within(good, Point{-good.Lat, good.Lon + 180}, inf) {
		t.Error("Within(max = +Inf) = false for valid points, want true")
	}
}

func TestDistanceAcceptsAnyFiniteLongitude(t *testing.T) {
	base := Distance(Point{12, 34}, Point{-56, 78})
	for _, k := range []float64{-1e6, -3, -1, 1, 2, 1000} {
		got := Distance(Point{12, 34 + 360*k}, Point{-56, 78 - 360*k})
		if !(math.Abs(got-base) <= MaxError) {
			t.Errorf("longitudes shifted by %v turns: %.10f, want %.10f", k, got, base)
		}
	}
}

// greatCircle is the closed-form great-circle distance on a sphere of
// radius r (the atan2 form, accurate at all separations).
func greatCircle(r float64, a, b Point) float64 {
	const rad = math.Pi / 180
	s1, c1 := math.Sincos(a.Lat * rad)
	s2, c2 := math.Sincos(b.Lat * rad)
	sl, cl := math.Sincos((b.Lon - a.Lon) * rad)
	y := math.Hypot(c2*sl, c1*s2-s1*c2*cl)
	x := s1*s2 + c1*c2*cl
	return r * math.Atan2(y, x)
}

// TestSolverOnSphere runs the full iteration with zero flattening, where
// the geodesic is a great circle with a closed form, over random and nearly
// antipodal pairs.
func TestSolverOnSphere(t *testing.T) {
	const r = 6371000
	sphere := newEllipsoid(r, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		a := Point{math.Asin(2*rng.Float64()-1) * 180 / math.Pi, 360*rng.Float64() - 180}
		b := Point{math.Asin(2*rng.Float64()-1) * 180 / math.Pi, 360*rng.Float64() - 180}
		if i%2 == 1 { // near the antipode of a
			b = Point{max(-90, min(90, -a.Lat+rng.NormFloat64()*1e-3)), a.Lon + 180 + rng.NormFloat64()*1e-3}
		}
		got := sphere.inverse(a.Lat, a.Lon, b.Lat, b.Lon)
		want := greatCircle(r, a, b)
		if !(math.Abs(got-want) <= 1e-7) {
			t.Errorf("sphere %v to %v: solver %.10f, great circle %.10f", a, b, got, want)
		}
	}
}

// TestDistanceNeverExceedsHalfMeridian checks the diameter of the oblate
// ellipsoid: no two points are farther apart than pole to pole.
func TestDistanceNeverExceedsHalfMeridian(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		a := Point{180*rng.Float64() - 90, 360*rng.Float64() - 180}
		b := Point{-a.Lat + rng.NormFloat64()*0.5, a.Lon + 180 + rng.NormFloat64()*0.5}
		b.Lat = max(-90, min(90, b.Lat))
		if d := Distance(a, b); !(d <= halfMeridian+MaxError) {
			t.Errorf("Distance(%v, %v) = %.10f exceeds the half meridian %.10f", a, b, d, halfMeridian)
		}
	}
}

func ExampleWithin() {
	store := Point{Lat: 48.8566, Lon: 2.3522}
	shopper := Point{Lat: 48.8606, Lon: 2.3376}
	fmt.Printf("%.3f m\n", Distance(store, shopper))
	fmt.Println(Within(store, shopper, 1200), Within(store, shopper, 1000))
	// Output:
	// 1160.008 m
	// true false
}

// TestWithinBandMatchesDistance holds Within's great-circle shortcut to the
// exact comparison: for random pairs (short, metro-sized and global, polar
// and across the antimeridian) and maxima on both sides of the distance,
// near its edge and far from it, Within answers Distance(a, b) <= max.
func TestWithinBandMatchesDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	spans := []float64{1e-6, 1e-3, 0.05, 1, 20, 180}
	decided := 0
	// Pure arithmetic on one goroutine: the race pass checks a tenth.
	for i := range testshared.RaceCases([]int{200_000}, []int{20_000})[0] {
		a := Point{Lat: rng.Float64()*180 - 90, Lon: rng.Float64()*360 - 180}
		if i%7 == 0 {
			a.Lat = math.Copysign(89.9+rng.Float64()*0.1, a.Lat)
		}
		span := spans[i%len(spans)]
		b := Point{Lat: math.Max(-90, math.Min(90, a.Lat+(rng.Float64()*2-1)*span)), Lon: a.Lon + (rng.Float64()*2-1)*span}
		if i%11 == 0 {
			b = Point{Lat: -a.Lat + (rng.Float64()*2-1)*0.01, Lon: a.Lon + 180 + (rng.Float64()*2-1)*0.01}
			b.Lat = math.Max(-90, math.Min(90, b.Lat))
		}
		d := Distance(a, b)
		for _, f := range []float64{0, 0.5, 0.985, 0.994, 0.9999, 1, 1.0001, 1.004, 1.015, 2} {
			max := d * f
			if f == 1 && i%2 == 0 {
				max = math.Nextafter(d, 0)
			}
			if got, want := Within(a, b, max), d <= max; got != want {
				t.Fatalf("Within(%v, %v, %v) = %v, Distance %v", a, b, max, got, d)
			}
			if NewCircle(a, max).screen(b) != 0 {
				decided++
			}
		}
	}
	if decided == 0 {
		t.Fatal("the great-circle band decided no pair")
	}
}
