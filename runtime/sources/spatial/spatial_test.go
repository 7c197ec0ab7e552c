package spatial

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
)

// bruteForce is the exact answer the index must never undercut.
func bruteForce(points []Point, center Point, max float64) []int {
	var out []int
	for i, p := range points {
		if geodesic.Within(geodesic.Point(center), geodesic.Point(p), max) {
			out = append(out, i)
		}
	}
	return out
}

// missing returns the ids of want absent from the sorted candidate list.
func missing(cands, want []int) []int {
	var out []int
	for _, id := range want {
		if _, ok := slices.BinarySearch(cands, id); !ok {
			out = append(out, id)
		}
	}
	return out
}

func checkCandidates(t *testing.T, ix *Index, points []Point, center Point, max float64) (cands, matches int) {
	t.Helper()
	got, err := ix.Candidates(center, max)
	if err != nil {
		t.Fatalf("Candidates(%v, %v): %v", center, max, err)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Fatalf("Candidates(%v, %v) not sorted and distinct", center, max)
	}
	if len(got) > 0 && (got[0] < 0 || got[len(got)-1] >= len(points)) {
		t.Fatalf("Candidates(%v, %v) returned ids outside [0, %d)", center, max, len(points))
	}
	want := bruteForce(points, center, max)
	if miss := missing(got, want); len(miss) > 0 {
		p := points[miss[0]]
		t.Fatalf("Candidates(%v, %v m) missed %d true matches, e.g. id %d at %v (distance %.3f m)",
			center, max, len(miss), miss[0], p, geodesic.Distance(geodesic.Point(center), geodesic.Point(p)))
	}
	return len(got), len(want)
}

// randomPoint draws from a mix that stresses the index: uniform on the
// sphere, near the poles, and near the antimeridian.
func randomPoint(r *rand.Rand) Point {
	switch r.IntN(4) {
	case 0:
		return Point{Lat: sign(r) * (90 - r.Float64()*r.Float64()*3), Lon: r.Float64()*360 - 180}
	case 1:
		return Point{Lat: r.Float64()*160 - 80, Lon: 180 - r.Float64()*2}
	case 2:
		return Point{Lat: r.Float64()*160 - 80, Lon: -180 + r.Float64()*2}
	default:
		return Point{Lat: math.Asin(2*r.Float64()-1) * 180 / math.Pi, Lon: r.Float64()*360 - 180}
	}
}

func sign(r *rand.Rand) float64 {
	if r.IntN(2) == 0 {
		return -1
	}
	return 1
}

// randomRadius is log-uniform from 1 m to 20,000 km, with some zeros.
func randomRadius(r *rand.Rand) float64 {
	if r.IntN(20) == 0 {
		return 0
	}
	return math.Pow(10, r.Float64()*7.3)
}

func TestCandidatesNeverMissAMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	points := make([]Point, 1200)
	for i := range points {
		points[i] = randomPoint(r)
	}
	// Exact poles with arbitrary longitudes, both signs of the antimeridian.
	points = append(points, Point{90, 0}, Point{90, 137}, Point{-90, -45}, Point{0, 180}, Point{0, -180}, Point{-16.8, 179.99999}, Point{-16.8, -179.99999})
	ix, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != len(points) {
		t.Fatalf("Len = %d, want %d", ix.Len(), len(points))
	}
	var cands, matches int
	queries := 250
	for q := 0; q < queries; q++ {
		center := randomPoint(r)
		// Half the queries sit right next to an indexed point, so small
		// radii have matches to miss.
		if q%2 == 0 {
			p := points[r.IntN(len(points))]
			center = Point{Lat: math.Max(-90, math.Min(90, p.Lat+(r.Float64()-0.5)*0.02)), Lon: p.Lon + (r.Float64()-0.5)*0.02}
		}
		c, m := checkCandidates(t, ix, points, center, randomRadius(r))
		cands += c
		matches += m
	}
	t.Logf("%d random queries: %d candidates for %d true matches", queries, cands, matches)
}

