package geodesic

import "math"

// ellipsoid holds one ellipsoid of revolution and everything about it that
// the inverse solution would otherwise recompute on every call. Distance
// uses the WGS 84 instance; tests also build a sphere and exaggerated
// flattenings to check the machinery against closed forms.
type ellipsoid struct {
	a, f, b float64 // equatorial radius, flattening, polar semi-axis
	e2, ep2 float64 // first and second eccentricity squared
	lon     longitudeSeries
}

// newEllipsoid derives the constants of an oblate ellipsoid (0 <= f < 1).
func newEllipsoid(a, f float64) *ellipsoid {
	e := &ellipsoid{a: a, f: f, b: a * (1 - f)}
	e.e2 = f * (2 - f)
	e.ep2 = e.e2 / ((1 - f) * (1 - f))
	e.lon = newLongitudeSeries(f / (2 - f))
	return e
}

// wgs84 is the ellipsoid Distance measures on.
var wgs84 = newEllipsoid(6378137, 1/298.257223563)

// Iteration limits of the azimuth search. Newton from the starting guess
// converges in a handful of steps; bisection, the fallback, halves a bracket
// of width pi and so needs about 55 steps to reach float64 resolution.
const (
	maxSolverSteps = 100
	// doneResidual is the longitude residual (radians) below which the
	// azimuth is accepted: half a unit in the last place of pi, the
	// rounding level of the residual itself, so stopping here costs at
	// most about a nanometre of position.
	doneResidual = 0x1p-52
	// roundingSteps is how many rounding units of alpha1 a Newton
	// correction may be and still be treated as rounding noise.
	roundingSteps = 4
	// nearAntipodalScale bounds, in units of the astroid scale
	// f*pi*cos^2(beta1), how far from antipodal the spherical estimate may
	// put point 2 before the astroid start is used instead.
	nearAntipodalScale = 2
)

// angle is an angle held as its (normalised) sine and cosine, which keeps
// full relative precision near 0 and pi where a radian value would not.
type angle struct{ s, c float64 }

// hypot returns sqrt(x*x + y*y) for |x|, |y| <= about 1, the only range
// used here. The plain square root is used unless the squares could
// underflow (both parts below about 1e-135), where math.Hypot's slower
// scaling is needed.
func hypot(x, y float64) float64 {
	if h2 := x*x + y*y; h2 > 0x1p-900 {
		return math.Sqrt(h2)
	}
	return math.Hypot(x, y)
}

// norm scales (s, c) to unit length.
func norm(s, c float64) angle {
	h := hypot(s, c)
	return angle{s / h, c / h}
}

// before reports whether x < y for angles in [0, pi], i.e. sin(y-x) > 0.
func before(x, y angle) bool { return y.s*x.c-y.c*x.s > 0 }

// inverse returns the geodesic distance in meters between two valid points.
func (e *ellipsoid) inverse(lat1, lon1, lat2, lon2 float64) float64 {
	p := e.canonical(lat1, lon1, lat2, lon2)
	return p.distance()
}

// canonical reduces an inverse problem to the frame the solver works in.
// Distance is unchanged by swapping the points and by reflecting both in the
// equator or in a meridian, so the point farther from the equator comes
// first and in the southern hemisphere (lat1 <= 0, |lat2| <= |lat1|) and the
// longitude difference is taken in [0, 180]. The azimuth sought at point 1
// is then in [0, pi], and the longitude reached grows with it. Because
// (a, b) and (b, a) reduce to the same frame, Distance is exactly symmetric.
func (e *ellipsoid) canonical(lat1, lon1, lat2, lon2 float64) problem {
	lam := lonDiffDeg(lon1, lon2)
	if math.Abs(lat1) < math.Abs(lat2) {
		lat1, lat2 = lat2, lat1
	}
	if lat1 > 0 {
		lat1, lat2 = -lat1, -lat2
	}
	p := problem{e: e, lamDeg: lam}
	p.beta1 = e.reducedLatitude(lat1)
	p.beta2 = e.reducedLatitude(lat2)
	p.lam.s, p.lam.c = sincosDeg(lam)
	return p
}

