// Package store is the store finder's data source: the only Business code
// behind its UCP Location Search and Lookup. It implements the generated
// location.Source over a fixed set of dataset records; the generated
// location.NewService runs the protocol (predicates, pagination, cursors,
// lookup bookkeeping, response shapes) on top of it.
//
// Its pushdown is what an in-memory Business can do cheaply: the spatial
// index narrows a distance relation to a superset, the amenity filter is
// applied exactly, and candidates come in keyset order, by id (a page reads
// the records up to its last match, from a binary-searched start) or, for a
// free-text query, by textrank score then id (every candidate is scored once
// per text, circle and amenity set, and the ranking is cached for the next
// batches and pages).
//
// Every record is validated at load with the generated Location decoder plus
// the schedule and IANA zone rules, so a server never starts on broken data.
// Private records (dark stores, hubs) are validated like the others but never
// enter any index, and contribute nothing to the capabilities, so no request
// path can return them or tell that they exist.
package store

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	_ "time/tzdata" // Location timezones are IANA names evaluated on any host

	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/examples/storefinder/spatial"
	"github.com/ucpgen/ucpgen/examples/storefinder/textrank"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Options configures what the source advertises; the zero value caps
// nothing.
type Options struct {
	// MaxDistance caps distance.max in meters; a larger request is rejected,
	// never clamped (0: no cap).
	MaxDistance float64
}

// Source serves an immutable set of public records; it is safe for
// concurrent use.
type Source struct {
	public    []*entry          // public records, sorted by id
	byKey     map[string]*entry // canonical ids and aliases of public records
	spatial   *spatial.Index    // over withGeo, so ascending ids are id order
	withGeo   []*entry          // public records with a geo, sorted by id
	countries []string          // alpha-2 codes public records serve, sorted
	caps      location.SourceCapabilities
	rankings  rankCache
}

// entry is one record decoded once at load time.
type entry struct {
	rec       dataset.Record
	loc       *location.Location
	cand      predicate.Candidate // the engine's view, built once
	geo       *predicate.Geo
	doc       textrank.Doc
	countries []string // service-area countries, alpha-2
}

// candidate is e as the engine receives it.
func (e *entry) candidate(score float64) location.Candidate {
	return location.Candidate{Location: e.loc, Score: score, Ref: e, Predicate: &e.cand}
}

// New validates every record and builds the indexes. An invalid record is a
// *dataset.FieldError naming its index and the JSON Pointer of the value.
func New(records []dataset.Record, opts Options) (*Source, error) {
	s := &Source{byKey: map[string]*entry{}}
	seen := map[string]int{}
	served := map[string]bool{}
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
		if rec.Private {
			continue // after validation, before anything a request can observe
		}
		for _, c := range e.countries {
			served[c] = true
		}
		s.public = append(s.public, e)
		s.byKey[e.loc.ID] = e
		for _, a := range rec.Aliases {
			s.byKey[a] = e
		}
	}
	slices.SortFunc(s.public, func(a, b *entry) int { return strings.Compare(a.loc.ID, b.loc.ID) })
	for _, e := range s.public {
		if e.geo != nil {
			s.withGeo = append(s.withGeo, e)
			points = append(points, spatial.Point{Lat: e.geo.Lat, Lon: e.geo.Lon})
		}
	}
	ix, err := spatial.New(points)
	if err != nil {
		return nil, fmt.Errorf("spatial index: %w", err)
	}
	s.spatial = ix
	for c := range served {
		s.countries = append(s.countries, c)
	}
	slices.Sort(s.countries)
	s.caps = location.SourceCapabilities{
		Serves:      []string{"point", "address"},
		Countries:   s.countries,
		MaxDistance: opts.MaxDistance,
	}
	return s, nil
}

func fieldErr(i int, rel, format string, args ...any) *dataset.FieldError {
	return &dataset.FieldError{Index: i, Pointer: "/" + strconv.Itoa(i) + rel, Reason: fmt.Sprintf(format, args...)}
}

