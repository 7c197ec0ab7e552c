package geodesic

import "math"

// Circle is a distance filter's centre and max made ready once, so that a
// search testing many Locations against one filter repeats only the work
// that depends on each Location: the screen below needs no inverse sine and
// no trigonometry of the centre per point.
//
// Contains answers exactly Distance(center, p) <= max. Most points are
// decided on a sphere first: the WGS 84 distance lies within a known band
// around the great-circle distance (see ratioLow and ratioHigh), so a point
// whose great-circle distance is clearly inside or clearly outside that band
// around max needs no geodesic. The band is compared in haversine terms,
// h = sin²(d / 2R), which grows with d, so the thresholds are computed from
// max once instead of turning every point's h back into a distance.
type Circle struct {
	center Point
	max    float64
	// screenable is false when the centre or max cannot be screened on
	// the sphere; every point then goes to Distance.
	screenable bool
	cosLat     float64 // cos of the centre's latitude
	// hIn: a point whose h is at most hIn is clearly inside (-1 when none
	// is); hOut: a point whose h exceeds hOut is clearly outside (2 when
	// none is, since h never exceeds 1).
	hIn, hOut float64
}

const rad = math.Pi / 180

// thresholdMargin widens the band by a relative 1e-12 in h, far more than
// the rounding of sin² and of h itself, so that rounding alone never moves a
// point from "undecided" to a side: such a point goes to Distance instead.
const thresholdMargin = 1e-12

// NewCircle prepares a distance filter of center and max (meters).
func NewCircle(center Point, max float64) Circle {
	c := Circle{center: center, max: max, hIn: -1, hOut: 2}
	if !(max >= 0) || !center.valid() || math.Abs(center.Lon) > 540 {
		return c
	}
	c.screenable = true
	c.cosLat = math.Cos(center.Lat * rad)
	// Clearly inside: d*ratioHigh + bandSlack <= max.
	if in := (max - bandSlack) / ratioHigh; in >= math.Pi*sphereRadius {
		c.hIn = 2
	} else if in >= 0 {
		c.hIn = haversineOf(in) * (1 - thresholdMargin)
	}
	// Clearly outside: d*ratioLow - bandSlack > max.
	if out := (max + bandSlack) / ratioLow; out < math.Pi*sphereRadius {
		c.hOut = haversineOf(out) * (1 + thresholdMargin)
	}
	return c
}

// haversineOf is h = sin²(d / 2R) of a great-circle distance d in [0, πR].
func haversineOf(d float64) float64 {
	s := math.Sin(d / (2 * sphereRadius))
	return s * s
}

// Contains reports whether Distance(center, p) <= max, with Within's rules
// for invalid points and maxima.
func (c Circle) Contains(p Point) bool {
	if !(c.max >= 0) {
		return false
	}
	switch c.screen(p) {
	case 1:
		return true
	case -1:
		return false
	}
	return Distance(c.center, p) <= c.max // false when the distance is NaN
}

// screen decides p on the sphere when its great-circle distance lies
// clearly inside (1) or clearly outside (-1) the band the ellipsoid allows
// around max; 0 leaves it to Distance.
func (c Circle) screen(p Point) int {
	if !c.screenable || !p.valid() || math.Abs(p.Lon) > 540 {
		return 0
	}
	sLat := math.Sin((p.Lat - c.center.Lat) * rad / 2)
	hLat := sLat * sLat
	if hLat > c.hOut {
		// h is at least its latitude term: clearly outside already.
		return -1
	}
	sLon := math.Sin((p.Lon - c.center.Lon) * rad / 2)
	h := min(hLat+c.cosLat*math.Cos(p.Lat*rad)*sLon*sLon, 1)
	switch {
	case h <= c.hIn:
		return 1
	case h > c.hOut:
		return -1
	}
	return 0
}