// distance solves the canonical problem: directly for meridians and the
// equator, by iteration otherwise.
func (p *problem) distance() float64 {
	if p.lamDeg == 0 || p.lamDeg == 180 || p.beta1.c == 0 {
		return p.meridian()
	}
	// Both points on the equator and not beyond the start of the cut locus
	// at (1-f)*180 degrees: the geodesic is the equator itself.
	if p.beta1.s == 0 && p.lamDeg <= (1-p.e.f)*180 {
		return p.e.a * p.lamDeg * (math.Pi / 180)
	}
	return p.solve()
}

// reducedLatitude returns the reduced (parametric) latitude beta of a
// geographic latitude, tan beta = (1-f) tan phi, as a sine/cosine pair.
func (e *ellipsoid) reducedLatitude(lat float64) angle {
	s, c := sincosDeg(lat)
	return norm((1-e.f)*s, c)
}

// problem is one inverse problem after reduction to the canonical frame.
type problem struct {
	e            *ellipsoid
	beta1, beta2 angle   // reduced latitudes, beta1 <= 0, |beta2| <= |beta1|
	lam          angle   // longitude difference in [0, pi]
	lamDeg       float64 // the same in degrees, as computed exactly
	evaluations  int     // geodesics traced by solve, for tests of convergence
}

// meridian returns the length of the meridian arc from point 1 (leaving
// with azimuth alpha1 = lam, i.e. north for lam = 0 and south over the pole
// for lam = 180; from a pole any direction is a meridian) to point 2,
// arriving with azimuth alpha2 = 0. On an oblate ellipsoid a meridian stays
// the shortest line until just beyond the antipode of its start (its
// conjugate point lies past the antipode), and the canonical frame never
// puts point 2 beyond the antipode of point 1 (beta1 + beta2 <= 0), so the
// meridian is always the answer here.
func (p *problem) meridian() float64 {
	e := p.e
	sig1 := norm(p.beta1.s, p.lam.c*p.beta1.c)
	sig2 := norm(p.beta2.s, p.beta2.c)
	sig12 := math.Atan2(max(0, sig1.c*sig2.s-sig1.s*sig2.c), sig1.c*sig2.c+sig1.s*sig2.s)
	ds := newDistanceSeries(epsilon(e.ep2))
	return e.b * ds.a1 * (sig12 + sineSeries(ds.c1[:], sig2.s, sig2.c) - sineSeries(ds.c1[:], sig1.s, sig1.c))
}

// trace is the geodesic leaving point 1 with one trial azimuth, followed to
// the latitude of point 2.
type trace struct {
	sig1, sig2 angle   // arc positions on the auxiliary sphere
	sig12      float64 // arc length on the auxiliary sphere
	calp2      float64 // cos alpha2, >= 0
	k2, eps    float64 // k^2 = e'^2 cos^2 alpha0 and the series parameter
	a1         float64 // A1 at eps
	b1, b2     float64 // sum_l C1l sin(2 l sigma) at sig1 and sig2
	v          float64 // longitude reached minus longitude wanted (radians)
}