// decode turns one record into an entry with the generated Location decoder
// (schema validation included) plus the rules the schema cannot state.
func decode(i int, rec dataset.Record) (*entry, error) {
	loc, err := location.DecodeLocation(rec.Location)
	if err != nil {
		if ip, ok := rpcerr.AsInvalidParams(err); ok && len(ip.Violations) > 0 {
			first := ip.Violations[0]
			return nil, fieldErr(i, "/location"+first.Pointer, "not a valid UCP Location: %s", first.Message)
		}
		return nil, fieldErr(i, "/location", "not a valid UCP Location: %v", err)
	}
	e := &entry{rec: rec, loc: loc}
	if loc.ID == "" {
		return nil, fieldErr(i, "/location/id", "must not be empty")
	}
	if rec.ID != "" && rec.ID != loc.ID {
		return nil, fieldErr(i, "/location/id", "record id %q differs from the Location id %q", rec.ID, loc.ID)
	}
	if loc.Name == "" {
		return nil, fieldErr(i, "/location/name", "must not be empty")
	}
	e.cand = loc.PredicateCandidate()
	if _, err := e.cand.Schedule.Compile(); err != nil {
		return nil, fieldErr(i, "/location"+schedulePointer(err.Error()), "unusable schedule: %v", err)
	}
	e.geo = e.cand.Geo
	if sa := rec.ServiceArea; sa != nil {
		if r := sa.RadiusM; r != nil {
			if math.IsNaN(*r) || math.IsInf(*r, 0) || *r < 0 {
				return nil, fieldErr(i, "/service_area/radius_m", "must be a finite number of meters >= 0, got %v", *r)
			}
			if e.geo == nil {
				return nil, fieldErr(i, "/service_area/radius_m", "needs the Location's geo to measure from")
			}
		}
		for j, c := range sa.Countries {
			code, ok := country.Normalize(c)
			if !ok {
				return nil, fieldErr(i, "/service_area/countries/"+strconv.Itoa(j), "%q is not an ISO 3166-1 country", c)
			}
			e.countries = append(e.countries, code)
		}
	}
	e.doc = textrank.NewDoc(textFields(loc))
	return e, nil
}

// scheduleField matches the field path hours.Compile puts first in its
// errors, e.g. "hours[2].closes" or "timezone".
var scheduleField = regexp.MustCompile(`^([a-z_]+)(?:\[(\d+)\])?(?:\.([a-z_]+))?:`)

