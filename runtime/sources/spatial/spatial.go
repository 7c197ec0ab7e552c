// Package spatial is an in-memory index over latitude/longitude points that
// narrows a distance query to a candidate superset, so a source does not
// compute a geodesic for every store on every request. It never decides
// a match: the caller runs the exact geodesic comparison on each candidate.
//
// The index is a list of 0.5 degree latitude rows, each sorted by longitude.
// A query takes the rows and longitude interval(s) that a geodesic of length
// max from the center can reach, using lower bounds on the length of a
// degree that hold everywhere on the WGS 84 ellipsoid:
//
//   - latitude: the meridional radius of curvature is smallest at the
//     equator, M(0) = a(1-e^2), so a degree of latitude is never shorter than
//     110,574.27 m anywhere; the index assumes 110,000 m.
//   - longitude: the prime-vertical radius N is never smaller than a, so at
//     latitude phi a degree of longitude is at least a*cos(phi)*pi/180
//     meters. Every point of a path of length <= max from the center lies in
//     the latitude band the first bound gives, so the bound is taken at the
//     band's largest |latitude|, and widened by 1%.
//
// Because the line element satisfies ds >= M|dphi| and ds >= N cos(phi)|dlambda|,
// no point outside the band and interval can be within max of the center.
// When the band reaches a pole, every longitude is searched; when max
// exceeds a quarter of the Earth's circumference, every point is returned.
package spatial

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Point is a WGS 84 position in decimal degrees, field-compatible with
// geodesic.Point so callers can convert between the two directly.
type Point struct{ Lat, Lon float64 }

const (
	rowDeg  = 0.5
	rowsMax = int(180 / rowDeg)

	// minMetersPerDegLat is a safe lower bound on a degree of latitude:
	// the true minimum (at the equator) is 110,574.27 m.
	minMetersPerDegLat = 110_000.0
	// equatorialRadius is WGS 84's a, a lower bound on N(phi).
	equatorialRadius = 6_378_137.0
	// lonMargin widens the longitude interval against rounding.
	lonMargin = 1.01
	// padDeg is added to every bound so that rounding in the degree
	// arithmetic can never cut off a point on the boundary.
	padDeg = 1e-9
	// allBeyondMeters is a quarter of the WGS 84 meridian circumference
	// (about 10,001,966 m), rounded down: larger radii return every point.
	allBeyondMeters = 10_000_000.0
)

type entry struct {
	lon, lat float64
	id       int
}

// Index answers candidate queries over a fixed set of points. It is safe for
// concurrent use after New returns.
type Index struct {
	rows [rowsMax][]entry
	n    int
}

// New builds an index over points; candidate ids are positions in points.
// A point with a latitude outside [-90, 90] or a non-finite coordinate is an
// error naming its position, since a Location without usable geo must be
// left out by the caller rather than guessed at.
func New(points []Point) (*Index, error) {
	ix := &Index{n: len(points)}
	// Rows are sized first, so that each is filled without growing.
	var counts [rowsMax]int
	for i, p := range points {
		if err := checkPoint(p); err != nil {
			return nil, fmt.Errorf("spatial index point %d: %w", i, err)
		}
		counts[rowOf(p.Lat)]++
	}
	for r, c := range counts {
		if c > 0 {
			ix.rows[r] = make([]entry, 0, c)
		}
	}
	for i, p := range points {
		r := rowOf(p.Lat)
		ix.rows[r] = append(ix.rows[r], entry{lon: normLon(p.Lon), lat: p.Lat, id: i})
	}
	for _, row := range ix.rows {
		slices.SortFunc(row, byLonThenID)
	}
	return ix, nil
}

