package store

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/ucpgen/ucpgen/examples/storefinder/textrank"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
)

// ranking is one text query's order over one pool: score descending, then
// id, which is the engine's relevance keyset order.
type ranking struct {
	key    string
	order  []*entry
	scores []float64
}

// after returns up to limit candidates strictly after pos.
func (r *ranking) after(pos *finder.Position, limit int) []location.Candidate {
	start := 0
	if pos != nil {
		start = sort.Search(len(r.order), func(i int) bool {
			return finder.Compare(finder.ByRelevance, finder.Position{Score: r.scores[i], ID: r.order[i].loc.ID}, *pos) > 0
		})
	}
	end := min(start+limit, len(r.order))
	out := make([]location.Candidate, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, r.order[i].candidate(r.scores[i]))
	}
	return out
}

// rankCache keeps the few most recent rankings: a walk through pages, and
// the growing batches of one page, ask for the same one again and again.
type rankCache struct {
	mu     sync.Mutex
	recent []*ranking // most recent last
}

const rankCacheSize = 8

func (c *rankCache) get(text string, d *predicate.Distance, amenities []string, pool func() []*entry) *ranking {
	key := fmt.Sprintf("%q %q", text, amenities)
	if d != nil {
		key += fmt.Sprintf(" %v,%v,%v", d.Center.Lat, d.Center.Lon, d.Max)
	}
	c.mu.Lock()
	for i, r := range c.recent {
		if r.key == key {
			c.recent = append(append(c.recent[:i:i], c.recent[i+1:]...), r)
			c.mu.Unlock()
			return r
		}
	}
	c.mu.Unlock()

	r := rank(key, text, pool())
	c.mu.Lock()
	c.recent = append(c.recent, r)
	if len(c.recent) > rankCacheSize {
		c.recent = c.recent[1:]
	}
	c.mu.Unlock()
	return r
}

// rank scores every record of the pool for text and orders them. The pool
// is in id order, so a stable sort on the score alone gives (score desc, id);
// records that do not match the text at all (score 0, usually most) keep
// their place at the end without being sorted.
func rank(key, text string, pool []*entry) *ranking {
	q := textrank.NewQuery(text)
	r := &ranking{key: key, order: make([]*entry, 0, len(pool)), scores: make([]float64, 0, len(pool))}
	type scored struct {
		e *entry
		s float64
	}
	var hits []scored
	var rest []*entry
	for _, e := range pool {
		if s := scoreOf(q, e); s > 0 {
			hits = append(hits, scored{e, s})
		} else {
			rest = append(rest, e)
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
	for _, h := range hits {
		r.order, r.scores = append(r.order, h.e), append(r.scores, h.s)
	}
	for _, e := range rest {
		r.order, r.scores = append(r.order, e), append(r.scores, 0)
	}
	return r
}

func scoreOf(q textrank.Query, e *entry) float64 {
	if q.Empty() {
		return 0
	}
	return q.Score(e.doc)
}

// clear forgets every ranking (benchmarks measure cold first pages with it).
func (c *rankCache) clear() {
	c.mu.Lock()
	c.recent = nil
	c.mu.Unlock()
}