// follow traces the geodesic from point 1 at azimuth alpha1 (strictly
// inside (0, pi)) to the first point with the latitude of point 2, and
// computes the longitude residual v and the terms its length needs.
func (p *problem) follow(alpha1 angle) trace {
	p.evaluations++
	e := p.e
	b1, b2 := p.beta1, p.beta2
	// Clairaut: sin alpha0 = sin alpha1 cos beta1 for the equatorial azimuth.
	salp0 := alpha1.s * b1.c
	calp0 := hypot(alpha1.c, alpha1.s*b1.s)

	// cos alpha2 from Clairaut's relation; it is >= 0 in the canonical
	// frame. cos^2 beta2 - cos^2 beta1 is formed from whichever of sine
	// or cosine is the smaller, to avoid cancellation.
	var t trace
	if b2.c != b1.c || b2.s != -b1.s {
		var d float64
		if b1.c < -b1.s {
			d = (b2.c - b1.c) * (b2.c + b1.c)
		} else {
			d = (b1.s - b2.s) * (b1.s + b2.s)
		}
		t.calp2 = math.Sqrt(max(0, alpha1.c*b1.c*alpha1.c*b1.c+d)) / b2.c
	} else {
		t.calp2 = math.Abs(alpha1.c)
	}

	// Arc positions sigma and auxiliary longitudes omega, both measured
	// from the equator crossing: tan sigma = tan beta / cos alpha,
	// tan omega = sin alpha0 tan sigma. The omega vectors are left
	// unnormalised: only the angle between them is used.
	t.sig1 = norm(b1.s, alpha1.c*b1.c)
	t.sig2 = norm(b2.s, t.calp2*b2.c)
	w1s, w1c := salp0*b1.s, alpha1.c*b1.c
	w2s, w2c := salp0*b2.s, t.calp2*b2.c
	t.sig12 = math.Atan2(max(0, t.sig1.c*t.sig2.s-t.sig1.s*t.sig2.c), t.sig1.c*t.sig2.c+t.sig1.s*t.sig2.s)
	w12s, w12c := w1c*w2s-w1s*w2c, w1c*w2c+w1s*w2s
	// omega12 - lam, as the angle between the two directions.
	dw := math.Atan2(w12s*p.lam.c-w12c*p.lam.s, w12c*p.lam.c+w12s*p.lam.s)

	t.k2 = e.ep2 * calp0 * calp0
	t.eps = epsilon(t.k2)
	a3, c3 := e.lon.at(t.eps)
	i3 := a3 * (t.sig12 + sineSeries(c3[:], t.sig2.s, t.sig2.c) - sineSeries(c3[:], t.sig1.s, t.sig1.c))
	t.v = dw - e.f*salp0*i3

	ds := newDistanceSeries(t.eps)
	t.a1 = ds.a1
	t.b1 = sineSeries(ds.c1[:], t.sig1.s, t.sig1.c)
	t.b2 = sineSeries(ds.c1[:], t.sig2.s, t.sig2.c)
	return t
}

// length returns the distance in meters along a traced geodesic.
func (t *trace) length(e *ellipsoid) float64 {
	return e.b * t.a1 * (t.sig12 + t.b2 - t.b1)
}

// slope returns dv/dalpha1, the rate at which the longitude reached changes
// with the azimuth: m12 / (a cos alpha2 cos beta2), with the reduced length
// m12 formed from I1 and I2 (J = I1 - I2 in Karney 2013). Only Newton steps
// need it, so the solver computes it only when it takes one.
func (p *problem) slope(t *trace) float64 {
	e := p.e
	b1, b2 := p.beta1, p.beta2
	if t.calp2 == 0 {
		// alpha1 = 90 degrees and |beta2| = |beta1|: point 2 is at a
		// vertex, where m12/cos alpha2 is 0/0; this is its limit, which
		// Karney (2013) gives in closed form.
		return -2 * math.Sqrt(1-e.e2*b1.c*b1.c) / b1.s
	}
	rs := newReducedLengthSeries(t.eps)
	j12 := (t.a1-rs.a2)*t.sig12 +
		t.a1*(t.b2-t.b1) -
		rs.a2*(sineSeries(rs.c2[:], t.sig2.s, t.sig2.c)-sineSeries(rs.c2[:], t.sig1.s, t.sig1.c))
	dn1 := math.Sqrt(1 + t.k2*t.sig1.s*t.sig1.s)
	dn2 := math.Sqrt(1 + t.k2*t.sig2.s*t.sig2.s)
	m12b := dn2*t.sig1.c*t.sig2.s - dn1*t.sig1.s*t.sig2.c - t.sig1.c*t.sig2.c*j12 // m12 / b
	return (1 - e.f) * m12b / (t.calp2 * b2.c)
}

