package conform

import (
	"errors"
	"math"
)

// The WGS 84 ellipsoid: semi-major axis in meters and flattening.
const (
	wgs84A = 6378137.0
	wgs84F = 1 / 298.257223563
	wgs84B = wgs84A * (1 - wgs84F)
)

// errNoConvergence is the convergence guard of Vincenty's inverse method:
// for nearly antipodal points the longitude iteration may not settle, and
// then the checker has no distance to trust for that pair.
var errNoConvergence = errors.New("vincenty inverse: no convergence (nearly antipodal points)")

// geodesicDistance is the checker's own reference for the shortest distance
// in meters between two points on the WGS 84 ellipsoid, by Vincenty's
// inverse method (Survey Review, 1975). It is kept independent of the
// runtime's geodesic package on purpose: a checker that shares the code it
// checks cannot find that code's mistakes. Where the iteration does not
// converge it returns errNoConvergence instead of a wrong number.
func geodesicDistance(lat1, lon1, lat2, lon2 float64) (float64, error) {
	if lat1 == lat2 && lon1 == lon2 {
		return 0, nil
	}
	rad := math.Pi / 180
	diff := math.Remainder(lon2-lon1, 360) * rad
	u1 := math.Atan((1 - wgs84F) * math.Tan(lat1*rad))
	u2 := math.Atan((1 - wgs84F) * math.Tan(lat2*rad))
	sinU1, cosU1 := math.Sincos(u1)
	sinU2, cosU2 := math.Sincos(u2)

	lambda := diff
	var t terms
	converged := false
	for range 200 {
		t = vincentyTerms(lambda, sinU1, cosU1, sinU2, cosU2)
		if t.sinSigma == 0 {
			return 0, nil // coincident points
		}
		c := wgs84F / 16 * t.cos2Alpha * (4 + wgs84F*(4-3*t.cos2Alpha))
		next := diff + (1-c)*wgs84F*t.sinAlpha*(t.sigma+c*t.sinSigma*(t.cos2SigmaM+c*t.cosSigma*(-1+2*t.cos2SigmaM*t.cos2SigmaM)))
		if math.Abs(next) > math.Pi {
			return 0, errNoConvergence
		}
		done := math.Abs(next-lambda) < 1e-12
		lambda = next
		if done {
			converged = true
			break
		}
	}
	if !converged {
		return 0, errNoConvergence
	}
	t = vincentyTerms(lambda, sinU1, cosU1, sinU2, cosU2) // at the converged lambda
	sinSigma, cosSigma, sigma, cos2Alpha, cos2SigmaM := t.sinSigma, t.cosSigma, t.sigma, t.cos2Alpha, t.cos2SigmaM

	u2sq := cos2Alpha * (wgs84A*wgs84A - wgs84B*wgs84B) / (wgs84B * wgs84B)
	a := 1 + u2sq/16384*(4096+u2sq*(-768+u2sq*(320-175*u2sq)))
	b := u2sq / 1024 * (256 + u2sq*(-128+u2sq*(74-47*u2sq)))
	deltaSigma := b * sinSigma * (cos2SigmaM + b/4*(cosSigma*(-1+2*cos2SigmaM*cos2SigmaM)-
		b/6*cos2SigmaM*(-3+4*sinSigma*sinSigma)*(-3+4*cos2SigmaM*cos2SigmaM)))
	return wgs84B * a * (sigma - deltaSigma), nil
}

// terms are the auxiliary-sphere quantities of one Vincenty iteration.
type terms struct {
	sinSigma, cosSigma, sigma, sinAlpha, cos2Alpha, cos2SigmaM float64
}

// vincentyTerms evaluates the auxiliary sphere at the longitude lambda
// for reduced latitudes given by their sines and cosines.
func vincentyTerms(lambda, sinU1, cosU1, sinU2, cosU2 float64) terms {
	var t terms
	sinLambda, cosLambda := math.Sincos(lambda)
	t.sinSigma = math.Hypot(cosU2*sinLambda, cosU1*sinU2-sinU1*cosU2*cosLambda)
	if t.sinSigma == 0 {
		return t
	}
	t.cosSigma = sinU1*sinU2 + cosU1*cosU2*cosLambda
	t.sigma = math.Atan2(t.sinSigma, t.cosSigma)
	t.sinAlpha = cosU1 * cosU2 * sinLambda / t.sinSigma
	t.cos2Alpha = 1 - t.sinAlpha*t.sinAlpha
	if t.cos2Alpha != 0 {
		t.cos2SigmaM = t.cosSigma - 2*sinU1*sinU2/t.cos2Alpha
	} // else both points are on the equator and cos2SigmaM stays 0
	return t
}
