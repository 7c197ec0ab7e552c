package geodesic

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// This file re-derives every series coefficient in series.go exactly, with
// rational arithmetic, from the integrands that define I1, I2 and I3, and
// checks the tables term by term. The derivation rests on one identity:
// with z = exp(2 i sigma) and k^2 = 4 eps/(1-eps)^2,
//
//	1 + k^2 sin^2 sigma = |1 - eps z|^2 / (1-eps)^2,
//
// so every integrand is a function of |1 - eps z| = (1-eps z)^(1/2)(1-eps/z)^(1/2),
// whose binomial expansion is a Laurent polynomial in z. The z^0 term of an
// integrand is its mean (the A coefficient) and the z^l term, divided by
// l times the mean, is the coefficient of sin 2l sigma in the integral.

// monomial is n^n eps^e z^z.
type monomial struct{ n, e, z int }

// ratSeries is a truncated power series in n and eps whose coefficients are
// Laurent polynomials in z, held exactly.
type ratSeries struct {
	terms  map[monomial]*big.Rat
	maxDeg int // terms with n+e > maxDeg are dropped
}

func newRatSeries(maxDeg int) ratSeries {
	return ratSeries{terms: map[monomial]*big.Rat{}, maxDeg: maxDeg}
}

// add adds c * m to s.
func (s ratSeries) add(m monomial, c *big.Rat) {
	if m.n+m.e > s.maxDeg || c.Sign() == 0 {
		return
	}
	if old, ok := s.terms[m]; ok {
		old.Add(old, c)
		if old.Sign() == 0 {
			delete(s.terms, m)
		}
		return
	}
	s.terms[m] = new(big.Rat).Set(c)
}

// constant returns the series equal to c.
func constant(maxDeg int, c *big.Rat) ratSeries {
	s := newRatSeries(maxDeg)
	s.add(monomial{}, c)
	return s
}

// plus returns s + t.
func (s ratSeries) plus(t ratSeries) ratSeries {
	out := newRatSeries(s.maxDeg)
	for m, c := range s.terms {
		out.add(m, c)
	}
	for m, c := range t.terms {
		out.add(m, c)
	}
	return out
}

// times returns s * t, truncated.
func (s ratSeries) times(t ratSeries) ratSeries {
	out := newRatSeries(s.maxDeg)
	for m1, c1 := range s.terms {
		for m2, c2 := range t.terms {
			out.add(monomial{m1.n + m2.n, m1.e + m2.e, m1.z + m2.z}, new(big.Rat).Mul(c1, c2))
		}
	}
	return out
}

// scaled returns c * s.
func (s ratSeries) scaled(c *big.Rat) ratSeries {
	out := newRatSeries(s.maxDeg)
	for m, v := range s.terms {
		out.add(m, new(big.Rat).Mul(v, c))
	}
	return out
}

// inverseOf returns 1/s for a series whose constant term is 1, as the
// geometric series sum (1 - s)^k; the truncation makes it finite.
func (s ratSeries) inverseOf() ratSeries {
	one := constant(s.maxDeg, big.NewRat(1, 1))
	rest := one.plus(s.scaled(big.NewRat(-1, 1))) // 1 - s, no constant term
	if _, ok := rest.terms[monomial{}]; ok {
		panic("inverseOf: constant term is not 1")
	}
	out, power := one, one
	for k := 1; k <= s.maxDeg; k++ {
		power = power.times(rest)
		out = out.plus(power)
	}
	return out
}

// zPart returns the coefficient of z^l as a series in n and eps.
func (s ratSeries) zPart(l int) ratSeries {
	out := newRatSeries(s.maxDeg)
	for m, c := range s.terms {
		if m.z == l {
			out.add(monomial{m.n, m.e, 0}, c)
		}
	}
	return out
}

// coefficient returns the coefficient of n^i eps^j (z^0), or 0.
func (s ratSeries) coefficient(i, j int) *big.Rat {
	if c, ok := s.terms[monomial{i, j, 0}]; ok {
		return c
	}
	return new(big.Rat)
}

