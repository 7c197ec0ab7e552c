package geodesic

import "math"

// The inverse solution needs three integrals along a geodesic, written as a
// secular term plus a Fourier sine series in the arc length sigma on the
// auxiliary sphere (Karney 2013, eqs. 7-8, 15-25, 40-43):
//
//	I1(sigma) = int_0^sigma sqrt(1 + k^2 sin^2 t) dt       = A1 (sigma + sum_l C1l sin 2l sigma)
//	I2(sigma) = int_0^sigma 1/sqrt(1 + k^2 sin^2 t) dt     = A2 (sigma + sum_l C2l sin 2l sigma)
//	I3(sigma) = int_0^sigma (2-f)/(1 + (1-f) sqrt(1 + k^2 sin^2 t)) dt
//	                                                       = A3 (sigma + sum_l C3l sin 2l sigma)
//
// with k^2 = e'^2 cos^2 alpha0 and the small parameter
// eps = k^2 / (sqrt(1+k^2) + 1)^2. I1 gives the distance, I2 (through
// J = I1 - I2) the reduced length used in the Newton derivative, and I3 the
// difference between ellipsoidal and auxiliary longitude. I1 and I2 are
// expanded to eps^6; I3, which is multiplied by f, to total order 5 in the
// third flattening n and eps, so every term in the distance is of sixth order.
//
// The tables below hold the exact rational coefficients. series_test.go
// derives the same numbers independently from the integrands with exact
// rational arithmetic, so a mistyped coefficient fails a test.

// seriesOrder is the number of sine terms kept in each Fourier series and
// the highest power of eps kept in the I1 and I2 expansions.
const seriesOrder = 6

// a1Poly is (1-eps) A1 as a polynomial in eps (index = power).
var a1Poly = [seriesOrder + 1]float64{1, 0, 1.0 / 4, 0, 1.0 / 64, 0, 1.0 / 256}

// c1Poly[l-1] is C1l as a polynomial in eps.
var c1Poly = [seriesOrder][seriesOrder + 1]float64{
	{0, -1.0 / 2, 0, 3.0 / 16, 0, -1.0 / 32, 0},
	{0, 0, -1.0 / 16, 0, 1.0 / 32, 0, -9.0 / 2048},
	{0, 0, 0, -1.0 / 48, 0, 3.0 / 256, 0},
	{0, 0, 0, 0, -5.0 / 512, 0, 3.0 / 512},
	{0, 0, 0, 0, 0, -7.0 / 1280, 0},
	{0, 0, 0, 0, 0, 0, -7.0 / 2048},
}

// a2Poly is A2/(1-eps) as a polynomial in eps.
var a2Poly = [seriesOrder + 1]float64{1, 0, 1.0 / 4, 0, 9.0 / 64, 0, 25.0 / 256}

// c2Poly[l-1] is C2l as a polynomial in eps.
var c2Poly = [seriesOrder][seriesOrder + 1]float64{
	{0, 1.0 / 2, 0, 1.0 / 16, 0, 1.0 / 32, 0},
	{0, 0, 3.0 / 16, 0, 1.0 / 32, 0, 35.0 / 2048},
	{0, 0, 0, 5.0 / 48, 0, 5.0 / 256, 0},
	{0, 0, 0, 0, 35.0 / 512, 0, 7.0 / 512},
	{0, 0, 0, 0, 0, 63.0 / 1280, 0},
	{0, 0, 0, 0, 0, 0, 77.0 / 2048},
}

// i3Order is one more than the highest total power of n and eps kept in I3.
const i3Order = seriesOrder - 1

// a3Poly[j][i] is the coefficient of eps^j n^i in A3.
var a3Poly = [i3Order + 1][i3Order + 1]float64{
	{1},
	{-1.0 / 2, 1.0 / 2},
	{-1.0 / 4, -1.0 / 8, 3.0 / 8},
	{-1.0 / 16, -3.0 / 16, -1.0 / 16},
	{-3.0 / 64, -1.0 / 32},
	{-3.0 / 128},
}

