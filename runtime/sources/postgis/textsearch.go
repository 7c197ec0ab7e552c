package postgis

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// Ranked search (finder.ByRelevance). Every score is textrank's, computed
// in Go from the row's text columns, so the order is exactly the in-memory
// store's: score descending, then id, then every other admitted Location
// with score 0 in id order. Two plans, chosen per call:
//
//   - Small admitted set: when a distance circle or an item filter is
//     pushed down and admits at most Options.SmallSet rows, those rows' text is
//     read in one statement and all of them are scored and sorted.
//   - Otherwise a threshold top-k over storefinder_postings. Each query
//     term has one posting list for its own token (full weight) and, for a
//     term of three or more characters, one per token it starts (half
//     weight, found by a skip scan of the primary key). Lists are read in
//     (weight desc, id asc) keyset chunks, all lists of a round in one
//     statement that also returns the text of each posting's row when the
//     row passes the pushed-down filters; those rows are scored exactly
//     (random access). A Location not seen yet scores at most T, the sum
//     over terms of the best current level of the term's lists (plus the
//     phrase bonus while every term's own list is still at name weight),
//     and it can reach T only by sitting at the current level of one
//     top list of every term, after that list's last id; so the page is
//     final once its last candidate scores above T, or exactly T with an
//     id at most G, the largest over terms of the smallest last id of the
//     term's top lists. Only top lists are read, since reading others
//     cannot lower T. A cursor (After) seeks every list past the postings
//     whose weight alone puts their Location before it.
//
// Scores are kept in half points (integers): weights are 1-3, a prefix
// match halves them, and the phrase bonus is 2.

// DefaultSmallSet is Options.SmallSet's default: reading and scoring this
// many rows' text costs about what a few rounds of posting lists cost.
const DefaultSmallSet = 2000

// maxChunk bounds the postings read from one list in one round.
const maxChunk = 8192

// plist is one posting list with its keyset cursor: the rows still unread
// are those with weight < w, or weight == w and id > id ("" before any).
type plist struct {
	term  int    // index into the query's terms
	token string // posting term
	half  int    // half points per unit of weight: 2 exact, 1 prefix
	w     int
	id    string
	done  bool
}

// level is the most (in half points) an unread posting of l can add.
func (l *plist) level() int {
	if l.done {
		return 0
	}
	return l.w * l.half
}

// seek moves l past the postings whose own contribution already puts their
// Location before after (a score above after's, or equal with an id not
// greater): none of them can be on the page.
func (l *plist) seek(after *finder.Position) {
	if after == nil {
		return
	}
	sa := after.Score * 2 // half points
	if sa <= 0 {
		l.done = true
		return
	}
	w := int(sa) / l.half
	if w >= textrank.MaxWeight {
		if float64(textrank.MaxWeight*l.half) == sa {
			l.id = after.ID
		}
		return
	}
	if w < 1 {
		l.done = true
		return
	}
	l.w = w
	if float64(w*l.half) == sa {
		l.id = after.ID
	}
}

// scored is a Location the ranking has looked at.
type scored struct {
	id   string
	half int // score in half points
}

func halfScore(q textrank.Query, name, address, amenities string) int {
	return int(q.Score(textrank.NewDoc(textFields(name, address, amenities))) * 2)
}

