package finder

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Cost of one request, in source calls (the bound the counting-source test
// proves):
//
//   - Search with page size L and first batch size B: the engine reads
//     candidates in batches until it holds L+1 matches or the source runs
//     dry. Each batch after the first is twice the previous one (up to
//     MaxBatchGrowth times B), so a selective query over a superset source
//     costs a logarithmic number of calls, not one per B rows. When R
//     candidates are read up to the (L+1)-th match, a page costs at most
//     ceil(R/B)+1 Candidates calls (the +1 is the call that finds the source
//     exhausted), and fewer with the growth; with exact pushdown (every
//     candidate matches) R <= L+1, so a page costs at most ceil((L+1)/B)+1
//     Candidates calls. Serves and Items are called at most once per batch,
//     and only for candidates that passed every other predicate.
//     Counter.Count is called at most once per page.
//   - Lookup of K identifiers: one Resolve call, at most one Serves call and
//     at most one Items call, whatever K is.
//
// total_count policy: a page carries total_count only when it is exact and
// cheap: the source declared Capabilities.Counts (one Count call per page),
// or the first page holds every match (the source ran dry before a next
// page was found; with a next page, whether the source happened to run dry
// in the same batch depends on how tight its prefilter is, and answers must
// not depend on that). Otherwise it is omitted, which the pagination schema allows; the engine
// never evaluates or sorts the whole result set to answer one page.

// MaxBatchGrowth bounds how far batches grow within one page, relative to
// the first batch, so one page never asks a source for an unbounded batch.
const MaxBatchGrowth = 64

// DefaultMinBatch is the smallest number of candidates the engine asks for
// per Candidates call when Options.Batch is zero, so a superset source (a
// bounding box, a text index) is not called once per few rows.
const DefaultMinBatch = 32

// Binding is what the generated package tells the engine about its Location
// type: how to read its id and how to present it to the predicate engine.
type Binding[L any] struct {
	// ID returns the canonical Location id, the keyset's tie-breaker.
	ID func(*L) string
	// Candidate presents a Location to the predicate engine; the engine sets
	// Value to the *L so extension filters can reach the whole Location.
	Candidate func(*L) predicate.Candidate
}

// Options are a Business's limits; the zero value is the recommended
// configuration with a per-process cursor key.
type Options struct {
	// Pages is the page-size policy of Search.
	Pages pagination.Options
	// Lookup is the batch policy of Lookup.
	Lookup lookup.Options
	// Signer signs cursors; nil means a fresh per-process key, so cursors do
	// not survive a restart or reach another replica.
	Signer *pagination.Signer
	// Batch is the number of candidates asked in a page's first Candidates
	// call (later calls double it, see MaxBatchGrowth); 0 means the page size
	// plus one, but at least DefaultMinBatch.
	Batch int
}

// Engine answers Search and Lookup over one Source; it is safe for
// concurrent use when the source is.
type Engine[L any] struct {
	src       Source[L]
	bind      Binding[L]
	caps      Capabilities
	counter   Counter
	pred      predicate.Engine
	opts      Options
	signer    *pagination.Signer
	serves    map[string]bool
	countries map[string]bool
}

// New checks the source's capabilities and the options once, so that a
// misconfigured Business fails at start-up rather than on a request.
func New[L any](src Source[L], bind Binding[L], opts Options) (*Engine[L], error) {
	if src == nil {
		return nil, errors.New("finder: source is nil")
	}
	if bind.ID == nil || bind.Candidate == nil {
		return nil, errors.New("finder: binding needs ID and Candidate functions")
	}
	if err := opts.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("finder: page size: %w", err)
	}
	if err := opts.Lookup.Validate(); err != nil {
		return nil, fmt.Errorf("finder: batch maximum: %w", err)
	}
	if opts.Batch < 0 {
		return nil, fmt.Errorf("finder: Batch is %d: must be 0 (automatic) or positive", opts.Batch)
	}
	caps := src.Capabilities()
	e := &Engine[L]{src: src, bind: bind, caps: caps, opts: opts, signer: opts.Signer,
		serves: map[string]bool{}, countries: map[string]bool{}}
	var extKeys []string
	for _, k := range caps.Serves {
		switch {
		case k == "point" || k == "address":
		case reverseDomain(k):
			extKeys = append(extKeys, k)
		default:
			return nil, fmt.Errorf("finder: capabilities: serves key %q is neither point, address nor a reverse-domain extension key", k)
		}
		e.serves[k] = true
	}
	for _, c := range caps.Countries {
		if !country.IsAlpha2(c) {
			return nil, fmt.Errorf("finder: capabilities: country %q is not an upper-case ISO 3166-1 alpha-2 code", c)
		}
		e.countries[c] = true
	}
	if m := caps.MaxDistance; math.IsNaN(m) || math.IsInf(m, 0) || m < 0 {
		return nil, fmt.Errorf("finder: capabilities: MaxDistance %v must be a finite number of meters >= 0", m)
	}
	for k, f := range caps.Filters {
		if f == nil {
			return nil, fmt.Errorf("finder: capabilities: filter %q has no evaluator", k)
		}
	}
	if len(caps.Ranking) > MaxRankingLen {
		return nil, fmt.Errorf("finder: capabilities: Ranking %q is %d bytes: at most %d", caps.Ranking, len(caps.Ranking), MaxRankingLen)
	}
	if caps.Counts {
		c, ok := src.(Counter)
		if !ok {
			return nil, errors.New("finder: capabilities: Counts is set but the source does not implement Counter")
		}
		e.counter = c
	}
	e.pred = predicate.Engine{
		Hooks:            sourceHooks[L]{src: src},
		MaxDistance:      caps.MaxDistance,
		ServesKeys:       extKeys,
		Evaluates:        append([]string{}, caps.Serves...),
		ExtensionFilters: caps.Filters,
	}
	if e.signer == nil {
		s, err := pagination.NewProcessSigner()
		if err != nil {
			return nil, fmt.Errorf("finder: %w", err)
		}
		e.signer = s
	}
	return e, nil
}

