package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/sources/spatial"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// baseline is the store finder's search path before NewService, kept only as
// the benchmark's reference: every candidate is matched, the matches sorted
// by a string key, and pagination.Fetch slices one page out of them, with a
// hand-built constraint digest. It reads the same records as Source.
type baseline struct {
	s      *Source
	locs   []*location.Location // by doc number, decoded once
	cands  []predicate.Candidate
	docs   []textrank.Doc
	engine predicate.Engine
	page   pagination.Options
	signer *pagination.Signer
}

func newBaseline(s *Source) (*baseline, error) {
	sg, err := pagination.NewProcessSigner()
	if err != nil {
		return nil, err
	}
	b := &baseline{s: s, signer: sg}
	for i := range s.ents {
		l, err := location.DecodeLocation(s.ents[i].raw)
		if err != nil {
			return nil, err
		}
		b.locs = append(b.locs, l)
		b.cands = append(b.cands, l.PredicateCandidate())
		b.docs = append(b.docs, textrank.NewDoc(TextFields(l)))
	}
	b.engine = predicate.Engine{Hooks: baselineHooks{s}, MaxDistance: s.caps.MaxDistance}
	return b, nil
}

// baselineHooks answers serves and items one candidate at a time through
// the same rules as Source.
type baselineHooks struct{ s *Source }

func (h baselineHooks) Serves(ctx context.Context, c *predicate.Candidate, t predicate.Target) (bool, error) {
	e := &h.s.ents[c.Value.(int)]
	ok, err := h.s.Serves(ctx, t, []location.Candidate{{Ref: e}})
	if err != nil {
		return false, err
	}
	return ok[0], nil
}

func (h baselineHooks) ItemsAvailable(ctx context.Context, c *predicate.Candidate, items []string) (bool, error) {
	e := &h.s.ents[c.Value.(int)]
	ok, err := h.s.Items(ctx, items, []location.Candidate{{Ref: e}})
	if err != nil {
		return false, err
	}
	return ok[0], nil
}

type baselineRanked struct {
	doc int
	key string
}

func (b *baseline) Search(ctx context.Context, req *location.SearchRequest) (*location.SearchResponse, error) {
	q, err := req.PredicateQuery()
	if err != nil {
		return nil, err
	}
	p, err := b.engine.Prepare(q)
	if err != nil {
		return nil, err
	}
	digest, err := baselineDigest(req)
	if err != nil {
		return nil, err
	}
	var preq pagination.Request
	if pg, ok := req.Pagination.Get(); ok {
		preq.Cursor = pg.Cursor.Ptr()
		if l, ok := pg.Limit.Get(); ok {
			n := int(max(min(l, math.MaxInt32), math.MinInt32))
			preq.Limit = &n
		}
	}
	var matches []baselineRanked
	source := func(ctx context.Context, after *string, n int) ([]baselineRanked, error) {
		if matches == nil {
			m, err := b.match(ctx, p, q, req.Query.V)
			if err != nil {
				return nil, err
			}
			matches = m
		}
		start := 0
		if after != nil {
			start, _ = slices.BinarySearchFunc(matches, *after, func(r baselineRanked, k string) int { return strings.Compare(r.key, k) })
			if start < len(matches) && matches[start].key == *after {
				start++
			}
		}
		return matches[start:min(start+n, len(matches))], nil
	}
	count := func(context.Context) (int, bool, error) { return len(matches), true, nil }
	page, err := pagination.Fetch(ctx, b.signer, b.page, preq, digest, source, func(r baselineRanked) string { return r.key }, count)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	resp := &location.SearchResponse{
		UCP:       location.UCPLocationResponseSchema{Version: location.ProtocolVersion},
		Locations: make([]location.Location, len(page.Items)),
	}
	for i, r := range page.Items {
		resp.Locations[i] = *b.locs[r.doc]
	}
	pr := location.PaginationResponse{HasNextPage: page.HasNextPage}
	if page.Cursor != "" {
		pr.Cursor = opt.Some(page.Cursor)
	}
	if page.TotalCount != nil {
		pr.TotalCount = opt.Some(int64(*page.TotalCount))
	}
	resp.Pagination = opt.Some(pr)
	return resp, nil
}

func (b *baseline) match(ctx context.Context, p *predicate.Prepared, q predicate.Query, text string) ([]baselineRanked, error) {
	var docs []int
	if d := q.Distance; d != nil {
		ids, err := b.s.spatial.Candidates(spatial.Point{Lat: d.Center.Lat, Lon: d.Center.Lon}, d.Max)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			docs = append(docs, int(b.s.geoDoc[id]))
		}
	} else {
		for i := range b.s.ents {
			docs = append(docs, i)
		}
	}
	tq := textrank.NewQuery(text)
	out := []baselineRanked{}
	for _, i := range docs {
		c := b.cands[i] // built once at load, as the old store did
		c.Value = i
		ok, err := p.Match(ctx, &c)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		key := b.locs[i].ID
		if !tq.Empty() {
			key = fmt.Sprintf("%016x:", ^math.Float64bits(tq.Score(b.docs[i]))) + key
		}
		out = append(out, baselineRanked{doc: i, key: key})
	}
	slices.SortFunc(out, func(a, b baselineRanked) int { return strings.Compare(a.key, b.key) })
	return out, nil
}

func baselineDigest(req *location.SearchRequest) ([32]byte, error) {
	var parts [][]byte
	for _, p := range []struct {
		v   any
		set bool
	}{
		{req.Query.V, req.Query.Set},
		{req.Distance.V, req.Distance.Set},
		{req.Serves.V, req.Serves.Set},
		{req.Filters.V, req.Filters.Set},
	} {
		if !p.set {
			parts = append(parts, nil)
			continue
		}
		b, err := json.Marshal(p.v)
		if err != nil {
			return [32]byte{}, err
		}
		parts = append(parts, b)
	}
	return pagination.ConstraintDigest(parts...), nil
}