// c3Poly[l-1][j][i] is the coefficient of eps^j n^i in C3l.
var c3Poly = [i3Order][i3Order + 1][i3Order + 1]float64{
	{
		{},
		{1.0 / 4, -1.0 / 4},
		{1.0 / 8, 0, -1.0 / 8},
		{3.0 / 64, 3.0 / 64, -1.0 / 64},
		{5.0 / 128, 1.0 / 64},
		{3.0 / 128},
	},
	{
		{},
		{},
		{1.0 / 16, -3.0 / 32, 1.0 / 32},
		{3.0 / 64, -1.0 / 32, -3.0 / 64},
		{3.0 / 128, 1.0 / 128},
		{5.0 / 256},
	},
	{
		{},
		{},
		{},
		{5.0 / 192, -3.0 / 64, 5.0 / 192},
		{3.0 / 128, -5.0 / 192},
		{7.0 / 512},
	},
	{
		{},
		{},
		{},
		{},
		{7.0 / 512, -7.0 / 256},
		{7.0 / 512},
	},
	{
		{},
		{},
		{},
		{},
		{},
		{21.0 / 2560},
	},
}

// horner evaluates the polynomial with coefficients p (index = power) at x.
func horner(p []float64, x float64) float64 {
	var y float64
	for i := len(p) - 1; i >= 0; i-- {
		y = y*x + p[i]
	}
	return y
}

// sineSeries returns sum_{l=1..len(c)} c[l-1] sin(2 l sigma) by Clenshaw
// summation, given sin and cos of sigma (which must be normalised), so the
// series costs no trigonometric calls beyond the ones already made.
func sineSeries(c []float64, sinSigma, cosSigma float64) float64 {
	twoCos2 := 2 * (cosSigma - sinSigma) * (cosSigma + sinSigma) // 2 cos 2 sigma
	var b1, b2 float64
	for l := len(c) - 1; l >= 0; l-- {
		b1, b2 = c[l]+twoCos2*b1-b2, b1
	}
	return b1 * 2 * sinSigma * cosSigma // b1 sin 2 sigma
}

// distanceSeries holds A1 and C1l for one value of eps.
type distanceSeries struct {
	a1 float64
	c1 [seriesOrder]float64
}

// newDistanceSeries evaluates A1 and C1l at eps.
func newDistanceSeries(eps float64) distanceSeries {
	var d distanceSeries
	d.a1 = horner(a1Poly[:], eps) / (1 - eps)
	for l := range d.c1 {
		d.c1[l] = horner(c1Poly[l][:], eps)
	}
	return d
}

// reducedLengthSeries holds A2 and C2l for one value of eps.
type reducedLengthSeries struct {
	a2 float64
	c2 [seriesOrder]float64
}

// newReducedLengthSeries evaluates A2 and C2l at eps.
func newReducedLengthSeries(eps float64) reducedLengthSeries {
	var r reducedLengthSeries
	r.a2 = horner(a2Poly[:], eps) * (1 - eps)
	for l := range r.c2 {
		r.c2[l] = horner(c2Poly[l][:], eps)
	}
	return r
}

// longitudeSeries holds the I3 coefficients of one ellipsoid as polynomials
// in eps alone, the n-dependence having been evaluated once, so that each
// Newton step only runs Horner's rule in eps.
type longitudeSeries struct {
	a3 [i3Order + 1]float64
	c3 [i3Order][i3Order + 1]float64
}

// newLongitudeSeries folds the third flattening n into the I3 tables.
func newLongitudeSeries(n float64) longitudeSeries {
	var s longitudeSeries
	for j := range a3Poly {
		s.a3[j] = horner(a3Poly[j][:], n)
	}
	for l := range c3Poly {
		for j := range c3Poly[l] {
			s.c3[l][j] = horner(c3Poly[l][j][:], n)
		}
	}
	return s
}

// at returns A3 and the C3l evaluated at eps.
func (s *longitudeSeries) at(eps float64) (a3 float64, c3 [i3Order]float64) {
	a3 = horner(s.a3[:], eps)
	for l := range c3 {
		c3[l] = horner(s.c3[l][:], eps)
	}
	return a3, c3
}

// epsilon maps k^2 to the expansion parameter eps = k^2/(sqrt(1+k^2)+1)^2,
// written in a form without cancellation.
func epsilon(k2 float64) float64 {
	return k2 / (2*(1+math.Sqrt(1+k2)) + k2)
}