// reverseDomain is a cheap shape check for configured extension keys; the
// request side is checked by the schema's own pattern.
func reverseDomain(k string) bool {
	return strings.Contains(k, ".") && k == strings.ToLower(k) && !strings.ContainsAny(k, " /")
}

// sourceHooks lets predicate.Engine accept serves requests; the engine
// evaluates serves and items in batches itself and never calls these.
type sourceHooks[L any] struct{ src Source[L] }

func (sourceHooks[L]) Serves(context.Context, *predicate.Candidate, predicate.Target) (bool, error) {
	return false, errors.New("finder: serves is evaluated per batch, not per candidate")
}

func (sourceHooks[L]) ItemsAvailable(context.Context, *predicate.Candidate, []string) (bool, error) {
	return false, errors.New("finder: items are evaluated per batch, not per candidate")
}

// prepare validates q against the predicate rules and the source's
// capabilities, before any candidate is read. It returns the query the
// source sees: serves.address.address_country in alpha-2 form.
func (e *Engine[L]) prepare(q predicate.Query) (*predicate.Prepared, predicate.Query, error) {
	if t := q.Serves; t != nil && t.Key != "" {
		ptr := "/serves/" + rpcerr.EscapeToken(t.Key)
		if !e.serves[t.Key] && (t.Key == "point" || t.Key == "address") {
			return nil, q, rpcerr.Invalid(ptr, "unsupported", "this Business does not evaluate serves.%s; it evaluates %s", t.Key, e.servesList())
		}
		if t.Key == "address" && t.Address != nil {
			nt := *t
			a := *t.Address
			nt.Address = &a
			if err := e.checkAddress(&a); err != nil {
				return nil, q, err
			}
			q.Serves = &nt
		}
	}
	p, err := e.pred.Prepare(q)
	if err != nil {
		return nil, q, err
	}
	return p, q, nil
}

