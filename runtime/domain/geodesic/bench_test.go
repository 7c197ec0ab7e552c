package geodesic

import (
	"math"
	"testing"
)

// meanEarthRadius is the IUGG mean radius (2a+b)/3 of WGS 84 in meters, the
// usual radius for a spherical approximation.
const meanEarthRadius = 6371008.8

// haversine is the great-circle distance on a sphere of the mean Earth
// radius. It is a BASELINE for the benchmarks only, the cheap formula a
// reader is likely to know: its error on WGS 84 is up to about 0.5 percent
// (tens of kilometres on long lines), so it is NOT accurate enough to decide
// whether a Location matches a distance filter.
func haversine(a, b Point) float64 {
	const rad = math.Pi / 180
	sdlat := math.Sin((b.Lat - a.Lat) * rad / 2)
	sdlon := math.Sin((b.Lon - a.Lon) * rad / 2)
	h := sdlat*sdlat + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*sdlon*sdlon
	return 2 * meanEarthRadius * math.Asin(math.Sqrt(min(1, h)))
}

// benchPairs returns the reference pairs of one category, failing the
// benchmark when there are none.
func benchPairs(b *testing.B, category string) []referencePair {
	b.Helper()
	pairs := pairsIn(loadReference(b), category)
	if len(pairs) == 0 {
		b.Fatalf("no %q pairs in the reference", category)
	}
	return pairs
}

// sink keeps benchmark results alive so the compiler cannot drop the calls.
var sink float64

// runDistance times f over pairs, one pair per iteration.
func runDistance(b *testing.B, pairs []referencePair, f func(a, b Point) float64) {
	b.ReportAllocs()
	b.ResetTimer()
	var sum float64
	for i := 0; i < b.N; i++ {
		p := &pairs[i%len(pairs)]
		sum += f(p.a, p.b)
	}
	sink = sum
}

// BenchmarkDistanceLocal measures store-finder distances: the 500 "local"
// reference pairs (1 m to 75 km apart).
func BenchmarkDistanceLocal(b *testing.B) {
	runDistance(b, benchPairs(b, "local"), Distance)
}

// BenchmarkDistanceAntipodal measures the hardest case for the iteration:
// the 500 nearly antipodal reference pairs.
func BenchmarkDistanceAntipodal(b *testing.B) {
	runDistance(b, benchPairs(b, "antipodal"), Distance)
}

// BenchmarkHaversineLocal is the baseline for BenchmarkDistanceLocal: a
// spherical haversine on the same pairs. It is NOT accurate enough to decide
// matches; it only gives the reader a familiar cost to compare against.
func BenchmarkHaversineLocal(b *testing.B) {
	runDistance(b, benchPairs(b, "local"), haversine)
}
