package memory

import (
	"fmt"
	"sort"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// ranking is one text query's order over one pool: the text index's hits
// in the pool, score descending then id (the engine's relevance keyset
// order), followed by every other pool record with score 0, in id order.
// Only the hits are materialised; the zero-score rest is walked on demand.
type ranking struct {
	hits *textrank.Hits
}

// ranking returns the cached ranking of text over the pool, computing it
// from the inverted index on a miss: the cost is the postings of the query's
// terms, never a score for every record.
func (s *Source) ranking(text string, d *predicate.Distance, p *pool) *ranking {
	key := fmt.Sprintf("%q %q", text, p.amenities)
	if d != nil {
		key += fmt.Sprintf(" %v,%v,%v", d.Center.Lat, d.Center.Lon, d.Max)
	}
	return s.rankings.get(key, func() *ranking {
		q := textrank.NewQuery(text)
		return &ranking{hits: s.text.Search(q, func(doc int32) bool { return p.has(s, doc) })}
	})
}

// after returns up to limit doc numbers (and their scores) strictly after
// pos in the ranking.
func (r *ranking) after(s *Source, p *pool, pos *finder.Position, limit int) ([]int32, []float64) {
	h := r.hits
	start := 0
	if pos != nil {
		start = sort.Search(len(h.Docs), func(i int) bool {
			return finder.Compare(finder.ByRelevance, finder.Position{Score: h.Scores[i], ID: s.ents[h.Docs[i]].id}, *pos) > 0
		})
	}
	end := min(start+limit, len(h.Docs))
	docs := append([]int32(nil), h.Docs[start:end]...)
	scores := append([]float64(nil), h.Scores[start:end]...)
	if len(docs) == limit {
		return docs, scores
	}
	from := int32(0)
	if pos != nil && pos.Score <= 0 { // pos is already in the zero-score rest
		from = s.docAfter(pos.ID)
	}
	for _, d := range p.collect(s, from, limit-len(docs), h.Has) {
		docs, scores = append(docs, d), append(scores, 0)
	}
	return docs, scores
}

// lru keeps the few most recent values by key: a walk through pages, and
// the growing batches of one page, ask for the same ranking or circle again
// and again.
type lru[K comparable, V any] struct {
	mu     sync.Mutex
	recent []lruEntry[K, V] // most recent last
}

type lruEntry[K comparable, V any] struct {
	key K
	v   V
}

const lruSize = 8

// get returns the value for key, building it (outside the lock) on a miss.
func (c *lru[K, V]) get(key K, build func() V) V {
	c.mu.Lock()
	for i, e := range c.recent {
		if e.key == key {
			// Moved to the end in place: a hit allocates nothing.
			copy(c.recent[i:], c.recent[i+1:])
			c.recent[len(c.recent)-1] = e
			c.mu.Unlock()
			return e.v
		}
	}
	c.mu.Unlock()
	v := build()
	c.mu.Lock()
	c.recent = append(c.recent, lruEntry[K, V]{key, v})
	if len(c.recent) > lruSize {
		c.recent = c.recent[1:]
	}
	c.mu.Unlock()
	return v
}

// clear forgets every value (benchmarks measure cold first pages with it).
func (c *lru[K, V]) clear() {
	c.mu.Lock()
	c.recent = nil
	c.mu.Unlock()
}
