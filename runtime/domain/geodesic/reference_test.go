package geodesic

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// referenceFile is the committed copy of the shared GeographicLib fixture:
// WGS 84 inverse distances computed with GeodSolve -i -E -p 12.
const referenceFile = "wgs84-inverse.tsv"

// requiredCategories are the pair categories the acceptance criteria name;
// the fixture also has an "exact" category (short-decimal coordinates),
// which is checked like the others.
var requiredCategories = []string{
	"local", "uniform", "antipodal", "antimeridian", "polar", "equatorial", "meridional",
}

// accuracyLimit is the acceptance bound on |Distance - reference| for every
// pair, in meters.
const accuracyLimit = 1e-7

// referencePair is one row of the fixture.
type referencePair struct {
	line     int
	category string
	a, b     Point
	s12      float64 // reference distance in meters
}

// loadReference parses the committed fixture, failing the test on any
// malformed row so that a truncated or edited file cannot pass silently.
func loadReference(tb testing.TB) []referencePair {
	tb.Helper()
	path := filepath.Join("testdata", referenceFile)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open reference: %v", err)
	}
	defer f.Close()
	var pairs []referencePair
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 6 {
			tb.Fatalf("%s:%d: want 6 tab-separated fields, got %d", path, line, len(fields))
		}
		var v [5]float64
		for i := range v {
			v[i], err = strconv.ParseFloat(fields[i+1], 64)
			if err != nil {
				tb.Fatalf("%s:%d: field %d: %v", path, line, i+2, err)
			}
		}
		pairs = append(pairs, referencePair{
			line: line, category: fields[0],
			a: Point{v[0], v[1]}, b: Point{v[2], v[3]}, s12: v[4],
		})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return pairs
}

// pairsIn returns the reference pairs of one category.
func pairsIn(pairs []referencePair, category string) []referencePair {
	var out []referencePair
	for _, p := range pairs {
		if p.category == category {
			out = append(out, p)
		}
	}
	return out
}

func TestReferenceCopyMatchesShared(t *testing.T) {
	shared := testshared.Path(t, "testdata", "geodesic", referenceFile)
	want, err := os.ReadFile(shared)
	if err != nil {
		t.Fatalf("read shared fixture: %v", err)
	}
	got, err := os.ReadFile(filepath.Join("testdata", referenceFile))
	if err != nil {
		t.Fatalf("read committed fixture: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("testdata/%s differs from %s: copy the shared file again", referenceFile, shared)
	}
}

func TestDistanceAgainstReference(t *testing.T) {
	pairs := loadReference(t)
	byCat := map[string][]referencePair{}
	for _, p := range pairs {
		byCat[p.category] = append(byCat[p.category], p)
	}
	for _, c := range requiredCategories {
		if len(byCat[c]) == 0 {
			t.Errorf("reference has no %q pairs", c)
		}
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var overall float64
	for _, c := range cats {
		var worst float64
		var worstPair referencePair
		for _, p := range byCat[c] {
			got := Distance(p.a, p.b)
			err := math.Abs(got - p.s12)
			if !(err < accuracyLimit) { // also catches NaN
				t.Errorf("line %d (%s): Distance(%v, %v) = %.10f, reference %.10f, error %.3g m",
					p.line, c, p.a, p.b, got, p.s12, err)
			}
			if err > MaxError {
				t.Errorf("line %d (%s): error %.3g m exceeds documented MaxError %g", p.line, c, err, MaxError)
			}
			if err > worst {
				worst, worstPair = err, p
			}
		}
		overall = max(overall, worst)
		t.Logf("%-12s %4d pairs, max error %.2e m (line %d)", c, len(byCat[c]), worst, worstPair.line)
	}
	t.Logf("all          %4d pairs, max error %.2e m", len(pairs), overall)
}

func TestWithinBoundaryAgainstReference(t *testing.T) {
	for _, p := range loadReference(t) {
		name := fmt.Sprintf("line %d (%s)", p.line, p.category)
		if !Within(p.a, p.b, p.s12+1e-6) {
			t.Errorf("%s: Within(max = reference + 1e-6) = false, want true", name)
		}
		if Within(p.a, p.b, p.s12-1e-6) {
			t.Errorf("%s: Within(max = reference - 1e-6) = true, want false", name)
		}
		if d := Distance(p.a, p.b); !Within(p.a, p.b, d) {
			t.Errorf("%s: Within(max = Distance = %v) = false, want true (inclusive)", name, d)
		}
	}
}
