// Package store is the store finder's Business logic: it answers UCP Location
// Search and Lookup requests over a fixed set of dataset records, using the
// spatial index to narrow distance queries, the predicate engine for the exact
// AND of every constraint, textrank to order free-text queries, and the
// runtime lookup and pagination packages for the protocol's bookkeeping.
//
// Private records (dark stores, hubs) are validated like the others but never
// enter any index, so no request path can return them.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	_ "time/tzdata" // Location timezones are IANA names evaluated on any host

	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/examples/storefinder/spatial"
	"github.com/ucpgen/ucpgen/examples/storefinder/textrank"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Version is the UCP version the store's responses are written for; the MCP
// layer owns the rest of the response's ucp object.
const Version = "2026-08-25"

// Options configures the store's limits; the zero value uses the runtime
// packages' recommended defaults.
type Options struct {
	// BatchMax is the number of distinct Lookup ids processed per request
	// (0: lookup.DefaultBatchMax).
	BatchMax int
	// PageMax is the largest Search page served (0: pagination.DefaultMaxLimit).
	PageMax int
	// MaxDistance caps distance.max in meters; a larger request is rejected,
	// never clamped (0: no cap).
	MaxDistance float64
	// Signer signs pagination cursors; nil means a fresh per-process key, so
	// cursors do not survive a restart.
	Signer *pagination.Signer
}

// Store answers Search and Lookup over an immutable set of public records;
// it is safe for concurrent use.
type Store struct {
	public    []*entry          // public records, sorted by id
	byKey     map[string]*entry // canonical ids and aliases of public records
	spatial   *spatial.Index    // over withGeo
	withGeo   []*entry          // public records with a usable geo
	countries map[string]bool   // countries any record models (upper case)
	engine    predicate.Engine
	lookup    lookup.Options
	page      pagination.Options
	signer    *pagination.Signer
}

// entry is one record decoded once at load time.
type entry struct {
	rec  dataset.Record
	loc  location.Location
	cand predicate.Candidate
	doc  textrank.Doc
}

// New decodes every record's Location into the generated type and builds
// the indexes. An invalid record is a *dataset.FieldError naming its index
// and the JSON Pointer of the offending value.
func New(records []dataset.Record, opts Options) (*Store, error) {
	s := &Store{
		byKey:     map[string]*entry{},
		countries: map[string]bool{},
		lookup:    lookup.Options{BatchMax: opts.BatchMax},
		page:      pagination.Options{MaxLimit: opts.PageMax},
		signer:    opts.Signer,
	}
	if err := s.lookup.Validate(); err != nil {
		return nil, fmt.Errorf("batch maximum: %w", err)
	}
	if err := s.page.Validate(); err != nil {
		return nil, fmt.Errorf("page maximum: %w", err)
	}
	if s.signer == nil {
		sg, err := pagination.NewProcessSigner()
		if err != nil {
			return nil, fmt.Errorf("cursor signer: %w", err)
		}
		s.signer = sg
	}
	s.engine = predicate.Engine{Hooks: hooks{s}, MaxDistance: opts.MaxDistance}

	seen := map[string]int{}
	var points []spatial.Point
	for i, rec := range records {
		e, err := decode(i, rec)
		if err != nil {
			return nil, err
		}
		for j, k := range append([]string{e.loc.ID}, rec.Aliases...) {
			if prev, dup := seen[k]; dup {
				ptr := "/location/id"
				if j > 0 {
					ptr = "/aliases/" + strconv.Itoa(j-1)
				}
				return nil, fieldErr(i, ptr, "identifier %q is already used by record %d", k, prev)
			}
			seen[k] = i
		}
		if rec.ServiceArea != nil {
			for _, c := range rec.ServiceArea.Countries {
				s.countries[strings.ToUpper(c)] = true
			}
		}
		if rec.Private {
			continue
		}
		s.public = append(s.public, e)
		s.byKey[e.loc.ID] = e
		for _, a := range rec.Aliases {
			s.byKey[a] = e
		}
		if g := e.cand.Geo; g != nil {
			s.withGeo = append(s.withGeo, e)
			points = append(points, spatial.Point{Lat: g.Lat, Lon: g.Lon})
		}
	}
	slices.SortFunc(s.public, func(a, b *entry) int { return strings.Compare(a.loc.ID, b.loc.ID) })
	ix, err := spatial.New(points)
	if err != nil {
		return nil, fmt.Errorf("spatial index: %w", err)
	}
	s.spatial = ix
	return s, nil
}

func fieldErr(i int, rel, format string, args ...any) *dataset.FieldError {
	return &dataset.FieldError{Index: i, Pointer: "/" + strconv.Itoa(i) + rel, Reason: fmt.Sprintf(format, args...)}
}

