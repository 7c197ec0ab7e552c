package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

const meta = `{"ucp-agent":{"profile":"https://platform.example/profile.json"}}`

// centers are metro centres of the generated dataset; queries rotate over
// them so no single neighbourhood decides the figures.
var centers = [][2]float64{
	{40.7831, -73.9712}, // New York
	{51.5074, -0.1278},  // London
	{41.8781, -87.6298}, // Chicago
	{34.0522, -118.2437},
}

// query is one entry of the mix: a tool and the location argument of its
// i-th request.
type query struct {
	name string
	tool string
	loc  func(i int, ids []string) string
}

func (q query) args(i int, ids []string) string {
	return `{"meta":` + meta + `,"location":` + q.loc(i, ids) + `}`
}

func circle(i int, maxM int) string {
	c := centers[i%len(centers)]
	return fmt.Sprintf(`"distance":{"center":{"latitude":%g,"longitude":%g},"max":%d}`, c[0], c[1], maxM)
}

// queryMix is the mix: three spatial searches, a browse, two text
// queries and a 50-id lookup. The open_at instant is a weekday afternoon in
// the Americas and evening in Europe, so both open and closed stores occur.
var queryMix = []query{
	{"10 km", "search_locations", func(i int, _ []string) string { return `{` + circle(i, 10_000) + `}` }},
	{"10 km + hours + amenity", "search_locations", func(i int, _ []string) string {
		return `{` + circle(i, 10_000) + `,"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking"]}}`
	}},
	{"1,000 km", "search_locations", func(i int, _ []string) string { return `{` + circle(i, 1_000_000) + `}` }},
	{"browse, first page", "search_locations", func(int, []string) string { return `{}` }},
	{"text query", "search_locations", func(int, []string) string { return `{"query":"electronics"}` }},
	// The tie-heavy text query: a brand word that about a seventh of
	// the stores carry in their name, so every hit ties.
	{"text query, express", "search_locations", func(int, []string) string { return `{"query":"express"}` }},
	{"lookup, 50 ids", "lookup_locations", func(_ int, ids []string) string {
		return `{"ids":["` + strings.Join(ids, `","`) + `"]}`
	}},
}

// bruteStore is one public store as the baseline sees it.
type bruteStore struct {
	id   string
	cand predicate.Candidate
	doc  textrank.Doc
}

// bruteForce answers every query of the mix by checking every public store,
// and reports the median time per query.
func bruteForce(data string, reps int) (map[string]time.Duration, error) {
	recs, err := loadRecords(data)
	if err != nil {
		return nil, err
	}
	stores := make([]bruteStore, 0, len(recs))
	for i, r := range recs {
		if r.Private {
			continue
		}
		l, err := location.DecodeLocation(r.Location)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		s := bruteStore{id: l.ID, cand: l.PredicateCandidate(), doc: textrank.NewDoc(memory.TextFields(l))}
		stores = append(stores, s)
	}
	ids := make([]string, 0, 50)
	for i := 0; i < len(stores) && len(ids) < 50; i += max(1, len(stores)/50) {
		ids = append(ids, stores[i].id)
	}
	out := map[string]time.Duration{}
	ctx := context.Background()
	for _, q := range queryMix {
		var ds []time.Duration
		for i := range reps {
			t0 := time.Now()
			if q.tool == "lookup_locations" {
				// A scan: every store is compared against the id set.
				want := make(map[string]bool, len(ids))
				for _, id := range ids {
					want[id] = true
				}
				var found []int
				for k := range stores {
					if want[stores[k].id] {
						found = append(found, k)
					}
				}
				_ = found
			} else {
				req, err := location.DecodeSearchRequest([]byte(q.loc(i, ids)))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", q.name, err)
				}
				pq, err := req.PredicateQuery()
				if err != nil {
					return nil, err
				}
				var eng predicate.Engine
				p, err := eng.Prepare(pq)
				if err != nil {
					return nil, err
				}
				tq := textrank.NewQuery(req.Query.V)
				type hit struct {
					score float64
					id    string
				}
				var hits []hit
				for k := range stores {
					ok, err := p.Match(ctx, &stores[k].cand)
					if err != nil {
						return nil, err
					}
					if ok {
						h := hit{id: stores[k].id}
						if !tq.Empty() {
							h.score = tq.Score(stores[k].doc)
						}
						hits = append(hits, h)
					}
				}
				slices.SortFunc(hits, func(a, b hit) int {
					if a.score != b.score {
						if a.score > b.score {
							return -1
						}
						return 1
					}
					return strings.Compare(a.id, b.id)
				})
				_ = hits[:min(10, len(hits))]
			}
			ds = append(ds, time.Since(t0))
		}
		out[q.name] = percentile(ds, 50)
	}
	return out, nil
}
