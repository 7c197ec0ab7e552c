package geodesic

import "math"

// sincosDeg returns the sine and cosine of x degrees. The argument is reduced
// exactly to [-45, 45] degrees plus a quadrant before converting to radians,
// so multiples of 90 give exact 0 and ±1 and large arguments lose nothing.
// Negative zeros are returned as +0 so that later atan2 calls see no
// spurious sign.
func sincosDeg(x float64) (sin, cos float64) {
	r := reduceDeg(x)       // exact, in [-180, 180]
	q := math.Round(r / 90) // quadrant, in [-2, 2]
	r -= 90 * q             // exact, in [-45, 45]
	s, c := math.Sincos(r * (math.Pi / 180))
	switch int(q) & 3 { // q mod 4; two's complement maps -1 to 3, -2 to 2
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	return s + 0, c + 0
}

// reduceDeg reduces an angle in degrees exactly to [-180, 180]. Angles
// already in range, the common case, skip math.Remainder, which is exact
// but comparatively slow.
func reduceDeg(x float64) float64 {
	if math.Abs(x) <= 180 {
		return x
	}
	return math.Remainder(x, 360)
}

// twoSum returns the rounded sum of u and v and its rounding error, so that
// s + t == u + v exactly (Knuth's error-free transformation).
func twoSum(u, v float64) (s, t float64) {
	s = u + v
	up := s - v
	vpp := s - up
	return s, (u - up) + (v - vpp)
}

// lonDiffDeg returns the absolute longitude difference between lon1 and lon2
// in [0, 180] degrees. Each longitude is first reduced exactly, the
// difference is split into a rounded part and its exact error, and only the
// rounded part is reduced again, so that points just either side of the 180
// degree meridian (179.9 and -179.9) get the full precision of a small
// difference instead of the rounding error of one near 360.
func lonDiffDeg(lon1, lon2 float64) float64 {
	d, e := twoSum(reduceDeg(lon2), -reduceDeg(lon1))
	d = reduceDeg(d)
	lam := math.Abs(d + e)
	if lam > 180 { // d was ±180 and e pushed it over
		lam = 360 - lam
	}
	return lam
}