func (e *Engine[L]) servesList() string {
	if len(e.caps.Serves) == 0 {
		return "no serves target"
	}
	return strings.Join(e.caps.Serves, ", ")
}

// checkAddress normalises address_country to alpha-2 and rejects what the
// source cannot evaluate, so the answer never depends on which candidates
// happen to be read.
func (e *Engine[L]) checkAddress(a *predicate.Locality) error {
	const ptr = "/serves/address"
	if a.Country != "" {
		c, ok := country.Normalize(a.Country)
		if !ok {
			return rpcerr.Invalid(ptr+"/address_country", "format", "%q is not an ISO 3166-1 country; send an alpha-2 code such as \"US\" (alpha-3 codes and English country names are accepted too)", a.Country)
		}
		if !e.countries[c] {
			return rpcerr.Invalid(ptr, "unevaluable", "this Business cannot evaluate the serves target: addresses in country %s are not modelled by this Business", c)
		}
		a.Country = c
		return nil
	}
	if a.PostalCode != "" {
		return rpcerr.Invalid(ptr, "unevaluable", "this Business cannot evaluate the serves target: postal code %q without address_country names no postal system", a.PostalCode)
	}
	if a.Region != "" {
		// Region codes repeat across countries (WA is a US state and an
		// Australian one), so a region alone cannot be evaluated; refusing
		// it beats answering an empty page for stores that do serve it.
		return rpcerr.Invalid(ptr, "unevaluable", "this Business cannot evaluate the serves target: address_region %q without address_country names no country (region codes repeat across countries); add address_country, %s", a.Region, e.countryHint())
	}
	return nil
}

// countryHint names the countries a region-only address could add.
func (e *Engine[L]) countryHint() string {
	if len(e.caps.Countries) == 0 {
		return "although this Business models no country's addresses; use another serves target"
	}
	return "one of " + strings.Join(slices.Sorted(slices.Values(e.caps.Countries)), ", ")
}

// SearchRequest is one search page to answer.
type SearchRequest struct {
	// Query is the structured constraints (distance, serves, filters).
	Query predicate.Query
	// Text is the free-text query; non-empty orders by relevance.
	Text string
	// Cursor and Limit are the request's pagination members (nil: absent).
	Cursor *string
	Limit  *int
	// Digest binds cursors to every constraint member of the request, from
	// the generated request digest; a cursor from another request is refused.
	Digest [32]byte
}

// Page is one answered search page.
type Page[L any] struct {
	Locations []*L
	// Encoded holds, for each of Locations, the encoding its source made
	// (Candidate.Encoded), or nil.
	Encoded     []*jsonenc.Encoded
	HasNextPage bool
	// Cursor resumes after the last Location; set exactly when HasNextPage.
	Cursor string
	// TotalCount is set only when exact and cheap (see the package doc).
	TotalCount *int
	// Limit is the page size applied.
	Limit int
}