func TestCandidatesEdgeCases(t *testing.T) {
	points := []Point{
		{90, 0}, {90, -120}, {89.9999, 60}, {-90, 10}, {-89.99, -170},
		{0, 180}, {0, -180}, {0, 179.9999}, {0, -179.9999}, {51.5, 179.5}, {51.5, -179.5},
		{-16.8, 179.99}, {-16.8, -179.99}, {0, 0}, {45, 90},
	}
	ix, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		center Point
		max    float64
	}{
		{"north pole tiny radius", Point{90, 45}, 15},
		{"just below the pole", Point{89.99995, -100}, 30},
		{"south pole", Point{-90, 0}, 2000},
		{"on the antimeridian east", Point{0, 180}, 50},
		{"on the antimeridian west", Point{0, -180}, 50},
		{"across 180 in Fiji", Point{-16.8, 179.999}, 3000},
		{"across 180 from the west", Point{-16.8, -179.999}, 3000},
		{"Aleutian latitude", Point{51.5, 179.99}, 80000},
		{"zero radius on a point", Point{45, 90}, 0},
		{"zero radius at the pole", Point{90, 0}, 0},
		{"longitude given as 540", Point{0, 540}, 100},
		{"just under a quarter circumference", Point{10, 20}, 9_999_999},
		{"over a quarter circumference", Point{10, 20}, 10_000_001},
		{"nearly antipodal", Point{0, 0}, 20_003_931},
		{"infinite radius", Point{0, 0}, math.Inf(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkCandidates(t, ix, points, c.center, c.max)
		})
	}
	all, err := ix.Candidates(Point{0, 0}, 1e8)
	if err != nil || len(all) != len(points) {
		t.Errorf("huge radius: got %d of %d points (%v)", len(all), len(points), err)
	}
	near, err := ix.Candidates(Point{0, 0}, 1000)
	if err != nil || !slices.Equal(near, []int{13}) {
		t.Errorf("1 km around (0, 0): got %v (%v), want only [13]: the index is not narrowing", near, err)
	}
}