// solve finds the azimuth alpha1 at point 1 whose geodesic reaches the
// longitude of point 2, by Newton's method on v(alpha1) inside a bracket
// [lo, hi] with v(lo) < 0 < v(hi), bisecting whenever a Newton step would
// leave the bracket, and returns the length of that geodesic.
func (p *problem) solve() float64 {
	lo, hi := angle{0, 1}, angle{0, -1} // alpha1 = 0 and alpha1 = pi
	alpha1 := p.start()
	if !(alpha1.s > 0) { // the start guess lies on the bracket's edge
		alpha1 = angle{1, 0}
	}
	var t trace
	for range maxSolverSteps {
		t = p.follow(alpha1)
		if math.Abs(t.v) <= doneResidual {
			break
		}
		if t.v > 0 {
			hi = alpha1
		} else {
			lo = alpha1
		}
		dv := p.slope(&t)
		next, ok := newtonStep(alpha1, t.v, dv, lo, hi)
		if !ok {
			if dv > 0 && math.Abs(t.v) <= roundingSteps*0x1p-52*min(alpha1.s, math.Abs(alpha1.c))*dv {
				// The Newton correction is a few rounding units of alpha1
				// (whose finest resolution, through the smaller of its sine
				// and cosine, is about 2^-52 times that value): it failed
				// the bracket test through rounding, not because the root
				// lies elsewhere, and bisecting would only restart the
				// search far from it.
				break
			}
			next = bisect(lo, hi)
		}
		if next == alpha1 || next == lo || next == hi {
			break // the azimuth cannot move by a representable amount
		}
		alpha1 = next
	}
	return t.length(p.e)
}

// newtonStep returns alpha1 - v/dv and whether it is usable: the derivative
// must be positive and the new azimuth strictly inside the bracket.
func newtonStep(alpha1 angle, v, dv float64, lo, hi angle) (angle, bool) {
	if !(dv > 0) {
		return angle{}, false
	}
	d := -v / dv
	if !(math.Abs(d) < math.Pi/2) {
		return angle{}, false
	}
	sd, cd := math.Sincos(d)
	next := norm(alpha1.s*cd+alpha1.c*sd, alpha1.c*cd-alpha1.s*sd)
	if !(next.s > 0) || !before(lo, next) || !before(next, hi) {
		return angle{}, false
	}
	return next, true
}

// bisect returns the angle halfway between lo and hi (both in [0, pi]).
func bisect(lo, hi angle) angle {
	s, c := lo.s+hi.s, lo.c+hi.c
	if s == 0 && c == 0 { // lo = 0, hi = pi
		return angle{1, 0}
	}
	return norm(s, c)
}

// start returns the first trial azimuth, following Karney (2013). Away from
// the antipode it is the great-circle azimuth on the auxiliary sphere, with
// the longitude difference divided by w = sqrt(1 - e^2 cos^2 beta) at the
// mean cos beta of the two points for short lines; near the antipode, where
// that estimate is poor, it comes from the astroid problem.
func (p *problem) start() angle {
	e := p.e
	b1, b2 := p.beta1, p.beta2
	lamRad := p.lamDeg * (math.Pi / 180)
	sinDiff := b2.s*b1.c - b2.c*b1.s // sin(beta2 - beta1) >= 0
	cosDiff := b2.c*b1.c + b2.s*b1.s // cos(beta2 - beta1)
	sinSum := b2.s*b1.c + b2.c*b1.s  // sin(beta2 + beta1) <= 0

	// A line spanning less than 30 degrees of reduced latitude and about
	// half a radian east-west is short enough for the scaled longitude,
	// unless scaling would carry it past pi (short lines over a pole).
	somg, comg := p.lam.s, p.lam.c
	if cosDiff > math.Sqrt(3)/2 && b2.c*lamRad < 0.5 {
		mc := (b1.c + b2.c) / 2
		if omg := lamRad / math.Sqrt(1-e.e2*mc*mc); omg < math.Pi {
			somg, comg = math.Sincos(omg)
		}
	}
	// Great-circle azimuth at point 1 for a longitude difference omega on
	// the auxiliary sphere; the cosine term is rewritten so that it does not
	// cancel for short lines (omega near 0) or long ones (omega near pi).
	sa := b2.c * somg
	var ca float64
	if comg >= 0 {
		ca = sinDiff + b2.c*b1.s*somg*somg/(1+comg)
	} else {
		ca = sinSum - b2.c*b1.s*somg*somg/(1-comg)
	}
	sinSig := hypot(sa, ca)
	cosSig := b1.s*b2.s + b1.c*b2.c*comg
	scale := e.f * math.Pi * b1.c * b1.c
	if e.f > 0 && cosSig < 0 && sinSig < nearAntipodalScale*scale {
		if alpha1, ok := p.astroidStart(sinSum); ok {
			return alpha1
		}
	}
	return norm(sa, ca)
}