// chordPower returns |1 - eps z|^(2p) = (1 - eps z)^p (1 - eps/z)^p.
func chordPower(maxDeg int, p *big.Rat) ratSeries {
	// binomial coefficients of (1 - x)^p: b_j = (-1)^j C(p, j)
	b := []*big.Rat{big.NewRat(1, 1)}
	for j := 1; j <= maxDeg; j++ {
		f := new(big.Rat).Sub(p, big.NewRat(int64(j-1), 1))
		f.Mul(f, big.NewRat(-1, int64(j)))
		b = append(b, new(big.Rat).Mul(b[j-1], f))
	}
	out := newRatSeries(maxDeg)
	for j := range b {
		for m := range b {
			out.add(monomial{0, j + m, j - m}, new(big.Rat).Mul(b[j], b[m]))
		}
	}
	return out
}

// fourier splits an integrand into its mean and the sine coefficients
// C_l = [z^l] / (l * mean) of its integral, for l = 1..order.
func fourier(integrand ratSeries, order int) (mean ratSeries, c []ratSeries) {
	mean = integrand.zPart(0)
	inv := mean.inverseOf()
	for l := 1; l <= order; l++ {
		c = append(c, integrand.zPart(l).times(inv).scaled(big.NewRat(1, int64(l))))
	}
	return mean, c
}

// checkPoly compares the table entries want[j] (coefficient of eps^j, or of
// n^i eps^j via get) with the derived series, exactly after rounding the
// rational to float64, and checks the derivation has no terms the table
// lacks.
func checkTable(t *testing.T, name string, derived ratSeries, rows, cols int, get func(i, j int) float64) {
	t.Helper()
	for m := range derived.terms {
		if m.z != 0 || m.e >= rows || m.n >= cols {
			t.Errorf("%s: derived term n^%d eps^%d z^%d = %s is missing from the table",
				name, m.n, m.e, m.z, derived.terms[m].RatString())
		}
	}
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			want, _ := derived.coefficient(i, j).Float64()
			if got := get(i, j); got != want {
				t.Errorf("%s: coefficient of n^%d eps^%d = %v, derived %s (%v)",
					name, i, j, got, derived.coefficient(i, j).RatString(), want)
			}
		}
	}
}

func TestDistanceSeriesCoefficientsDerived(t *testing.T) {
	// (1-eps) * integrand of I1 = |1 - eps z|
	mean, c := fourier(chordPower(seriesOrder, big.NewRat(1, 2)), seriesOrder)
	checkTable(t, "(1-eps)A1", mean, seriesOrder+1, 1, func(_, j int) float64 { return a1Poly[j] })
	for l := range c {
		checkTable(t, fmt.Sprintf("C1%d", l+1), c[l], seriesOrder+1, 1, func(_, j int) float64 { return c1Poly[l][j] })
	}
}

func TestReducedLengthSeriesCoefficientsDerived(t *testing.T) {
	// integrand of I2 / (1-eps) = |1 - eps z|^-1
	mean, c := fourier(chordPower(seriesOrder, big.NewRat(-1, 2)), seriesOrder)
	checkTable(t, "A2/(1-eps)", mean, seriesOrder+1, 1, func(_, j int) float64 { return a2Poly[j] })
	for l := range c {
		checkTable(t, fmt.Sprintf("C2%d", l+1), c[l], seriesOrder+1, 1, func(_, j int) float64 { return c2Poly[l][j] })
	}
}

func TestLongitudeSeriesCoefficientsDerived(t *testing.T) {
	// With f = 2n/(1+n), the I3 integrand (2-f)/(1 + (1-f) sqrt(1 + k^2 sin^2))
	// becomes 2(1-eps) / ((1+n)(1-eps) + (1-n)|1 - eps z|)
	//        = (1-eps) / (1 + delta),
	// delta = ((1+n)(1-eps) + (1-n)|1 - eps z| - 2)/2, which has no constant
	// term, so 1/(1+delta) is a finite geometric series after truncation.
	d := i3Order
	r := func(p, q int64) *big.Rat { return big.NewRat(p, q) }
	term := func(n, e int, c *big.Rat) ratSeries {
		s := newRatSeries(d)
		s.add(monomial{n, e, 0}, c)
		return s
	}
	onePlusN := term(0, 0, r(1, 1)).plus(term(1, 0, r(1, 1)))
	oneMinusN := term(0, 0, r(1, 1)).plus(term(1, 0, r(-1, 1)))
	oneMinusEps := term(0, 0, r(1, 1)).plus(term(0, 1, r(-1, 1)))
	chord := chordPower(d, r(1, 2))
	delta := onePlusN.times(oneMinusEps).plus(oneMinusN.times(chord)).plus(term(0, 0, r(-2, 1))).scaled(r(1, 2))
	if _, ok := delta.terms[monomial{}]; ok {
		t.Fatal("delta has a constant term; the derivation is wrong")
	}
	integrand := oneMinusEps.times(delta.plus(term(0, 0, r(1, 1))).inverseOf())
	mean, c := fourier(integrand, i3Order)
	checkTable(t, "A3", mean, i3Order+1, i3Order+1, func(i, j int) float64 { return a3Poly[j][i] })
	for l := range c {
		checkTable(t, fmt.Sprintf("C3%d", l+1), c[l], i3Order+1, i3Order+1, func(i, j int) float64 { return c3Poly[l][j][i] })
	}
}

