// Package predicate decides whether one Location matches the structured
// constraints of a UCP Location Search or Lookup request: the distance
// relation AND the serves relation AND every supplied filter. It knows nothing
// of MCP or of generated types; the generated package converts its typed
// request and Location values into Query and Candidate.
//
// Use it in two steps. Engine.Prepare (or Check) validates the request once and
// returns the request-level rejections the capability requires (a radius above
// the Business's cap, an un-negotiated serves form, an unsupported filter key)
// as *rpcerr.InvalidParams, before any candidate is examined. Prepared.Match
// then evaluates candidates. Engine.Match does both for a single candidate.
//
// Match evaluates cheap local checks first and hooks last, so that the
// Business's own (possibly remote, possibly rate-limited) serves and inventory
// lookups run only for candidates that already passed everything else:
//
//	distance -> amenities -> hours -> extension filters -> serves hook -> items hook
//
// The order never changes the outcome, only how often hooks are called.
package predicate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Geo is a WGS 84 coordinate pair in decimal degrees; it is the geodesic
// package's point so distances are computed without conversion.
type Geo = geodesic.Point

// Distance is the request's `distance` relation: match iff the geodesic
// distance from Center to the Location's geo is at most Max meters.
type Distance struct {
	Center Geo
	Max    float64 // meters, >= 0
}

// Locality is the `serves.address` operand; an empty string stands for an
// absent member, and at least one member must be non-empty.
type Locality struct {
	Country    string // address_country
	Region     string // address_region
	PostalCode string // postal_code
}

// Target is the request's one-entry `serves` map, kept exactly as supplied so
// the Business's hook sees the Platform's operand and nothing derived from it.
type Target struct {
	// Key is "point", "address", or a negotiated reverse-domain extension key.
	Key string
	// Point is set when Key is "point".
	Point *Geo
	// Address is set when Key is "address".
	Address *Locality
	// Raw is the operand's JSON exactly as supplied (for every key).
	Raw json.RawMessage
}

// Extension is one filter member other than hours, amenities and items, kept
// raw because only the handler registered for its key understands it.
type Extension struct {
	Key string
	Raw json.RawMessage
}

// Filters is the request's `filters` object; the Has flags keep "absent"
// apart from "present but empty", because only a present filter constrains.
type Filters struct {
	// OpenAt is filters.hours.open_at; nil when the hours filter is absent.
	// ParseOpenAt turns the request string into this value.
	OpenAt *time.Time
	// Amenities is filters.amenities; HasAmenities reports its presence.
	Amenities    []string
	HasAmenities bool
	// Items is filters.items; HasItems reports its presence.
	Items    []string
	HasItems bool
	// Extensions holds every other filter key, in request order.
	Extensions []Extension
}

// Query is the structured part of a Search or Lookup request; the free-text
// query, context and signals are deliberately absent because they must never
// become an operand of distance, serves or items.
type Query struct {
	Distance *Distance // nil when absent
	Serves   *Target   // nil when absent
	Filters  Filters
}

// Candidate is one Location as the engine needs to see it, plus the service's
// own value so that hooks can reach the rest of the Location.
type Candidate struct {
	ID string
	// Geo is the Location's coordinates; nil (or unusable) never matches a
	// distance relation.
	Geo *Geo
	// Amenities lists the keys of the Location's amenities map.
	Amenities []string
	// Schedule is the Location's hours, exception_hours and timezone.
	Schedule hours.Schedule
	// Compiled, when non-nil, is Schedule already compiled (by a source at
	// load time, say), so an hours filter evaluates it without parsing the
	// schedule again for every candidate; the engine then ignores Schedule.
	// Compiled schedules are read-only and may be shared between candidates.
	Compiled *hours.Compiled
	// Value is the service's own Location value, passed back to hooks untouched.
	Value any
}

// Hooks are the Business's authoritative answers that the engine cannot
// compute itself. Operands are passed exactly as supplied and must be treated
// as read-only.
type Hooks interface {
	// Serves reports whether at least one currently available service or
	// fulfilment method of c can serve t. It is called only when the request
	// has `serves`. Returning an error wrapping ErrUnevaluable rejects the
	// request (a well-formed target the Business cannot evaluate).
	Serves(ctx context.Context, c *Candidate, t Target) (bool, error)
	// ItemsAvailable reports whether every item in items can currently be
	// provided at c. It is called only when the request has `filters.items`.
	// An error wrapping ErrUnevaluable means "cannot tell", which fails the
	// match without an error, as the capability requires for items.
	ItemsAvailable(ctx context.Context, c *Candidate, items []string) (bool, error)
}