// Search answers one page: prepare the constraints, pull candidates in
// keyset order, match each exactly, ask the source for serves and items once
// per batch, and stop at limit+1 matches. Errors carrying a request
// rejection are *rpcerr.InvalidParams with pointers relative to the request.
func (e *Engine[L]) Search(ctx context.Context, req SearchRequest) (Page[L], error) {
	var zero Page[L]
	if err := checkText(req.Text); err != nil {
		return zero, err
	}
	p, q, err := e.prepare(req.Query)
	if err != nil {
		return zero, err
	}
	limit, err := e.opts.Pages.Limit(req.Limit)
	if err != nil {
		return zero, err
	}
	order := ByID
	if strings.TrimSpace(req.Text) != "" {
		order = ByRelevance
	}
	var after *Position
	if req.Cursor != nil {
		key, err := e.signer.Verify(*req.Cursor, req.Digest)
		if err != nil {
			return zero, err
		}
		pos, err := decodePosition(order, e.caps.Ranking, key)
		if errors.Is(err, errOtherRanking) {
			return zero, rpcerr.Invalid(pagination.CursorPointer, "cursor", pagination.MsgCursorOtherRanking)
		}
		if err != nil {
			// Authentic but unreadable: only a key rotation across versions
			// could cause it; the client restarts like for any bad cursor.
			return zero, rpcerr.Invalid(pagination.CursorPointer, "cursor", pagination.MsgInvalidCursor)
		}
		after = &pos
	}
	first := e.opts.Batch
	if first == 0 {
		first = max(limit+1, DefaultMinBatch)
	}
	batch := first

	need := limit + 1
	matched := make([]Candidate[L], 0, need)
	exhausted := false
	for len(matched) < need {
		if err := ctx.Err(); err != nil {
			return zero, fmt.Errorf("finder: search: %w", err)
		}
		h := Hints{Distance: q.Distance, Text: req.Text, Order: order, After: after, Limit: batch, Query: q}
		cands, err := e.src.Candidates(ctx, h)
		if err != nil {
			return zero, fmt.Errorf("finder: candidates: %w", err)
		}
		if len(cands) > batch {
			return zero, fmt.Errorf("finder: candidates: source returned %d candidates, asked for at most %d", len(cands), batch)
		}
		if err := e.checkOrder(order, after, cands); err != nil {
			return zero, err
		}
		ok, err := e.match(ctx, p, cands, need-len(matched))
		if err != nil {
			return zero, err
		}
		// Matches past need decide nothing (need already tells whether a
		// next page exists), so they are neither kept nor, where no
		// batch-wide predicate follows, looked for.
		for i, c := range cands {
			if ok[i] && len(matched) < need {
				matched = append(matched, c)
			}
		}
		if len(cands) < batch {
			exhausted = true
			break
		}
		last := cands[len(cands)-1]
		after = &Position{Score: last.Score, ID: e.bind.ID(last.Location)}
		batch = min(batch*2, first*MaxBatchGrowth)
	}

	page := Page[L]{Limit: limit}
	n := min(len(matched), limit)
	page.Locations = make([]*L, n)
	page.Encoded = make([]*jsonenc.Encoded, n)
	for i := range n {
		page.Locations[i] = matched[i].Location
		page.Encoded[i] = matched[i].Encoded
	}
	if len(matched) > limit {
		page.HasNextPage = true
		last := matched[limit-1]
		c, err := e.signer.Sign(encodePosition(order, e.caps.Ranking, Position{Score: last.Score, ID: e.bind.ID(last.Location)}), req.Digest)
		if err != nil {
			return zero, fmt.Errorf("finder: next cursor: %w", err)
		}
		page.Cursor = c
	}
	switch {
	case e.counter != nil:
		total, err := e.counter.Count(ctx, q)
		if err != nil {
			return zero, fmt.Errorf("finder: count: %w", err)
		}
		if total < 0 {
			return zero, fmt.Errorf("finder: count returned %d: must not be negative", total)
		}
		page.TotalCount = &total
	case exhausted && req.Cursor == nil && !page.HasNextPage:
		total := len(matched)
		page.TotalCount = &total
	}
	return page, nil
}