// validator is the generated Validate method; it is asserted dynamically so
// the store also builds against a generated package without validators.
type validator interface{ Validate() error }

// decode turns one record into an entry, rejecting Locations the store
// cannot serve faithfully.
func decode(i int, rec dataset.Record) (*entry, error) {
	e := &entry{rec: rec}
	if err := json.Unmarshal(rec.Location, &e.loc); err != nil {
		return nil, fieldErr(i, "/location", "not a valid UCP Location: %v", err)
	}
	if v, ok := any(&e.loc).(validator); ok {
		if err := v.Validate(); err != nil {
			if ip, ok := rpcerr.AsInvalidParams(err); ok && len(ip.Violations) > 0 {
				first := ip.Violations[0]
				return nil, fieldErr(i, "/location"+first.Pointer, "not a valid UCP Location: %s", first.Message)
			}
			return nil, fieldErr(i, "/location", "not a valid UCP Location: %v", err)
		}
	}
	if e.loc.ID == "" {
		return nil, fieldErr(i, "/location/id", "must not be empty")
	}
	if rec.ID != "" && rec.ID != e.loc.ID {
		return nil, fieldErr(i, "/location/id", "record id %q differs from the Location id %q", rec.ID, e.loc.ID)
	}
	if e.loc.Name == "" {
		return nil, fieldErr(i, "/location/name", "must not be empty")
	}
	if g, ok := e.loc.Geo.Get(); ok {
		if !(g.Latitude >= -90 && g.Latitude <= 90) {
			return nil, fieldErr(i, "/location/geo/latitude", "must be within -90..90 degrees, got %v", g.Latitude)
		}
		if !(g.Longitude >= -180 && g.Longitude <= 180) {
			return nil, fieldErr(i, "/location/geo/longitude", "must be within -180..180 degrees, got %v", g.Longitude)
		}
	}
	if (e.loc.Hours.Set || e.loc.ExceptionHours.Set) && e.loc.Timezone.V == "" {
		return nil, fieldErr(i, "/location/timezone", "required when hours or exception_hours are present")
	}
	if sa := rec.ServiceArea; sa != nil && sa.RadiusM != nil {
		if r := *sa.RadiusM; math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
			return nil, fieldErr(i, "/service_area/radius_m", "must be a finite number of meters >= 0, got %v", r)
		}
		if !e.loc.Geo.Set {
			return nil, fieldErr(i, "/service_area/radius_m", "needs the Location's geo to measure from")
		}
	}
	e.cand = e.loc.PredicateCandidate()
	e.cand.Value = e
	e.doc = textrank.NewDoc(textFields(&e.loc))
	return e, nil
}

// textFields is the searchable text of a Location for ranking.
func textFields(l *location.Location) textrank.Fields {
	var f textrank.Fields
	f.Name = l.Name
	if a, ok := l.Address.Get(); ok {
		for _, v := range []opt.Value[string]{a.StreetAddress, a.AddressLocality, a.AddressRegion, a.PostalCode, a.AddressCountry} {
			if v.Set {
				f.Address = append(f.Address, v.V)
			}
		}
	}
	if am, ok := l.Amenities.Get(); ok {
		keys := make([]string, 0, len(am))
		for k := range am {
			keys = append(keys, string(k))
		}
		slices.Sort(keys)
		for _, k := range keys {
			f.Amenities = append(f.Amenities, am[location.AmenityType(k)].Description)
		}
	}
	return f
}

// prepare converts and validates a request's constraints once.
func (s *Store) prepare(q predicate.Query) (*predicate.Prepared, error) {
	p, err := s.engine.Prepare(q)
	if err != nil {
		return nil, err
	}
	// A postal code is only meaningful inside a postal system the Business
	// models; decide that for the request as a whole, so the answer does not
	// depend on which candidates happen to be examined.
	if t := q.Serves; t != nil && t.Key == "address" {
		if err := s.checkPostalSystem(t.Address); err != nil {
			return nil, servesUnevaluable(err)
		}
	}
	return p, nil
}

func (s *Store) checkPostalSystem(a *predicate.Locality) error {
	if a == nil || a.PostalCode == "" {
		return nil
	}
	if a.Country == "" {
		return fmt.Errorf("%w: postal code %q without address_country names no postal system", predicate.ErrUnevaluable, a.PostalCode)
	}
	if !s.countries[strings.ToUpper(a.Country)] {
		return fmt.Errorf("%w: postal codes of country %q are not modelled by this Business", predicate.ErrUnevaluable, a.Country)
	}
	return nil
}

// servesUnevaluable rejects an address target the Business cannot
// evaluate, at the same pointer and keyword the engine uses for its hooks.
func servesUnevaluable(err error) error {
	return rpcerr.Invalid("/location/serves/address", "unevaluable", "this Business cannot evaluate the serves target: %v", err)
}