// ErrUnevaluable is what a hook or extension filter returns (wrapped, with a
// reason) when it cannot evaluate a well-formed operand, so that the engine
// can reject the request instead of ignoring or broadening the constraint.
var ErrUnevaluable = errors.New("operand cannot be evaluated by this Business")

// ExtensionFilter evaluates one extension filter key for a candidate, given
// the operand exactly as supplied. An error wrapping ErrUnevaluable rejects
// the request at /filters/<key>; an *rpcerr.InvalidParams it returns
// (wrapped or not) is passed through unchanged.
type ExtensionFilter func(ctx context.Context, c *Candidate, raw json.RawMessage) (bool, error)

// Engine holds a Business's predicate configuration; the zero value accepts
// point and address serves targets, no extension keys and any radius, and has
// no hooks (so a serves request is rejected and an items filter matches
// nothing).
type Engine struct {
	// Hooks answers serves and items; nil means the Business evaluates neither.
	Hooks Hooks
	// MaxDistance is the largest distance.max (meters) the Business honours;
	// 0 (or less) means no cap. A larger request is rejected, never clamped.
	MaxDistance float64
	// ServesKeys lists the negotiated extension keys accepted in `serves`
	// besides "point" and "address".
	ServesKeys []string
	// Evaluates, when non-nil, lists every serves key the Business
	// evaluates (point and address included), so that a refusal of an
	// unknown key suggests only keys that would work; nil means point,
	// address and ServesKeys.
	Evaluates []string
	// ExtensionFilters maps each supported extension filter key to its handler;
	// any other key in filters is rejected.
	ExtensionFilters map[string]ExtensionFilter
}

// Pointers (RFC 6901) of the request members the engine reports on. They are
// relative to the domain request (the Search or Lookup body), so any binding
// can reuse the engine: the MCP binding prefixes them with "/location", as it
// does for decoding errors (rpcerr.InvalidParams.Prefix).
const (
	ptrDistance  = "/distance"
	ptrServes    = "/serves"
	ptrFilters   = "/filters"
	ptrOpenAt    = "/filters/hours/open_at"
	ptrAmenities = "/filters/amenities"
	ptrItems     = "/filters/items"
)

// reverseDomainPattern is the reverse_domain_name.json pattern that amenity
// identifiers follow; isReverseDomain matches it without a regexp, since
// every request with amenities checks each of them.
const reverseDomainPattern = `^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$`

// isReverseDomain reports whether id matches reverseDomainPattern: two or
// more labels joined by '.', the first of [a-z0-9-] beginning with [a-z]
// and ending with [a-z0-9], each other of [a-z0-9_-] beginning with
// [a-z0-9] and ending with [a-z0-9_].
func isReverseDomain(id string) bool {
	first, rest, ok := strings.Cut(id, ".")
	if !ok || !label(first, false) {
		return false
	}
	for {
		l, more, ok := strings.Cut(rest, ".")
		if !label(l, true) {
			return false
		}
		if !ok {
			return true
		}
		rest = more
	}
}

// label reports whether l is one label of reverseDomainPattern: the first
// (under) or a later one.
func label(l string, later bool) bool {
	if l == "" {
		return false
	}
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	if c := l[0]; !lower(c) && !(later && digit(c)) {
		return false
	}
	for i := 1; i < len(l); i++ {
		c := l[i]
		if lower(c) || digit(c) || (later && c == '_') {
			continue
		}
		if c != '-' || i == len(l)-1 {
			return false
		}
	}
	return true
}

// ParseOpenAt reads filters.hours.open_at and reports a bad value as
// *rpcerr.InvalidParams at its pointer, so converters need not build the
// error themselves.
func ParseOpenAt(s string) (time.Time, error) {
	t, err := hours.ParseInstant(s)
	if err != nil {
		return time.Time{}, rpcerr.Invalid(ptrOpenAt, "format", "%v", err)
	}
	return t, nil
}

// Prepared is a validated Query bound to the Engine's hooks and handlers as
// they were at Prepare time, ready to be matched against many candidates
// without repeating request-level checks. Obtain it only from Prepare.
type Prepared struct {
	hooks      Hooks // captured by Prepare, non-nil whenever q.Serves is set
	q          Query
	amenities  []string // deduplicated, request order
	noItem     bool     // an items id names no item: nothing matches
	extensions []preparedExtension
	circle     geodesic.Circle // q.Distance made ready, when it is set
}