// before orders scored Locations as the engine does under ByRelevance.
func before(a, b scored) int {
	if c := cmp.Compare(b.half, a.half); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// admits reports whether a scored Location comes strictly after the cursor.
func admits(after *finder.Position, c scored) bool {
	if after == nil {
		return true
	}
	s := float64(c.half) / 2
	return s < after.Score || (s == after.Score && c.id > after.ID)
}

// ranked serves finder.ByRelevance (see the comment at the top).
func (s *Source) ranked(ctx context.Context, h finder.Hints) ([]finder.Candidate[location.Location], error) {
	q := textrank.NewQuery(h.Text)
	if q.Empty() || (h.After != nil && h.After.Score <= 0) {
		// Every Location scores 0, or the cursor is already past every
		// scored one: the rest is in id order.
		return s.zeroRest(ctx, h, q, afterID(h.After), h.Limit)
	}
	if s.small > 0 && pushesDownSelective(h) {
		got, ok, err := s.rankSmall(ctx, h, q)
		if err != nil || ok {
			return got, err
		}
	}
	top, err := s.topK(ctx, h, q)
	if err != nil {
		return nil, err
	}
	out, err := s.fetchScored(ctx, top)
	if err != nil {
		return nil, err
	}
	if len(out) == h.Limit {
		return out, nil
	}
	rest, err := s.zeroRest(ctx, h, q, "", h.Limit-len(out))
	if err != nil {
		return nil, err
	}
	return append(out, rest...), nil
}

func afterID(p *finder.Position) string {
	if p == nil {
		return ""
	}
	return p.ID
}

// pushesDownSelective reports a pushed-down constraint with an index that
// can enumerate its rows cheaply: a distance circle or items.
func pushesDownSelective(h finder.Hints) bool {
	d := h.Distance
	if d == nil {
		d = h.Query.Distance
	}
	if d != nil && d.Max*(1+marginRelative)+marginAbsolute < halfMeridian {
		return true
	}
	return len(h.Query.Filters.Items) > 0
}

// rankSmall scores the whole admitted set when it holds at most s.small
// rows; ok is false (and nothing is returned) when it holds more.
func (s *Source) rankSmall(ctx context.Context, h finder.Hints, q textrank.Query) (_ []finder.Candidate[location.Location], ok bool, _ error) {
	var w where
	if c := w.structured(h, true); c != nil {
		// Count the circle's bounding box first (no geodesic test per
		// row), so a large circle costs an index probe, not s.small rows.
		var n int
		if err := s.pool.QueryRow(ctx, `SELECT `+boxCount(c, s.small+1), w.args[:3]...).Scan(&n); err != nil {
			return nil, false, fmt.Errorf("postgis ranked: %w", err)
		}
		if n > s.small {
			return nil, false, nil
		}
	}
	rows, err := s.pool.Query(ctx, `SELECT id, text_name, text_address, text_amenities FROM `+tableLocations+
		` WHERE `+w.String()+` LIMIT `+fmt.Sprint(s.small+1), w.args...)
	if err != nil {
		return nil, false, fmt.Errorf("postgis ranked: %w", err)
	}
	var all []scored
	for rows.Next() {
		var r textRow
		if err := rows.Scan(&r.id, &r.name, &r.address, &r.amenities); err != nil {
			rows.Close()
			return nil, false, fmt.Errorf("postgis ranked: %w", err)
		}
		all = append(all, scored{id: r.id, half: halfScore(q, r.name, r.address, r.amenities)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("postgis ranked: %w", err)
	}
	if len(all) > s.small {
		return nil, false, nil
	}
	all = slices.DeleteFunc(all, func(c scored) bool { return !admits(h.After, c) })
	slices.SortFunc(all, before)
	out, err := s.fetchScored(ctx, all[:min(len(all), h.Limit)])
	return out, true, err
}

// topK returns, best first, the at most h.Limit Locations with a positive
// score after h.After that the pushed-down filters admit.
func (s *Source) topK(ctx context.Context, h finder.Hints, q textrank.Query) ([]scored, error) {
	terms := q.Terms()
	lists := make([]*plist, 0, len(terms))
	for j, t := range terms {
		lists = append(lists, &plist{term: j, token: t, half: 2, w: textrank.MaxWeight})
	}
	exp, err := s.expand(ctx, terms)
	if err != nil {
		return nil, err
	}
	for _, e := range exp {
		lists = append(lists, &plist{term: e.term, token: e.token, half: 1, w: textrank.MaxWeight})
	}
	for _, l := range lists {
		l.seek(h.After)
	}
	var w where
	w.structured(h, false)
	filter := w.String()
	seen := map[string]bool{}
	var page []scored // admitted, sorted, at most h.Limit
	chunk := h.Limit
	for {
		T, G, read := bound(q, lists, len(terms))
		if T == 0 {
			return page, nil
		}
		if len(page) == h.Limit {
			if c := page[len(page)-1]; c.half > T || (c.half == T && c.id <= G) {
				return page, nil
			}
		}
		rw := where{args: slices.Clone(w.args)}
		var toks, afters []string
		var negs []int16
		for _, l := range read {
			toks, negs, afters = append(toks, l.token), append(negs, int16(-l.w)), append(afters, l.id)
		}
		sql := `SELECT c.k, x.neg_weight, x.id, l.id IS NOT NULL, l.text_name, l.text_address, l.text_amenities
FROM unnest(` + rw.arg(toks) + `::text[], ` + rw.arg(negs) + `::smallint[], ` + rw.arg(afters) + `::text[]) WITH ORDINALITY AS c(term, nw, after, k)
CROSS JOIN LATERAL (SELECT p.neg_weight, p.id FROM ` + tablePostings + ` p
	WHERE p.term = c.term AND (p.neg_weight, p.id) > (c.nw, c.after)
	ORDER BY p.neg_weight, p.id LIMIT ` + rw.arg(chunk) + `) AS x
LEFT JOIN ` + tableLocations + ` l ON l.id = x.id AND ` + filter
		rows, err := s.pool.Query(ctx, sql, rw.args...)
		if err != nil {
			return nil, fmt.Errorf("postgis ranked: %w", err)
		}
		count := make([]int, len(read))
		last := make([]struct {
			w  int
			id string
		}, len(read))
		for rows.Next() {
			var k int
			var nw int16
			var id string
			var ok bool
			var name, addr, amen *string
			if err := rows.Scan(&k, &nw, &id, &ok, &name, &addr, &amen); err != nil {
				rows.Close()
				return nil, fmt.Errorf("postgis ranked: %w", err)
			}
			k-- // ordinality counts from 1
			count[k]++
			if w := int(-nw); count[k] == 1 || w < last[k].w || (w == last[k].w && id > last[k].id) {
				last[k].w, last[k].id = w, id
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			if !ok {
				continue // the filters refuse it
			}
			c := scored{id: id, half: halfScore(q, *name, *addr, *amen)}
			if !admits(h.After, c) {
				continue
			}
			page = insertTop(page, c, h.Limit)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("postgis ranked: %w", err)
		}
		for i, l := range read {
			if count[i] < chunk {
				l.done = true
			} else {
				l.w, l.id = last[i].w, last[i].id
			}
		}
		chunk = min(chunk*2, maxChunk)
	}
}

// insertTop inserts c into the sorted page, keeping at most limit.
func insertTop(page []scored, c scored, limit int) []scored {
	i, _ := slices.BinarySearchFunc(page, c, before)
	if i >= limit {
		return page
	}
	page = slices.Insert(page, i, c)
	if len(page) > limit {
		page = page[:limit]
	}
	return page
}

// bound returns T (the most an unseen Location can score, in half points),
// G (an unseen Location scoring exactly T has an id above G) and the lists
// worth reading next: the top lists of every term, whose levels make T.
func bound(q textrank.Query, lists []*plist, terms int) (T int, G string, read []*plist) {
	best := make([]int, terms)
	for _, l := range lists {
		best[l.term] = max(best[l.term], l.level())
	}
	phrase := q.HasPhrase()
	for _, l := range lists {
		if l.half == 2 && l.level() < textrank.MaxWeight*2 {
			phrase = false // some term can no longer be a name hit of an unseen Location
		}
	}
	minID := make([]*string, terms)
	for _, l := range lists {
		if lv := l.level(); lv > 0 && lv == best[l.term] {
			read = append(read, l)
			if minID[l.term] == nil || l.id < *minID[l.term] {
				minID[l.term] = &l.id
			}
		}
	}
	for j, b := range best {
		T += b
		if b > 0 && *minID[j] > G {
			G = *minID[j]
		}
	}
	if T > 0 && phrase {
		T += 2 * textrank.PhraseBonus
	}
	return T, G, read
}

// expansion is a token a prefix term matches at half weight.
type expansion struct {
	term  int
	token string
}

// expand lists, for every term of three or more characters, the posting
// tokens it is a strict prefix of, in one statement: a skip scan of the
// postings' primary key, one index probe per distinct token.
func (s *Source) expand(ctx context.Context, terms []string) ([]expansion, error) {
	var lo, hi []string
	var idx []int
	for j, t := range terms {
		if textrank.MatchesPrefix(t) {
			// No token holds U+10FFFF (it is not a letter or digit), so
			// every token that starts with t sorts below t+"\U0010FFFF".
			lo, hi, idx = append(lo, t), append(hi, t+"\U0010FFFF"), append(idx, j)
		}
	}
	if len(lo) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT q.k, e.term FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS q(lo, hi, k)
CROSS JOIN LATERAL (
	WITH RECURSIVE r(term) AS (
		SELECT (SELECT min(p.term) FROM `+tablePostings+` p WHERE p.term > q.lo AND p.term < q.hi)
		UNION ALL
		SELECT (SELECT min(p.term) FROM `+tablePostings+` p WHERE p.term > r.term AND p.term < q.hi) FROM r WHERE r.term IS NOT NULL
	) SELECT term FROM r WHERE term IS NOT NULL) AS e`, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("postgis ranked: expand prefixes: %w", err)
	}
	defer rows.Close()
	var out []expansion
	for rows.Next() {
		var k int
		var tok string
		if err := rows.Scan(&k, &tok); err != nil {
			return nil, fmt.Errorf("postgis ranked: expand prefixes: %w", err)
		}
		out = append(out, expansion{term: idx[k-1], token: tok})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgis ranked: expand prefixes: %w", err)
	}
	return out, nil
}

// fetchScored reads and decodes the Locations of a ranked page, in order.
func (s *Source) fetchScored(ctx context.Context, page []scored) ([]finder.Candidate[location.Location], error) {
	if len(page) == 0 {
		return nil, nil
	}
	ids := make([]string, len(page))
	for i, c := range page {
		ids[i] = c.id
	}
	rows, err := s.pool.Query(ctx, `SELECT id, doc FROM `+tableLocations+` WHERE id = ANY($1::text[])`, ids)
	if err != nil {
		return nil, fmt.Errorf("postgis ranked: %w", err)
	}
	defer rows.Close()
	docs := make(map[string][]byte, len(ids))
	for rows.Next() {
		var id string
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, fmt.Errorf("postgis ranked: %w", err)
		}
		docs[id] = doc
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgis ranked: %w", err)
	}
	out := make([]finder.Candidate[location.Location], 0, len(page))
	for _, c := range page {
		doc, ok := docs[c.id]
		if !ok {
			return nil, fmt.Errorf("postgis ranked: location %q vanished while ranking", c.id)
		}
		cand, err := candidate(c.id, doc)
		if err != nil {
			return nil, err
		}
		cand.Score = float64(c.half) / 2
		out = append(out, cand)
	}
	return out, nil
}

// zeroRest returns up to need admitted Locations that score 0, in id order
// after from, reading the admitted rows in id order and skipping those the
// query scores (which the ranked phase returned).
func (s *Source) zeroRest(ctx context.Context, h finder.Hints, q textrank.Query, from string, need int) ([]finder.Candidate[location.Location], error) {
	var out []finder.Candidate[location.Location]
	chunk := max(need, 32)
	for need > 0 {
		hb := h
		hb.Order, hb.Limit, hb.After = finder.ByID, chunk, nil
		if from != "" {
			hb.After = &finder.Position{ID: from}
		}
		sql, args := s.byIDStatement(hb, []string{"id", "doc", "text_name", "text_address", "text_amenities"}, "")
		rows, err := s.pool.Query(ctx, sql, args...)
		if err != nil {
			return nil, fmt.Errorf("postgis ranked: %w", err)
		}
		n := 0
		for rows.Next() {
			var r textRow
			var doc []byte
			if err := rows.Scan(&r.id, &doc, &r.name, &r.address, &r.amenities); err != nil {
				rows.Close()
				return nil, fmt.Errorf("postgis ranked: %w", err)
			}
			n++
			from = r.id
			if need == 0 || (!q.Empty() && halfScore(q, r.name, r.address, r.amenities) > 0) {
				continue
			}
			c, err := candidate(r.id, doc)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, c)
			need--
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("postgis ranked: %w", err)
		}
		if n < chunk {
			break
		}
		chunk = min(chunk*2, maxChunk)
	}
	return out, nil
}