// match evaluates one batch: local predicates per candidate, then serves and
// items in one source call each for the survivors. When neither follows,
// candidates after the want-th match are left unevaluated (reported as no
// match): a search needs only its first want, and the unevaluated ones are
// where the next page's cursor starts anyway.
func (e *Engine[L]) match(ctx context.Context, p *predicate.Prepared, cands []Candidate[L], want int) ([]bool, error) {
	ok := make([]bool, len(cands))
	localOnly := p.Serves() == nil && !p.HasItems()
	// The matches' positions, with room for the most there can be: a
	// page's worth when nothing batch-wide follows, else the whole batch.
	room := len(cands)
	if localOnly {
		room = min(max(want, 0), room)
	}
	idx := make([]int, 0, room)
	// The views the engine makes, one allocation for the batch; each
	// candidate still has a view of its own.
	var views []predicate.Candidate
	for i, c := range cands {
		if localOnly && len(idx) >= want {
			break
		}
		var pc *predicate.Candidate
		if c.Predicate != nil && c.Predicate.Value == any(c.Location) {
			// The source's view already carries the Location: used as it
			// is, since the engine never modifies it.
			pc = c.Predicate
		} else {
			if views == nil {
				views = make([]predicate.Candidate, len(cands))
			}
			pc = &views[i]
			if c.Predicate != nil {
				*pc = *c.Predicate
			} else {
				*pc = e.bind.Candidate(c.Location)
			}
			pc.Value = c.Location
		}
		if c.Predicate != nil {
			if id := e.bind.ID(c.Location); pc.ID != id {
				return nil, fmt.Errorf("finder: candidate %q carries the predicate view of %q", id, pc.ID)
			}
		}
		m, err := p.MatchLocal(ctx, pc)
		if err != nil {
			return nil, err
		}
		if m {
			idx = append(idx, i)
		}
	}
	pick := func() []Candidate[L] {
		out := make([]Candidate[L], len(idx))
		for j, i := range idx {
			out[j] = cands[i]
		}
		return out
	}
	if t := p.Serves(); t != nil && len(idx) > 0 {
		got, err := e.src.Serves(ctx, *t, pick())
		if err != nil {
			return nil, p.ServesError("", err)
		}
		if len(got) != len(idx) {
			return nil, fmt.Errorf("finder: serves returned %d answers for %d candidates", len(got), len(idx))
		}
		idx = keep(idx, got)
	}
	if p.HasItems() && len(idx) > 0 {
		got, err := e.src.Items(ctx, p.Items(), pick())
		if err != nil {
			if _, err := p.ItemsOutcome("", err); err != nil {
				return nil, err
			}
			got = make([]bool, len(idx)) // cannot tell: no match
		}
		if len(got) != len(idx) {
			return nil, fmt.Errorf("finder: items returned %d answers for %d candidates", len(got), len(idx))
		}
		idx = keep(idx, got)
	}
	for _, i := range idx {
		ok[i] = true
	}
	return ok, nil
}

func keep(idx []int, ok []bool) []int {
	out := idx[:0]
	for j, i := range idx {
		if ok[j] {
			out = append(out, i)
		}
	}
	return out
}

// checkOrder refuses a batch that breaks the keyset contract (out of order,
// not after the position, a nil Location or an unusable score), because a
// cursor built on it would repeat or skip Locations.
func (e *Engine[L]) checkOrder(order Order, after *Position, cands []Candidate[L]) error {
	// The previous position is kept by value: a pointer to each
	// candidate's position would move every one of them to the heap.
	var prev Position
	hasPrev := after != nil
	if hasPrev {
		prev = *after
	}
	for i := range cands {
		c := &cands[i]
		if c.Location == nil {
			return fmt.Errorf("finder: candidates: candidate %d has no Location", i)
		}
		if order == ByRelevance && (math.IsNaN(c.Score) || math.IsInf(c.Score, 0)) {
			return fmt.Errorf("finder: candidates: candidate %q has score %v", e.bind.ID(c.Location), c.Score)
		}
		pos := Position{Score: c.Score, ID: e.bind.ID(c.Location)}
		if pos.ID == "" {
			return fmt.Errorf("finder: candidates: candidate %d has an empty id", i)
		}
		if hasPrev && Compare(order, prev, pos) >= 0 {
			return fmt.Errorf("finder: candidates: %q is not after %q in the requested order", pos.ID, prev.ID)
		}
		prev, hasPrev = pos, true
	}
	return nil
}