type preparedExtension struct {
	Extension
	pointer string
	filter  ExtensionFilter
}

// Check returns the request-level rejection for q, if any, so that a request
// the Business cannot honour fails before any candidate is evaluated.
func (e *Engine) Check(q Query) error {
	_, err := e.Prepare(q)
	return err
}

// Prepare validates q against the engine's configuration and returns a
// matcher for it; every error is an *rpcerr.InvalidParams whose pointer names
// the offending member.
func (e *Engine) Prepare(q Query) (*Prepared, error) {
	if err := e.checkDistance(q.Distance); err != nil {
		return nil, err
	}
	if err := e.checkServes(q.Serves); err != nil {
		return nil, err
	}
	p := &Prepared{hooks: e.Hooks, q: q}
	if d := q.Distance; d != nil {
		p.circle = geodesic.NewCircle(d.Center, d.Max)
	}
	if err := p.checkFilters(e.ExtensionFilters); err != nil {
		return nil, err
	}
	return p, nil
}

// Match reports whether c satisfies q; it runs Prepare first, so a request
// that Check would reject is rejected here too and never silently ignored.
func (e *Engine) Match(ctx context.Context, q Query, c *Candidate) (bool, error) {
	p, err := e.Prepare(q)
	if err != nil {
		return false, err
	}
	return p.Match(ctx, c)
}

func (e *Engine) checkDistance(d *Distance) error {
	if d == nil {
		return nil
	}
	if err := checkGeo(ptrDistance+"/center", d.Center); err != nil {
		return err
	}
	if err := checkFiniteMax(d.Max); err != nil {
		return err
	}
	switch {
	case d.Max < 0:
		return rpcerr.Invalid(ptrDistance+"/max", "minimum", "max must be at least 0 meters, got %v", d.Max)
	case e.MaxDistance > 0 && d.Max > e.MaxDistance:
		return rpcerr.Invalid(ptrDistance+"/max", "maximum", "max %v m exceeds the largest radius this Business supports (%v m); send a smaller max", d.Max, e.MaxDistance)
	}
	return nil
}

// CheckNumbers refuses the numbers of q that are not finite. A JSON number
// beyond the float64 range (1e400, 1.8e308) is valid JSON and passes a schema
// that only bounds it from below, but decodes to ±Inf: no radius, and no
// value JSON can write back (a cursor's constraint digest encodes it). A
// binding calls CheckNumbers as soon as it has built q, before anything
// else reads it, so every tool refuses such a number at its pointer with the
// same violation the engine's Prepare gives. Pointers are relative to the
// domain request, as Prepare's are.
func (q Query) CheckNumbers() error {
	if d := q.Distance; d != nil {
		if err := checkGeo(ptrDistance+"/center", d.Center); err != nil {
			return err
		}
		if err := checkFiniteMax(d.Max); err != nil {
			return err
		}
	}
	if t := q.Serves; t != nil && t.Point != nil {
		if err := checkGeo(ptrServes+"/"+rpcerr.EscapeToken(t.Key), *t.Point); err != nil {
			return err
		}
	}
	return nil
}

// checkFiniteMax refuses a radius that is not a finite number of meters: the
// Business cannot honour it, so it rejects it rather than reading it as "no
// limit" (LOCATION.md section 4).
func checkFiniteMax(m float64) error {
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return rpcerr.Invalid(ptrDistance+"/max", "unsupported", "max must be a finite number of meters, at most %v; this one is beyond the range of a float64", math.MaxFloat64)
	}
	return nil
}

// checkGeo rejects coordinates outside WGS 84 ranges, pointing at the member.
func checkGeo(pointer string, g Geo) error {
	if err := checkDegrees(pointer, "latitude", g.Lat, 90); err != nil {
		return err
	}
	return checkDegrees(pointer, "longitude", g.Lon, 180)
}

// checkDegrees reports v, the member name of the object at pointer, outside
// [-limit, limit] with the JSON Schema keyword that the schema's own check
// would name. The member's pointer is built only for an error: every
// distance filter passes through here.
func checkDegrees(pointer, name string, v, limit float64) error {
	if v >= -limit && v <= limit {
		return nil
	}
	pointer += "/" + name
	switch {
	case math.IsNaN(v):
		return rpcerr.Invalid(pointer, "type", "%s must be a number of degrees, got NaN", name)
	case v < -limit:
		return rpcerr.Invalid(pointer, "minimum", "%s must be within -%v..%v degrees, got %v", name, limit, limit, v)
	case v > limit:
		return rpcerr.Invalid(pointer, "maximum", "%s must be within -%v..%v degrees, got %v", name, limit, limit, v)
	}
	return nil
}