// hooks are the store's authoritative serves and items answers.
type hooks struct{ s *Store }

// Serves implements the dataset's rules: a point is served within the
// store's radius_m by geodesic distance; an address is served when every
// non-empty member is in the corresponding service_area list.
func (h hooks) Serves(_ context.Context, c *predicate.Candidate, t predicate.Target) (bool, error) {
	e, ok := c.Value.(*entry)
	if !ok {
		return false, fmt.Errorf("serves: candidate %q is not a store entry", c.ID)
	}
	sa := e.rec.ServiceArea
	switch t.Key {
	case "point":
		if sa == nil || sa.RadiusM == nil || c.Geo == nil || t.Point == nil {
			return false, nil
		}
		return geodesic.Within(*c.Geo, *t.Point, *sa.RadiusM), nil
	case "address":
		if err := h.s.checkPostalSystem(t.Address); err != nil {
			return false, err
		}
		if sa == nil || t.Address == nil {
			return false, nil
		}
		a := t.Address
		return inList(sa.Countries, a.Country, strings.EqualFold) &&
			inList(sa.Regions, a.Region, strings.EqualFold) &&
			inList(sa.PostalCodes, a.PostalCode, func(x, y string) bool { return x == y }), nil
	}
	return false, fmt.Errorf("%w: serves target %q", predicate.ErrUnevaluable, t.Key)
}

// inList is true for an empty (absent) want, else when list holds it.
func inList(list []string, want string, eq func(string, string) bool) bool {
	if want == "" {
		return true
	}
	return slices.ContainsFunc(list, func(x string) bool { return eq(x, want) })
}

// ItemsAvailable is true when every requested item is in the record's items.
func (h hooks) ItemsAvailable(_ context.Context, c *predicate.Candidate, items []string) (bool, error) {
	e, ok := c.Value.(*entry)
	if !ok {
		return false, fmt.Errorf("items: candidate %q is not a store entry", c.ID)
	}
	for _, it := range items {
		if !slices.Contains(e.rec.Items, it) {
			return false, nil
		}
	}
	return true, nil
}

// candidates returns the entries a query can match: the spatial index's
// superset for a distance relation, every public entry otherwise.
func (s *Store) candidates(q predicate.Query) ([]*entry, error) {
	if q.Distance == nil {
		return s.public, nil
	}
	ids, err := s.spatial.Candidates(spatial.Point{Lat: q.Distance.Center.Lat, Lon: q.Distance.Center.Lon}, q.Distance.Max)
	if err != nil {
		return nil, fmt.Errorf("spatial candidates: %w", err)
	}
	out := make([]*entry, len(ids))
	for i, id := range ids {
		out[i] = s.withGeo[id]
	}
	return out, nil
}

// ranked is one match with its pagination sort key.
type ranked struct {
	e   *entry
	key string
}

// Search answers search_locations: the AND of every structured constraint,
// ordered by text relevance when query is given (by id otherwise), one page
// at a time.
func (s *Store) Search(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	resp, err := s.search(ctx, req)
	return resp, argPointers(err)
}

// argPointers makes the domain packages' request-relative pointers relative
// to the tool arguments.
func argPointers(err error) error {
	ip, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		return err
	}
	out := &rpcerr.InvalidParams{}
	for _, v := range ip.Violations {
		if !strings.HasPrefix(v.Pointer, "/location") {
			v.Pointer = "/location" + v.Pointer
		}
		out.Violations = append(out.Violations, v)
	}
	return out
}