// schedulePointer turns that field path into a JSON Pointer below the
// Location.
func schedulePointer(msg string) string {
	m := scheduleField.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	p := "/" + m[1]
	if m[2] != "" {
		p += "/" + m[2]
	}
	if m[3] != "" {
		p += "/" + m[3]
	}
	return p
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

// Capabilities reports point and address targets and the countries public
// records serve; private records never widen it.
func (s *Source) Capabilities() location.SourceCapabilities { return s.caps }

// Candidates returns the next batch in keyset order: the spatial index's
// superset for a distance relation, every public record otherwise; under
// relevance order, ranked by textrank once per text and circle (the ranking
// is cached, so the following batches and pages cost a binary search).
func (s *Source) Candidates(ctx context.Context, h location.Hints) ([]location.Candidate, error) {
	if h.Limit <= 0 {
		return nil, nil
	}
	pool, err := s.pool(h.Distance)
	if err != nil {
		return nil, err
	}
	amenities := h.Query.Filters.Amenities
	if h.Order == finder.ByRelevance {
		r := s.rankings.get(h.Text, h.Distance, amenities, func() []*entry { return withAmenities(pool, amenities) })
		return r.after(h.After, h.Limit), nil
	}
	start := 0
	if h.After != nil {
		start, _ = slices.BinarySearchFunc(pool, h.After.ID, func(e *entry, id string) int { return strings.Compare(e.loc.ID, id) })
		if start < len(pool) && pool[start].loc.ID == h.After.ID {
			start++
		}
	}
	out := make([]location.Candidate, 0, min(h.Limit, len(pool)-start))
	for _, e := range pool[start:] {
		if len(out) == h.Limit {
			break
		}
		if hasAll(e.cand.Amenities, amenities) {
			out = append(out, e.candidate(0))
		}
	}
	return out, nil
}

// withAmenities keeps the records that have every amenity key, the one
// filter this source pushes down exactly (the engine checks it again).
func withAmenities(pool []*entry, keys []string) []*entry {
	if len(keys) == 0 {
		return pool
	}
	var out []*entry
	for _, e := range pool {
		if hasAll(e.cand.Amenities, keys) {
			out = append(out, e)
		}
	}
	return out
}

// hasAll reports whether every key is in sorted (the candidate's sorted
// amenity keys).
func hasAll(sorted, keys []string) bool {
	for _, k := range keys {
		if _, ok := slices.BinarySearch(sorted, k); !ok {
			return false
		}
	}
	return true
}

// pool is every record a distance relation can match, in id order.
func (s *Source) pool(d *predicate.Distance) ([]*entry, error) {
	if d == nil {
		return s.public, nil
	}
	ids, err := s.spatial.Candidates(spatial.Point{Lat: d.Center.Lat, Lon: d.Center.Lon}, d.Max)
	if err != nil {
		return nil, fmt.Errorf("spatial candidates: %w", err)
	}
	pool := make([]*entry, len(ids))
	for i, id := range ids { // ascending ids are id order: withGeo is sorted
		pool[i] = s.withGeo[id]
	}
	return pool, nil
}

// Resolve maps ids and aliases of public records to their Locations.
func (s *Source) Resolve(_ context.Context, keys []string) (map[string][]location.Candidate, error) {
	out := make(map[string][]location.Candidate, len(keys))
	for _, k := range keys {
		if e, ok := s.byKey[k]; ok {
			out[k] = []location.Candidate{e.candidate(0)}
		}
	}
	return out, nil
}

// Serves implements the dataset's rules: a point is served within the
// record's radius_m by geodesic distance; an address is served when every
// non-empty member is in the corresponding service_area list (countries as
// alpha-2, regions case-insensitively, postal codes exactly).
func (s *Source) Serves(_ context.Context, t location.ServesTarget, cands []location.Candidate) ([]bool, error) {
	out := make([]bool, len(cands))
	for i, c := range cands {
		e, ok := c.Ref.(*entry)
		if !ok {
			return nil, fmt.Errorf("serves: candidate %q is not a store entry", c.Location.ID)
		}
		sa := e.rec.ServiceArea
		if sa == nil {
			continue
		}
		switch t.Key {
		case "point":
			out[i] = sa.RadiusM != nil && e.geo != nil && t.Point != nil && geodesic.Within(*e.geo, *t.Point, *sa.RadiusM)
		case "address":
			a := t.Address
			out[i] = a != nil &&
				inList(e.countries, a.Country, func(x, y string) bool { return x == y }) &&
				inList(sa.Regions, a.Region, strings.EqualFold) &&
				inList(sa.PostalCodes, a.PostalCode, func(x, y string) bool { return x == y })
		default:
			return nil, fmt.Errorf("%w: serves target %q", predicate.ErrUnevaluable, t.Key)
		}
	}
	return out, nil
}

// inList is true for an empty (absent) want, else when list holds it.
func inList(list []string, want string, eq func(string, string) bool) bool {
	if want == "" {
		return true
	}
	return slices.ContainsFunc(list, func(x string) bool { return eq(x, want) })
}

// Items is true where every requested item is in the record's items.
func (s *Source) Items(_ context.Context, items []string, cands []location.Candidate) ([]bool, error) {
	out := make([]bool, len(cands))
	for i, c := range cands {
		e, ok := c.Ref.(*entry)
		if !ok {
			return nil, fmt.Errorf("items: candidate %q is not a store entry", c.Location.ID)
		}
		out[i] = true
		for _, it := range items {
			if !slices.Contains(e.rec.Items, it) {
				out[i] = false
				break
			}
		}
	}
	return out, nil
}