// usableGeo reports whether a Location's coordinates can be measured from.
func usableGeo(g *Geo) bool {
	return g != nil && checkGeo("", *g) == nil
}

func (e *Engine) checkServes(t *Target) error {
	if t == nil {
		return nil
	}
	pointer := ptrServes + "/" + rpcerr.EscapeToken(t.Key)
	switch t.Key {
	case "":
		return rpcerr.Invalid(ptrServes, "minProperties", "serves must have exactly one key: point, address or a negotiated extension key")
	case "point":
		if t.Point == nil {
			return rpcerr.Invalid(pointer, "required", "serves.point must be a Geo with latitude and longitude")
		}
		if err := checkGeo(pointer, *t.Point); err != nil {
			return err
		}
	case "address":
		a := t.Address
		if a == nil || (a.Country == "" && a.Region == "" && a.PostalCode == "") {
			return rpcerr.Invalid(pointer, "anyOf", "serves.address needs a non-empty address_country, address_region or postal_code")
		}
	default:
		if !slices.Contains(e.ServesKeys, t.Key) {
			return rpcerr.Invalid(pointer, "propertyNames", "serves target %q was not negotiated with this Business; %s", t.Key, e.servesHint())
		}
	}
	if e.Hooks == nil {
		return rpcerr.Invalid(pointer, "unsupported", "this Business cannot evaluate serves targets")
	}
	return nil
}

// servesHint names the serves keys a refused request could use instead.
func (e *Engine) servesHint() string {
	keys := e.Evaluates
	if keys == nil {
		keys = append([]string{"point", "address"}, e.ServesKeys...)
	}
	if len(keys) == 0 || e.Hooks == nil {
		return "this Business evaluates no serves target; leave serves out"
	}
	return "use " + strings.Join(keys, " or ")
}

func (p *Prepared) checkFilters(handlers map[string]ExtensionFilter) error {
	f := p.q.Filters
	seen := make(map[string]bool, len(f.Amenities))
	for i, id := range f.Amenities {
		if !isReverseDomain(id) {
			return rpcerr.Invalid(fmt.Sprintf("%s/%d", ptrAmenities, i), "pattern", "amenity %q is not a reverse-domain identifier", id)
		}
		if !seen[id] {
			seen[id] = true
			p.amenities = append(p.amenities, id)
		}
	}

	if f.HasItems || len(f.Items) > 0 {
		if len(f.Items) == 0 {
			return rpcerr.Invalid(ptrItems, "minItems", "items must list at least one item id when present")
		}
		first := make(map[string]int, len(f.Items))
		for i, id := range f.Items {
			if id == "" {
				// An empty id names no item, so no Location can provide
				// it and the AND of the items filter never holds: a
				// request decoded at a version that allows it (2026-08-21's
				// inventory ids) matches nothing, as an unknown id does
				// (LOCATION.md section 5). Where the schema has minLength
				// 1 it refused the request before it got here.
				p.noItem = true
			}
			if j, dup := first[id]; dup {
				return rpcerr.Invalid(fmt.Sprintf("%s/%d", ptrItems, i), "uniqueItems", "item id %q repeats items[%d]", id, j)
			}
			first[id] = i
		}
	}

	for _, x := range f.Extensions {
		pointer := ptrFilters + "/" + rpcerr.EscapeToken(x.Key)
		h := handlers[x.Key]
		if h == nil {
			return rpcerr.Invalid(pointer, "unsupported", "filter %q is not supported by this Business", x.Key)
		}
		p.extensions = append(p.extensions, preparedExtension{Extension: x, pointer: pointer, filter: h})
	}
	return nil
}

