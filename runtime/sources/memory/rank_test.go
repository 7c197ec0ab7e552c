package memory

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// TestRelevanceOrderMatchesScoringEverything walks every page of ranked
// searches and compares the whole order with the reference: every record
// the structured constraints admit (brute force), scored with
// textrank.Query.Score, sorted by score descending then id. So the text
// index never admits a record a constraint excludes, never drops one it
// admits (score-0 records follow in id order), and ranks exactly as scoring
// every store would. Page sizes 1 and 7 exercise cursors inside the hits,
// across the hits/rest boundary and inside the rest.
func TestRelevanceOrderMatchesScoringEverything(t *testing.T) {
	nyc := geodesic.Point{Lat: 40.75, Lon: -73.98}
	at := time.Date(2026, 9, 7, 14, 30, 0, 0, time.UTC)
	const wifi = "dev.ucp.amenity.wi_fi"
	distance := `"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000}`
	big := `"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":3000000}`
	cases := []struct {
		name, text, rest string
		b                brute
	}{
		{"electronics", "electronics", ``, brute{}},
		{"two words", "harvest market", ``, brute{}},
		{"prefix", "elec", ``, brute{}},
		{"no hit", "zzzz qqqq", ``, brute{}},
		{"circle", "market", `,` + distance, brute{center: &nyc, max: 25000}},
		{"wide circle", "market wifi", `,` + big, brute{center: &nyc, max: 3000000}},
		{"amenity and hours", "electronics", `,"filters":{"amenities":["` + wifi + `"],"hours":{"open_at":"2026-09-07T14:30:00Z"}}`,
			brute{openAt: &at, amen: []string{wifi}}},
	}
	s := newStore(t, testOptions{PageMax: 1000})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := textrank.NewQuery(tc.text)
			type scored struct {
				id    string
				score float64
			}
			var want []scored
			for _, r := range records(t) {
				if tc.b.match(t, r) {
					l := decoded(t, r.Location) // decoded once per process, as match does
					want = append(want, scored{l.ID, q.Score(textrank.NewDoc(TextFields(l)))})
				}
			}
			slices.SortFunc(want, func(a, b scored) int {
				if c := cmp.Compare(b.score, a.score); c != 0 {
					return c
				}
				return strings.Compare(a.id, b.id)
			})
			wantIDs := make([]string, len(want))
			for i, w := range want {
				wantIDs[i] = w.id
			}
			req := `{"query":` + mustJSON(t, tc.text) + tc.rest + `}`
			// Pages of one walk every match a search at a time: the plain
			// pass only; the race detector has as much to find in pages of 7.
			for _, limit := range testshared.RaceCases([]int{1, 7, 1000}, []int{7, 1000}) {
				if got := walk(t, s, req, limit); !slices.Equal(got, wantIDs) {
					t.Fatalf("limit %d: got %d ids %v\nwant %d ids %v", limit, len(got), head(got), len(wantIDs), head(wantIDs))
				}
			}
			if len(want) == 0 {
				t.Log("warning: the case matches no record")
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func head(ids []string) []string { return ids[:min(len(ids), 8)] }
