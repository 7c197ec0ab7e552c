// Package finder runs the UCP Location capability (Search and Lookup) over a
// Business's data source, so that the Business writes only where its
// Locations, aliases, service areas and item availability come from.
//
// The Source interface is all a Business implements. The engine (Engine,
// driven by the generated NewService) prepares the request's predicates,
// pulls candidates from the source in batches in a stable keyset order,
// evaluates every predicate exactly (WGS 84 geodesic distance, hours in the
// Location's IANA zone, amenities, extension filters, then serves and items
// through the source in one call per batch), and signs the cursor.
//
// It knows nothing of MCP and nothing of the generated types beyond the type
// parameter L, the generated Location type.
package finder

import (
	"context"

	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
)

// Order is the stable order in which a source returns search candidates, so
// a keyset cursor can continue after the last Location of a page.
type Order int

const (
	// ByID orders candidates by canonical Location id, ascending (byte-wise
	// string comparison). Used when the request has no free-text query.
	ByID Order = iota
	// ByRelevance orders candidates by Score descending, then by id ascending.
	// Used when the request has a free-text query; the source scores it.
	ByRelevance
)

// Position is a place in the keyset order: the last Location a previous batch
// or page returned. Score is meaningful only under ByRelevance.
type Position struct {
	Score float64
	ID    string
}

// Hints tell a source what a search needs, so it can push work down (a
// spatial index, a SQL WHERE, a text index) and read O(batch) rows. Every hint
// may be honoured loosely: the source may return a superset of the matches,
// because the engine re-checks every predicate exactly. It must never return
// fewer: a candidate the source leaves out is lost.
type Hints struct {
	// Distance is the request's distance circle, or nil. A source may skip
	// Locations farther than Max from Center (with a safety margin if its
	// geodesic differs from WGS 84 Karney).
	Distance *predicate.Distance
	// Text is the request's free-text query ("" when absent). It only
	// orders and scores; it never removes a candidate.
	Text string
	// Order is the order candidates must come in.
	Order Order
	// After is the position to continue strictly after; nil starts at the
	// beginning.
	After *Position
	// Limit is the largest number of candidates to return in this call.
	Limit int
	// Query is the whole structured query, for a source that can push more
	// predicates down exactly; it may be ignored.
	Query predicate.Query
}

// Candidate is one Location a source returns, with what the engine needs to
// order it and to hand it back to the source.
type Candidate[L any] struct {
	// Location is the Location as the Business publishes it; the engine
	// treats it as read-only and may return it in a response.
	Location *L
	// Score is the relevance score under ByRelevance (higher first); it must
	// be the same every time the same Location is scored for the same text.
	Score float64
	// Ref is the source's own handle (an index, a row id), passed back to
	// Serves and Items untouched.
	Ref any
	// Predicate, when non-nil, is the Location as the predicate engine sees
	// it (id, geo, amenity keys, schedule), prepared once by the source (at
	// load, say) so the engine need not convert the Location again on every
	// request. nil means the engine converts it; the engine never modifies it.
	// A view whose Value is already Location is used as it is; any other
	// is copied so that its Value can be set.
	Predicate *predicate.Candidate
	// Encoded, when non-nil, is Location's JSON as its generated AppendJSON
	// writes it, made once by the source (at load, say); the generated
	// service copies it into responses instead of encoding Location again.
	// It must be Location's encoding, and stay so: Location is read-only.
	Encoded *jsonenc.Encoded
}

// Source is what a Business implements. Every method may be called
// concurrently. Locations that are not buyer-accessible (dark stores, hubs)
// must never be returned by Candidates or Resolve.
type Source[L any] interface {
	// Capabilities reports what the source can evaluate; the engine calls it
	// once, when the service is built.
	Capabilities() Capabilities
	// Candidates returns at most h.Limit candidates in h.Order strictly after
	// h.After. Fewer than h.Limit means there are no more.
	Candidates(ctx context.Context, h Hints) ([]Candidate[L], error)
	// Resolve maps each key (a canonical id or an alias; keys are distinct)
	// to the Locations it names, all in one call. A key absent from the
	// result resolved to nothing.
	Resolve(ctx context.Context, keys []string) (map[string][]Candidate[L], error)
	// Serves reports, for each candidate, whether at least one currently
	// available service or fulfilment method can serve t. It is called only
	// for requests with serves, once per batch, for candidates that passed
	// every other predicate. An error wrapping predicate.ErrUnevaluable
	// rejects the request with -32602. For an address target,
	// t.Address.Country is already the upper-case ISO 3166-1 alpha-2 code
	// of a country in Capabilities.Countries (the engine reads alpha-3 codes
	// and English names too); t.Raw is as supplied.
	Serves(ctx context.Context, t predicate.Target, cands []Candidate[L]) ([]bool, error)
	// Items reports, for each candidate, whether every item can currently be
	// provided there. It is called only for requests with filters.items,
	// once per batch, after Serves.
	Items(ctx context.Context, items []string, cands []Candidate[L]) ([]bool, error)
}

// Capabilities is what a source can evaluate, so that a request it cannot
// honour gets an actionable -32602 before any candidate is read.
type Capabilities struct {
	// Serves lists the serves keys the source evaluates: "point", "address"
	// and any negotiated reverse-domain extension keys. Any other key is
	// rejected.
	Serves []string
	// Countries lists the ISO 3166-1 alpha-2 codes (upper case) whose
	// addresses and postal systems the source models. A serves.address naming
	// another country, or a postal code with no country, is rejected as
	// unevaluable. Empty means the source models none.
	Countries []string
	// Filters maps each supported extension filter key to its evaluator;
	// any other filter key is rejected.
	Filters map[string]predicate.ExtensionFilter
	// MaxDistance is the largest distance.max in meters the source honours
	// (0: no cap); a larger request is rejected, never clamped.
	MaxDistance float64
	// Counts reports that the source implements Counter.
	Counts bool
	// Ranking names the relevance ranking behind Candidate.Score (an
	// algorithm and its version, such as "textrank/1"; at most
	// MaxRankingLen bytes). Relevance cursors carry it, and one minted under
	// another ranking is refused with -32602: its score means nothing in
	// this ranking, so continuing would repeat or skip Locations. Replicas
	// whose sources rank identically name the same ranking, and their
	// cursors continue across them; id-order cursors always do.
	Ranking string
}

// MaxRankingLen bounds Capabilities.Ranking, which every relevance cursor
// repeats.
const MaxRankingLen = 32

// Counter is implemented by a source that can count the exact matches of a
// structured query cheaply (an index-only count), so search responses can
// carry total_count without evaluating every match.
type Counter interface {
	Count(ctx context.Context, q predicate.Query) (int, error)
}