func TestBadInputsAreErrors(t *testing.T) {
	if _, err := New([]Point{{0, 0}, {91, 0}}); err == nil || !strings.Contains(err.Error(), "point 1") || !strings.Contains(err.Error(), "latitude") {
		t.Errorf("New with latitude 91: got %v", err)
	}
	if _, err := New([]Point{{0, math.NaN()}}); err == nil || !strings.Contains(err.Error(), "longitude") {
		t.Errorf("New with NaN longitude: got %v", err)
	}
	ix, err := New([]Point{{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		center Point
		max    float64
		want   string
	}{
		{Point{-90.5, 0}, 10, "latitude"},
		{Point{math.NaN(), 0}, 10, "latitude"},
		{Point{0, math.Inf(-1)}, 10, "longitude"},
		{Point{0, 0}, -1, "radius"},
		{Point{0, 0}, math.NaN(), "radius"},
	}
	for _, c := range cases {
		if got, err := ix.Candidates(c.center, c.max); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Candidates(%v, %v) = %v, %v; want an error about %s", c.center, c.max, got, err, c.want)
		}
	}
}

// datasetPoints returns the geo of every store in the default dataset.
func datasetPoints(tb testing.TB) []Point {
	tb.Helper()
	recs, err := sampledata.Records()
	if err != nil {
		tb.Fatal(err)
	}
	points := make([]Point, 0, len(recs))
	for _, r := range recs {
		var loc struct {
			Geo *struct {
				Latitude  float64 `json:"latitude"`
				Longitude float64 `json:"longitude"`
			} `json:"geo"`
		}
		if err := json.Unmarshal(r.Location, &loc); err != nil {
			tb.Fatal(err)
		}
		if loc.Geo != nil {
			points = append(points, Point{loc.Geo.Latitude, loc.Geo.Longitude})
		}
	}
	return points
}

// TestCandidateRatioOnTheDataset checks the index on the real store set and
// reports how much it narrows typical store-finder radii.
func TestCandidateRatioOnTheDataset(t *testing.T) {
	points := datasetPoints(t)
	ix, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, radius := range []float64{1_000, 5_000, 25_000, 100_000, 1_000_000} {
		var cands, matches int
		const queries = 40
		for q := 0; q < queries; q++ {
			p := points[r.IntN(len(points))]
			center := Point{p.Lat + (r.Float64()-0.5)*0.05, p.Lon + (r.Float64()-0.5)*0.05}
			c, m := checkCandidates(t, ix, points, center, radius)
			cands += c
			matches += m
		}
		ratio := math.NaN()
		if matches > 0 {
			ratio = float64(cands) / float64(matches)
		}
		t.Logf("radius %8.0f m: %6.1f candidates, %6.1f matches per query (candidates/matches %.2f, candidates/stores %.4f)",
			radius, float64(cands)/queries, float64(matches)/queries, ratio, float64(cands)/queries/float64(len(points)))
	}
}

// benchCenters are store-finder style queries near real stores.
func benchCenters(points []Point) []Point {
	r := rand.New(rand.NewPCG(5, 6))
	out := make([]Point, 256)
	for i := range out {
		p := points[r.IntN(len(points))]
		out[i] = Point{p.Lat + (r.Float64()-0.5)*0.05, p.Lon + (r.Float64()-0.5)*0.05}
	}
	return out
}

// BenchmarkDistanceQuery answers store-finder distance queries near real
// stores two ways in one run: the index path (candidates, then the exact
// geodesic check on each) and the baseline, the exact check on every store.
func BenchmarkDistanceQuery(b *testing.B) {
	points := datasetPoints(b)
	ix, err := New(points)
	if err != nil {
		b.Fatal(err)
	}
	centers := benchCenters(points)
	for _, radius := range []float64{10_000, 1_000_000} {
		name := strconv.FormatFloat(radius/1000, 'f', -1, 64) + "km"
		b.Run(name+"/index+exact", func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				c := centers[i%len(centers)]
				cands, err := ix.Candidates(c, radius)
				if err != nil {
					b.Fatal(err)
				}
				for _, id := range cands {
					if geodesic.Within(geodesic.Point(c), geodesic.Point(points[id]), radius) {
						n++
					}
				}
			}
			_ = n
		})
		b.Run(name+"/baseline=scan-exact", func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				n += len(bruteForce(points, centers[i%len(centers)], radius))
			}
			_ = n
		})
	}
}

// TestRegionAgreesWithCandidates proves that testing points one by one with
// Region.Covers selects exactly the ids Candidates returns, and that Count
// never undercounts them, so a caller may use either path.
func TestRegionAgreesWithCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	points := make([]Point, 3000)
	for i := range points {
		points[i] = randomPoint(r)
	}
	ix, err := New(points)
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		center, radius := randomPoint(r), randomRadius(r)
		want, err := ix.Candidates(center, radius)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := ix.Region(center, radius)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for i, p := range points {
			if reg.Covers(p) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("center %v radius %v: Covers selects %d points, Candidates %d", center, radius, len(got), len(want))
		}
		if n := ix.Count(reg); n < len(want) {
			t.Fatalf("center %v radius %v: Count %d below %d candidates", center, radius, n, len(want))
		}
	}
	if _, err := ix.Region(Point{Lat: 91}, 1); err == nil {
		t.Error("Region accepted latitude 91")
	}
	if _, err := ix.Region(Point{}, math.NaN()); err == nil {
		t.Error("Region accepted a NaN radius")
	}
}

// BenchmarkNew builds the index over a million points clustered like a
// chain's stores (a few hundred metro areas), as a large load does.
func BenchmarkNew(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	metros := make([]Point, 300)
	for i := range metros {
		metros[i] = Point{Lat: r.Float64()*120 - 60, Lon: r.Float64()*360 - 180}
	}
	points := make([]Point, 1_000_000)
	for i := range points {
		m := metros[r.IntN(len(metros))]
		points[i] = Point{Lat: m.Lat + r.Float64() - 0.5, Lon: m.Lon + r.Float64() - 0.5}
	}
	for b.Loop() {
		if _, err := New(points); err != nil {
			b.Fatal(err)
		}
	}
}