// Compare orders two positions in the keyset order o: negative when a comes
// first. Sources can use it to stay consistent with the engine.
func Compare(o Order, a, b Position) int {
	if o == ByRelevance && a.Score != b.Score {
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	return strings.Compare(a.ID, b.ID)
}

// encodePosition is the cursor's sort key: the id under ByID; under
// ByRelevance the ranking's name (length-prefixed), the score's IEEE bits
// in hex, then the id, so a cursor read under another ranking is known.
func encodePosition(o Order, ranking string, p Position) string {
	if o == ByRelevance {
		return string([]byte{byte(len(ranking))}) + ranking + fmt.Sprintf("%016x", math.Float64bits(p.Score)) + p.ID
	}
	return p.ID
}

// errOtherRanking is a relevance sort key minted under another ranking.
var errOtherRanking = errors.New("relevance sort key is from another ranking")

func decodePosition(o Order, ranking, key string) (Position, error) {
	if o != ByRelevance {
		return Position{ID: key}, nil
	}
	if key == "" || int(key[0]) > MaxRankingLen || len(key) < 1+int(key[0]) {
		return Position{}, fmt.Errorf("relevance sort key %q has no ranking", key)
	}
	n := int(key[0])
	if key[1:1+n] != ranking {
		return Position{}, fmt.Errorf("%w: %q, not %q", errOtherRanking, key[1:1+n], ranking)
	}
	key = key[1+n:]
	if len(key) < 16 {
		return Position{}, fmt.Errorf("relevance sort key %q is too short", key)
	}
	bits, err := strconv.ParseUint(key[:16], 16, 64)
	if err != nil {
		return Position{}, fmt.Errorf("relevance sort key %q: %w", key, err)
	}
	s := math.Float64frombits(bits)
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return Position{}, fmt.Errorf("relevance sort key %q holds score %v", key, s)
	}
	return Position{Score: s, ID: key[16:]}, nil
}

// LookupRequest is one lookup to answer.
type LookupRequest struct {
	// IDs are the identifiers as supplied (duplicates allowed).
	IDs []string
	// Query is the refinement (distance, serves, filters).
	Query predicate.Query
}

// Lookup resolves every processed identifier in one Resolve call, merges the
// Locations they reach, refines them (serves and items in one call each) and
// builds the info messages.
func (e *Engine[L]) Lookup(ctx context.Context, req LookupRequest) (lookup.Result[*L], error) {
	var zero lookup.Result[*L]
	p, _, err := e.prepare(req.Query)
	if err != nil {
		return zero, err
	}
	resolve := func(ctx context.Context, keys []string) (map[string][]Candidate[L], error) {
		return e.src.Resolve(ctx, keys)
	}
	key := func(c Candidate[L]) string {
		if c.Location == nil {
			return ""
		}
		return e.bind.ID(c.Location)
	}
	refine := func(ctx context.Context, cands []Candidate[L]) ([]bool, error) {
		return e.match(ctx, p, cands, len(cands))
	}
	res, err := lookup.ResolveAll(ctx, req.IDs, e.opts.Lookup, resolve, key, refine)
	if err != nil {
		return zero, err
	}
	out := lookup.Result[*L]{Messages: res.Messages, Processed: res.Processed, Unprocessed: res.Unprocessed}
	out.Entries = make([]lookup.Entry[*L], len(res.Entries))
	for i, en := range res.Entries {
		out.Entries[i] = lookup.Entry[*L]{Location: en.Location.Location, Inputs: en.Inputs}
	}
	return out, nil
}

// Capabilities reports the source's capabilities as the engine read them at
// New, for a binding that advertises them.
func (e *Engine[L]) Capabilities() Capabilities {
	c := e.caps
	c.Serves = slices.Clone(c.Serves)
	c.Countries = slices.Clone(c.Countries)
	return c
}