// astroidStart returns the starting azimuth for nearly antipodal points.
// In the scaled coordinates x = (lam - pi)/(f pi A3 cos beta1) and
// y = (beta1 + beta2)/(f pi A3 cos^2 beta1) the geodesics from point 1 near
// the antipode are straight lines through (-sin alpha1, 0) with direction
// (sin alpha1, -cos alpha1); the line through (x, y) satisfies
//
//	-x/sin alpha1 - y/cos alpha1 = 1,
//
// which is Karney's astroid equation in mu = y/cos alpha1. In
// the canonical frame x <= 0 and y <= 0, and the root wanted has
// alpha1 = pi - theta with theta in [0, pi/2] solving
//
//	|x| cos theta - |y| sin theta - sin theta cos theta = 0,
//
// a function that is positive at 0, non-positive at pi/2 and has exactly
// one root between (for y = 0 and |x| < 1 the root is sin theta = |x|).
//
// For y = 0 and |x| >= 1 (latitudes exactly mirrored, longitude outside the
// astroid) the only line of the model through (x, 0) is the x axis itself,
// alpha1 = 90 degrees, where the geodesic grazes its vertex and the Newton
// derivative vanishes; astroidStart reports false there and the caller
// keeps the spherical estimate, which has the right sign of cos alpha1.
func (p *problem) astroidStart(sinSum float64) (angle, bool) {
	e := p.e
	b1 := p.beta1
	eps := epsilon(e.ep2 * b1.s * b1.s)
	a3, _ := e.lon.at(eps)
	lamScale := e.f * b1.c * a3 * math.Pi
	betScale := lamScale * b1.c
	x := (180 - p.lamDeg) * (math.Pi / 180) / lamScale // |lam - pi|, exact difference
	y := -sinSum / betScale
	if y == 0 && x >= 1 {
		return angle{}, false
	}
	theta := astroidAngle(x, y)
	s, c := math.Sincos(theta)
	return angle{s, -c}, true
}

// astroidAngle returns the theta in [0, pi/2] with
// x cos theta - y sin theta - sin theta cos theta = 0 for x, y >= 0, by
// Newton's method kept inside a shrinking bracket with bisection as the
// fallback.
func astroidAngle(x, y float64) float64 {
	g := func(th float64) (val, slope float64) {
		s, c := math.Sincos(th)
		return x*c - y*s - s*c, -x*s - y*c - (c-s)*(c+s)
	}
	lo, hi := 0.0, math.Pi/2
	if x == 0 {
		return 0
	}
	th := math.Asin(min(1, x)) // exact root when y = 0
	if y == 0 {
		return th
	}
	for range maxSolverSteps {
		val, slope := g(th)
		if val == 0 {
			return th
		}
		if val > 0 {
			lo = th
		} else {
			hi = th
		}
		next := th - val/slope
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if next == th || hi-lo <= 0x1p-52*hi {
			return next
		}
		th = next
	}
	return th
}