// Match reports whether c satisfies every constraint of the prepared query.
// Errors are either request rejections (*rpcerr.InvalidParams, e.g. a serves
// target the hook cannot evaluate) or hook failures, wrapped with the
// candidate's id; a non-matching candidate is (false, nil).
func (p *Prepared) Match(ctx context.Context, c *Candidate) (bool, error) {
	ok, err := p.MatchLocal(ctx, c)
	if err != nil || !ok {
		return false, err
	}
	if t := p.q.Serves; t != nil {
		ok, err := p.hooks.Serves(ctx, c, *t)
		if err != nil {
			return false, p.ServesError(c.ID, err)
		}
		if !ok {
			return false, nil
		}
	}
	if p.HasItems() {
		if p.hooks == nil {
			return false, nil // items nobody can evaluate fail the match
		}
		ok, err := p.hooks.ItemsAvailable(ctx, c, p.q.Filters.Items)
		if err != nil {
			return p.ItemsOutcome(c.ID, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// MatchLocal evaluates every constraint the engine decides on its own
// (distance, amenities, hours, extension filters) and leaves out serves and
// items, so a caller can ask the Business for those in one batch for all the
// candidates that survive. Match is MatchLocal followed by the hooks.
func (p *Prepared) MatchLocal(ctx context.Context, c *Candidate) (bool, error) {
	if c == nil {
		return false, errors.New("match: nil candidate")
	}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("match location %q: %w", c.ID, err)
	}
	q := p.q
	if p.noItem {
		return false, nil
	}

	if q.Distance != nil {
		if !usableGeo(c.Geo) || !p.circle.Contains(*c.Geo) {
			return false, nil
		}
	}

	if q.Filters.HasAmenities || len(q.Filters.Amenities) > 0 {
		if !hasAllKeys(c.Amenities, p.amenities) {
			return false, nil
		}
	}

	if q.Filters.OpenAt != nil {
		open, err := c.openAt(*q.Filters.OpenAt)
		if err != nil || !open {
			return false, err
		}
	}

	for _, x := range p.extensions {
		ok, err := x.filter(ctx, c, x.Raw)
		if err != nil {
			if _, isInvalid := rpcerr.AsInvalidParams(err); !isInvalid && errors.Is(err, ErrUnevaluable) {
				return false, rpcerr.Invalid(x.pointer, "unevaluable", "filter %q cannot be evaluated: %s", x.Key, UnevaluableReason(err))
			}
			return false, fmt.Errorf("filter %q for location %q: %w", x.Key, c.ID, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// Serves is the request's serves target, or nil, for callers that evaluate
// it themselves after MatchLocal.
func (p *Prepared) Serves() *Target { return p.q.Serves }

// HasItems reports whether the request carries filters.items, which only the
// Business can evaluate.
func (p *Prepared) HasItems() bool { return p.q.Filters.HasItems || len(p.q.Filters.Items) > 0 }

// Items is filters.items as supplied, for callers that evaluate it after
// MatchLocal.
func (p *Prepared) Items() []string { return p.q.Filters.Items }

// ServesError turns a serves evaluation failure for location id into what
// the request gets: ErrUnevaluable becomes an *rpcerr.InvalidParams at
// /serves/<key> (the capability requires a rejection, never a silent
// non-match); any other error is wrapped with the location id.
func (p *Prepared) ServesError(id string, err error) error {
	if _, ok := rpcerr.AsInvalidParams(err); ok {
		return err
	}
	if errors.Is(err, ErrUnevaluable) {
		key := ""
		if p.q.Serves != nil {
			key = p.q.Serves.Key
		}
		return rpcerr.Invalid(ptrServes+"/"+rpcerr.EscapeToken(key), "unevaluable", "this Business cannot evaluate the serves target: %s", UnevaluableReason(err))
	}
	if id == "" {
		return fmt.Errorf("serves: %w", err)
	}
	return fmt.Errorf("serves hook for location %q: %w", id, err)
}

// ItemsOutcome turns an items evaluation failure into the match outcome: an
// error wrapping ErrUnevaluable means "cannot tell", which fails the match
// without an error, as the capability requires; any other error is wrapped
// with the location id.
func (p *Prepared) ItemsOutcome(id string, err error) (bool, error) {
	if errors.Is(err, ErrUnevaluable) {
		return false, nil
	}
	if id == "" {
		return false, fmt.Errorf("items: %w", err)
	}
	return false, fmt.Errorf("items hook for location %q: %w", id, err)
}

// UnevaluableReason is the text of an error that wraps ErrUnevaluable with
// the sentinel's own words removed, so a client reads the Business's reason
// once instead of "cannot evaluate ...: operand cannot be evaluated ...".
func UnevaluableReason(err error) string {
	s := err.Error()
	sentinel := ErrUnevaluable.Error()
	for _, cut := range []string{sentinel + ": ", ": " + sentinel, sentinel} {
		s = strings.Replace(s, cut, "", 1)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "no reason given"
	}
	return s
}

// hasAllKeys reports whether every wanted id is exactly one of keys: no
// prefix matching and no case folding.
func hasAllKeys(keys, want []string) bool {
	for _, w := range want {
		if !slices.Contains(keys, w) {
			return false
		}
	}
	return true
}