func (s *Store) search(ctx context.Context, req *location.SearchRequest) (*location.SearchResponse, error) {
	if req == nil {
		return nil, errors.New("search: nil request")
	}
	q, err := req.PredicateQuery()
	if err != nil {
		return nil, err
	}
	p, err := s.prepare(q)
	if err != nil {
		return nil, err
	}
	digest, err := searchDigest(req)
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

	var matches []ranked
	source := func(ctx context.Context, after *string, n int) ([]ranked, error) {
		if matches == nil {
			m, err := s.match(ctx, p, q, req.Query.V)
			if err != nil {
				return nil, err
			}
			matches = m
		}
		start := 0
		if after != nil {
			start, _ = slices.BinarySearchFunc(matches, *after, func(r ranked, k string) int { return strings.Compare(r.key, k) })
			if start < len(matches) && matches[start].key == *after {
				start++
			}
		}
		end := min(start+n, len(matches))
		return matches[start:end], nil
	}
	count := func(context.Context) (int, bool, error) { return len(matches), true, nil }
	page, err := pagination.Fetch(ctx, s.signer, s.page, preq, digest, source, func(r ranked) string { return r.key }, count)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}

	resp := &location.SearchResponse{
		UCP:       location.UCPLocationResponseSchema{Version: Version},
		Locations: make([]location.Location, len(page.Items)),
	}
	for i, r := range page.Items {
		resp.Locations[i] = r.e.loc
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

// match evaluates every candidate and returns the matches sorted by key.
func (s *Store) match(ctx context.Context, p *predicate.Prepared, q predicate.Query, text string) ([]ranked, error) {
	cands, err := s.candidates(q)
	if err != nil {
		return nil, err
	}
	tq := textrank.NewQuery(text)
	out := []ranked{}
	for _, e := range cands {
		ok, err := p.Match(ctx, &e.cand)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		key := e.loc.ID
		if !tq.Empty() {
			key = rankKey(tq.Score(e.doc)) + key
		}
		out = append(out, ranked{e: e, key: key})
	}
	slices.SortFunc(out, func(a, b ranked) int { return strings.Compare(a.key, b.key) })
	return out, nil
}

// rankKey encodes a non-negative score so that higher scores sort first as
// strings: the complemented IEEE bits of a non-negative float order inversely
// to the value, in fixed-width hex.
func rankKey(score float64) string {
	if math.IsNaN(score) || score < 0 {
		score = 0
	}
	return fmt.Sprintf("%016x:", ^math.Float64bits(score))
}

// searchDigest binds cursors to the request's query and constraints, from
// their canonical JSON (absent members hash differently from empty ones).
func searchDigest(req *location.SearchRequest) ([32]byte, error) {
	var parts [][]byte
	add := func(name string, v any, set bool) error {
		if !set {
			parts = append(parts, nil)
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("search: encode %s for the cursor digest: %w", name, err)
		}
		parts = append(parts, b)
		return nil
	}
	for _, p := range []struct {
		name string
		v    any
		set  bool
	}{
		{"query", req.Query.V, req.Query.Set},
		{"distance", req.Distance.V, req.Distance.Set},
		{"serves", req.Serves.V, req.Serves.Set},
		{"filters", req.Filters.V, req.Filters.Set},
	} {
		if err := add(p.name, p.v, p.set); err != nil {
			return [32]byte{}, err
		}
	}
	return pagination.ConstraintDigest(parts...), nil
}

// Lookup answers lookup_locations: resolve ids and aliases (deduplicated,
// up to the batch maximum), refine by the same constraints as Search, and
// report each Location once with every id that reached it.
func (s *Store) Lookup(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	resp, err := s.lookupIDs(ctx, req)
	return resp, argPointers(err)
}

func (s *Store) lookupIDs(ctx context.Context, req *location.LookupRequest) (*location.LookupResponse, error) {
	if req == nil {
		return nil, errors.New("lookup: nil request")
	}
	q, err := req.PredicateQuery()
	if err != nil {
		return nil, err
	}
	p, err := s.prepare(q)
	if err != nil {
		return nil, err
	}
	resolve := func(_ context.Context, id string) ([]*entry, error) {
		if e, ok := s.byKey[id]; ok {
			return []*entry{e}, nil
		}
		return nil, nil
	}
	key := func(e *entry) string { return e.loc.ID }
	keep := func(ctx context.Context, e *entry) (bool, error) { return p.Match(ctx, &e.cand) }
	res, err := lookup.Resolve(ctx, req.IDs, s.lookup, resolve, key, keep)
	if err != nil {
		return nil, err
	}
	resp := &location.LookupResponse{
		UCP:       location.UCPLocationResponseSchema{Version: Version},
		Locations: make([]location.LookupLocation, 0, len(res.Entries)),
	}
	for _, en := range res.Entries {
		resp.Locations = append(resp.Locations, lookupLocation(&en.Location.loc, en.Inputs))
	}
	if len(res.Messages) > 0 {
		msgs := make([]location.Message, len(res.Messages))
		for i, m := range res.Messages {
			msgs[i] = location.Message{Info: &location.MessageInfo{
				Type:    m.Type,
				Code:    opt.Some(location.InfoCode(m.Code)),
				Content: m.Content,
			}}
		}
		resp.Messages = opt.Some(msgs)
	}
	return resp, nil
}

// lookupLocation is l with the request ids that resolved to it.
func lookupLocation(l *location.Location, inputs []string) location.LookupLocation {
	out := location.LookupLocation{
		ID:             l.ID,
		Name:           l.Name,
		Address:        l.Address,
		Geo:            l.Geo,
		Amenities:      l.Amenities,
		Hours:          l.Hours,
		ExceptionHours: l.ExceptionHours,
		Timezone:       l.Timezone,
		Unknown:        l.Unknown,
		Inputs:         make([]location.LookupLocationInput, len(inputs)),
	}
	for i, id := range inputs {
		out.Inputs[i] = location.LookupLocationInput{ID: id}
	}
	return out
}