// byLonThenID orders a row's entries west to east, equal longitudes by id.
func byLonThenID(a, b entry) int {
	if c := cmp.Compare(a.lon, b.lon); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// Len returns the number of indexed points.
func (ix *Index) Len() int { return ix.n }

func checkPoint(p Point) error {
	if math.IsNaN(p.Lat) || p.Lat < -90 || p.Lat > 90 {
		return fmt.Errorf("latitude %v outside [-90, 90]", p.Lat)
	}
	if math.IsNaN(p.Lon) || math.IsInf(p.Lon, 0) {
		return fmt.Errorf("longitude %v is not finite", p.Lon)
	}
	return nil
}

func rowOf(lat float64) int {
	r := int(math.Floor((lat + 90) / rowDeg))
	return min(max(r, 0), rowsMax-1)
}

// normLon reduces a longitude to [-180, 180), so 180 and -180 share a place.
func normLon(lon float64) float64 {
	l := math.Mod(lon+180, 360)
	if l < 0 {
		l += 360
	}
	return l - 180
}

// Region is the area a distance query may reach, as the index bounds it:
// a latitude band and one or two longitude intervals (or every point). It
// lets a caller test points one by one, in its own order, instead of
// materialising the candidates.
type Region struct {
	all          bool // every point
	latLo, latHi float64
	allLon       bool
	lon          [2][2]float64 // closed longitude intervals
	nlon         int
}

// Region bounds the points that may lie within maxMeters of center by
// geodesic distance on WGS 84, with the same errors as Candidates.
func (ix *Index) Region(center Point, maxMeters float64) (Region, error) {
	if err := checkPoint(center); err != nil {
		return Region{}, fmt.Errorf("spatial query center: %w", err)
	}
	if math.IsNaN(maxMeters) || maxMeters < 0 {
		return Region{}, fmt.Errorf("spatial query radius %v: must be a number >= 0 meters", maxMeters)
	}
	if maxMeters > allBeyondMeters {
		return Region{all: true}, nil
	}
	dLat := maxMeters/minMetersPerDegLat + padDeg
	r := Region{latLo: center.Lat - dLat, latHi: center.Lat + dLat}
	r.allLon = r.latLo <= -90 || r.latHi >= 90 // the cap may contain a pole
	if r.allLon {
		return r, nil
	}
	phiMax := math.Max(math.Abs(r.latLo), math.Abs(r.latHi)) * math.Pi / 180
	perDeg := equatorialRadius * math.Cos(phiMax) * math.Pi / 180
	dLon := maxMeters/perDeg*lonMargin + padDeg
	if r.allLon = dLon >= 180; r.allLon {
		return r, nil
	}
	c := normLon(center.Lon)
	lo, hi := c-dLon, c+dLon
	switch {
	case lo < -180:
		r.lon, r.nlon = [2][2]float64{{lo + 360, 180}, {-180, hi}}, 2
	case hi >= 180:
		r.lon, r.nlon = [2][2]float64{{lo, 180}, {-180, hi - 360}}, 2
	default:
		r.lon, r.nlon = [2][2]float64{{lo, hi}}, 1
	}
	return r, nil
}

// Covers reports whether p lies in the region, exactly as Candidates would
// include it.
func (r Region) Covers(p Point) bool {
	if r.all {
		return true
	}
	if !(p.Lat >= r.latLo && p.Lat <= r.latHi) {
		return false
	}
	if r.allLon {
		return true
	}
	l := normLon(p.Lon)
	for _, iv := range r.lon[:r.nlon] {
		if l >= iv[0] && l <= iv[1] {
			return true
		}
	}
	return false
}

// Count returns an upper bound on the number of points in the region (the
// points of its rows and longitude intervals), in time logarithmic in the
// row sizes, so a caller can choose between Candidates and testing points.
func (ix *Index) Count(r Region) int {
	if r.all {
		return ix.n
	}
	n := 0
	for row := rowOf(r.latLo); row <= rowOf(r.latHi); row++ {
		entries := ix.rows[row]
		if r.allLon {
			n += len(entries)
			continue
		}
		for _, iv := range r.lon[:r.nlon] {
			i := sort.Search(len(entries), func(k int) bool { return entries[k].lon >= iv[0] })
			j := sort.Search(len(entries), func(k int) bool { return entries[k].lon > iv[1] })
			n += j - i
		}
	}
	return n
}

// Candidates returns, in ascending order, the ids of every point that may
// lie within maxMeters of center by geodesic distance on WGS 84: a superset
// of the true matches, never missing one. The caller must still apply the
// exact comparison. A bad center (latitude outside [-90, 90], non-finite
// coordinate) or a negative or NaN maxMeters is an error.
func (ix *Index) Candidates(center Point, maxMeters float64) ([]int, error) {
	r, err := ix.Region(center, maxMeters)
	if err != nil {
		return nil, err
	}
	return ix.Within(r), nil
}

// Within returns, in ascending order, the ids of the points the region
// covers.
func (ix *Index) Within(r Region) []int {
	if r.all {
		return ix.all()
	}
	var out []int
	for row := rowOf(r.latLo); row <= rowOf(r.latHi); row++ {
		entries := ix.rows[row]
		if r.allLon {
			out = appendBand(out, entries, 0, len(entries), r.latLo, r.latHi)
			continue
		}
		for _, iv := range r.lon[:r.nlon] {
			out = appendLon(out, entries, iv[0], iv[1], r.latLo, r.latHi)
		}
	}
	slices.Sort(out)
	return out
}

// appendLon adds the row's entries with lon in [lo, hi] and lat in the band.
func appendLon(out []int, row []entry, lo, hi, latLo, latHi float64) []int {
	i := sort.Search(len(row), func(k int) bool { return row[k].lon >= lo })
	j := sort.Search(len(row), func(k int) bool { return row[k].lon > hi })
	return appendBand(out, row, i, j, latLo, latHi)
}

func appendBand(out []int, row []entry, i, j int, latLo, latHi float64) []int {
	for _, e := range row[i:j] {
		if e.lat >= latLo && e.lat <= latHi {
			out = append(out, e.id)
		}
	}
	return out
}

func (ix *Index) all() []int {
	out := make([]int, ix.n)
	for i := range out {
		out[i] = i
	}
	return out
}