// TestDerivationReproducesKnownA1 guards the derivation machinery itself
// with the closed form A1 (1-eps) = sum_j (C(1/2, j))^2 eps^(2j), whose first
// terms 1 + eps^2/4 + eps^4/64 + eps^6/256 are printed in Karney (2013).
func TestDerivationReproducesKnownA1(t *testing.T) {
	mean := chordPower(seriesOrder, big.NewRat(1, 2)).zPart(0)
	want := map[int]*big.Rat{0: big.NewRat(1, 1), 2: big.NewRat(1, 4), 4: big.NewRat(1, 64), 6: big.NewRat(1, 256)}
	for j := 0; j <= seriesOrder; j++ {
		w, ok := want[j]
		if !ok {
			w = new(big.Rat)
		}
		if got := mean.coefficient(0, j); got.Cmp(w) != 0 {
			t.Errorf("eps^%d: derived %s, want %s", j, got.RatString(), w.RatString())
		}
	}
}

func TestSineSeriesMatchesDirectSum(t *testing.T) {
	coeffs := []float64{0.5, -0.25, 0.125, 1e-3, -7e-5, 3e-6}
	for _, sigma := range []float64{0, 0.1, 1, math.Pi / 2, 2.5, -1.3, math.Pi} {
		s, c := math.Sincos(sigma)
		var want float64
		for l, cl := range coeffs {
			want += cl * math.Sin(float64(2*(l+1))*sigma)
		}
		if got := sineSeries(coeffs, s, c); math.Abs(got-want) > 1e-15 {
			t.Errorf("sigma=%v: Clenshaw %v, direct %v", sigma, got, want)
		}
	}
}

// TestSeriesAgreeWithQuadrature checks the evaluated series (Horner plus
// Clenshaw) against the defining integrals on an exaggerated ellipsoid
// (f = 1/50, so that every order matters), integrated numerically by
// Simpson's rule, at several arc lengths and equatorial azimuths.
func TestSeriesAgreeWithQuadrature(t *testing.T) {
	e := newEllipsoid(1, 1.0/50)
	simpson := func(g func(float64) float64, x float64) float64 {
		const steps = 2000
		h := x / steps
		sum := g(0) + g(x)
		for i := 1; i < steps; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			sum += w * g(float64(i)*h)
		}
		return sum * h / 3
	}
	for _, calp0 := range []float64{1, 0.7, 0.2} {
		k2 := e.ep2 * calp0 * calp0
		eps := epsilon(k2)
		dn := func(x float64) float64 { s := math.Sin(x); return math.Sqrt(1 + k2*s*s) }
		ds := newDistanceSeries(eps)
		rs := newReducedLengthSeries(eps)
		a3, c3 := e.lon.at(eps)
		for _, sigma := range []float64{0.3, 1.2, 2.9} {
			s, c := math.Sincos(sigma)
			checks := []struct {
				name      string
				series    float64
				integrand func(float64) float64
			}{
				{"I1", ds.a1 * (sigma + sineSeries(ds.c1[:], s, c)), dn},
				{"I2", rs.a2 * (sigma + sineSeries(rs.c2[:], s, c)), func(x float64) float64 { return 1 / dn(x) }},
				{"I3", a3 * (sigma + sineSeries(c3[:], s, c)), func(x float64) float64 { return (2 - e.f) / (1 + (1-e.f)*dn(x)) }},
			}
			for _, ch := range checks {
				want := simpson(ch.integrand, sigma)
				// Truncation after eps^6 with eps < 0.011 leaves < 1e-13.
				if math.Abs(ch.series-want) > 1e-12 {
					t.Errorf("%s(sigma=%v, cos alpha0=%v): series %.16g, quadrature %.16g", ch.name, sigma, calp0, ch.series, want)
				}
			}
		}
	}
}
