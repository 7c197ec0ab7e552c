// Package postgis is a ready-made PostgreSQL 15 + PostGIS 3 location.Source:
// a finder.Source over tables a loader fills from the dataset file format
// (runtime/sources/dataset), so a chain whose locations live in a database
// can answer agents from any number of stateless replicas, primary or hot
// standby.
//
// Use. Connect (or Config) makes the pool; Load (records in memory),
// LoadFile (a dataset file, streamed in batches, so memory does not grow
// with the file) or LoadRecords (records from any iterator, streamed the
// same way) fills the tables, migrating them first; Open returns the Source
// for the generated location.NewService. Loading needs the primary;
// serving works on a hot standby too.
//
// Stability: Connect, Config, Migrate, Load, LoadFile, LoadRecords,
// LoadStats, Open, Options, Source and its methods, UnavailableError and
// ErrSchema are the package's API and change only compatibly within a major
// version. The schema below is part of it: its tables and columns change
// only through a new migration that Migrate applies, and Open refuses a
// database at another version with ErrSchema rather than misreading it.
//
// Schema. storefinder_locations holds one row per record: the Location JSON
// exactly as loaded (text), a geography(Point,4326) with a GiST index, the
// amenity keys and item ids as arrays, the service area, the private flag
// and the ranking text (name, address, amenity labels); storefinder_aliases
// maps each alias to its Location and storefinder_postings holds the text
// postings of public Locations (postings.go). Migrate creates and upgrades
// them.
//
// Loading. Load makes the tables hold exactly a dataset's records in one
// transaction, writing only rows whose record changed, so it is idempotent
// and readers never see a half-loaded dataset.
//
// Reading. Every Source method is one read-only statement: Candidates,
// Resolve, Serves and Items each cost one round trip per call, and nothing
// writes, so a Source can run against a hot standby.
//
// Pushdown. Candidates pushes down what it can decide exactly or as a safe
// superset, in keyset order (id COLLATE "C", or text score then id). Under
// id order a call reads O(limit) rows; under relevance order, see
// textsearch.go.
//   - distance: a circle of radius max·(1+1e-6) + 1 m, checked on the
//     spheroid. A local circle (up to a few hundred kilometres) is read from
//     (cell, id) indexes of a 0.1° or 1° latitude/longitude grid, at most 64
//     cells the circle can reach (cells.go), merged in id order, so a call
//     reads about limit rows times the share of the cells' rows that match,
//     whether the circle holds ten Locations or a million. A wider one
//     is read in id order when dense (about limit ÷ density rows) and
//     through the GiST index when sparse, chosen by a bounded index probe
//     in the same statement. The
//     margin exists because PostGIS measures geography with its own code
//     (GeographicLib's inverse for points, but with its own tolerances
//     around it), while the engine decides with runtime/domain/geodesic's
//     Karney solution, which stays authoritative: about a millimetre per
//     kilometre plus a metre is far above any disagreement of two correct
//     geodesic solvers and far below anything that adds rows worth reading.
//     A radius whose circle covers the whole ellipsoid is not pushed down
//     (only "has a geo" is). Under relevance order the circle filters the
//     rows that postings name, or the GiST index enumerates a small circle.
//   - amenities and items: array containment (@>) is exact byte-wise string
//     equality, the engine's rule, so they are pushed down.
//   - hours, serves and extension filters are not: opening hours need IANA
//     zone arithmetic, and serves follows rules (Unicode case folding of
//     regions, geodesic radii) that are evaluated in Go on the batch's
//     service areas, read in one statement, exactly as the in-memory store
//     does.
//
// Faults. Every Source call runs under Options.Timeout, and the pool's
// sessions under StatementTimeout and ConnectTimeout (Config). A call the
// database did not answer (refused or dropped connections, a timeout, a
// server shutting down) fails with an *UnavailableError, which the MCP
// runtime answers as -32000 with HTTP 503 and Retry-After; outages are
// logged once when they start, once per FaultLogInterval with a count, and
// once when they end. Values holding U+0000, which PostgreSQL text cannot
// hold, match nothing instead of failing the statement, as in memory.
//
// Free text orders and scores, never filters: under finder.ByRelevance the
// score is textrank's (the in-memory store's), computed in Go from each
// row's text columns, and every Location a structured constraint admits
// still comes, after the scored ones, with score 0. A page costs O(page)
// postings through a threshold top-k over storefinder_postings, or one
// read of a small admitted set (textsearch.go); relevance cursors carry
// textrank.Name, so they move between in-memory and PostGIS replicas.
package postgis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// Distance margin of the ST_DWithin prefilter; see the package doc.
const (
	marginRelative = 1e-6
	marginAbsolute = 1.0 // meters
	// halfMeridian bounds every WGS 84 geodesic distance (meters): a circle
	// this large holds the whole ellipsoid.
	halfMeridian = 20003931.4586
)

// Options configures a Source.
type Options struct {
	// MaxDistance is the largest distance.max in meters the source honours
	// (0: no cap); it is reported in Capabilities.
	MaxDistance float64
	// WideProbe is the number of Locations in a wide circle's bounding box
	// from which Candidates reads in id order instead of through the
	// spatial index (0: DefaultWideProbe).
	WideProbe int
	// SmallSet is the largest set of Locations a pushed-down distance
	// circle or item filter may admit for a ranked call to read and score
	// all of them instead of walking posting lists (0: DefaultSmallSet;
	// negative: always walk the posting lists).
	SmallSet int
	// Timeout bounds each Source call, waiting for a connection included
	// (0: DefaultTimeout), so a database that stops answering (SIGSTOP, a
	// partition) costs a request seconds, not the TCP timeout.
	Timeout time.Duration
	// Logger receives the rate-limited outage lines (nil: slog.Default()).
	Logger *slog.Logger
}

// DefaultTimeout is Options.Timeout's default: a little above the
// statement_timeout Config sets, so the server's own cancellation, which
// leaves the connection usable, normally comes first.
const DefaultTimeout = 6 * time.Second

// Defaults Config sets on the pool unless the DSN sets them.
const (
	// StatementTimeout is the session's statement_timeout.
	StatementTimeout = 5 * time.Second
	// ConnectTimeout bounds opening one connection.
	ConnectTimeout = 5 * time.Second
)

// Ranking names this source's relevance scores for relevance cursors: they
// are textrank's, computed in Go exactly as the in-memory store computes
// them, so a relevance cursor minted by either kind of replica continues
// on the other.
const Ranking = textrank.Name

// DefaultWideProbe is Options.WideProbe's default: below it, sorting the
// circle's Locations costs less than walking the id order.
const DefaultWideProbe = 4000

// Source is a finder.Source[location.Location] over a PostGIS database; it
// is safe for concurrent use and never writes.
type Source struct {
	pool    *pgxpool.Pool
	caps    finder.Capabilities
	probe   int
	small   int
	timeout time.Duration
	faults  *faultLog
}

var _ finder.Source[location.Location] = (*Source)(nil)

// Open checks that the database holds this program's schema and reads what
// Capabilities reports (the countries that public records model); it does
// not write, so pool may point at a hot standby. Capabilities are read once,
// as the engine reads them once: restart servers after a load that adds a
// service-area country. On a standby, open after the load has replayed.
func Open(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Source, error) {
	if err := checkSchema(ctx, pool); err != nil {
		return nil, err
	}
	if math.IsNaN(opts.MaxDistance) || math.IsInf(opts.MaxDistance, 0) || opts.MaxDistance < 0 {
		return nil, fmt.Errorf("postgis source: MaxDistance must be a finite number of meters >= 0, got %v", opts.MaxDistance)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("postgis source: Timeout must be >= 0, got %v", opts.Timeout)
	}
	if opts.WideProbe < 0 {
		return nil, fmt.Errorf("postgis source: WideProbe must be >= 0, got %d", opts.WideProbe)
	}
	probe := opts.WideProbe
	if probe == 0 {
		probe = DefaultWideProbe
	}
	countries, err := modelledCountries(ctx, pool)
	if err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	faults := &faultLog{logger: logger, interval: FaultLogInterval, now: time.Now}
	small := opts.SmallSet
	if small == 0 {
		small = DefaultSmallSet
	}
	return &Source{pool: pool, probe: probe, small: small, timeout: timeout, faults: faults, caps: finder.Capabilities{
		Serves:      []string{"point", "address"},
		Countries:   countries,
		MaxDistance: opts.MaxDistance,
		Ranking:     Ranking,
	}}, nil
}

// modelledCountries lists the service-area countries of public records
// (stored as alpha-2 codes by Load), sorted: the postal systems this
// Business models.
func modelledCountries(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	rows, err := pool.Query(ctx, `SELECT DISTINCT c FROM `+tableLocations+`, unnest(sa_countries) AS c WHERE NOT private`)
	if err != nil {
		return nil, fmt.Errorf("read modelled countries: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("read modelled countries: %w", err)
	}
	for _, c := range out {
		if !country.IsAlpha2(c) {
			return nil, fmt.Errorf("%w: service-area country %q is not an alpha-2 code; reload the dataset", ErrSchema, c)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Capabilities implements finder.Source.
func (s *Source) Capabilities() finder.Capabilities {
	c := s.caps
	c.Serves = slices.Clone(c.Serves)
	c.Countries = slices.Clone(c.Countries)
	return c
}

// Candidates implements finder.Source: one query, keyset order, LIMIT.
func (s *Source) Candidates(ctx context.Context, h finder.Hints) ([]finder.Candidate[location.Location], error) {
	return call(s, ctx, func(ctx context.Context) ([]finder.Candidate[location.Location], error) { return s.candidates(ctx, h) })
}

func (s *Source) candidates(ctx context.Context, h finder.Hints) ([]finder.Candidate[location.Location], error) {
	if h.Limit <= 0 {
		return nil, nil
	}
	if h.Order == finder.ByRelevance {
		return s.ranked(ctx, h)
	}
	if h.Order != finder.ByID {
		return nil, fmt.Errorf("postgis candidates: unknown order %d", h.Order)
	}
	sql, args := s.byIDStatement(h, []string{"id", "doc"}, ", 0::real")
	return s.query(ctx, sql, args)
}

// byIDStatement builds the finder.ByID candidate statement of h, selecting
// cols (column names) and then extra (SQL expressions, each after a comma).
func (s *Source) byIDStatement(h finder.Hints, cols []string, extra string) (string, []any) {
	qualified := func(prefix string) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = prefix + c
		}
		return strings.Join(out, ", ")
	}
	var w where
	spatial := w.structured(h, true)
	if h.After != nil {
		w.add("id > " + w.arg(h.After.ID))
	}
	limit := w.arg(h.Limit)
	sql := `SELECT ` + qualified("") + extra + ` FROM ` + tableLocations + ` WHERE ` + w.String() + ` ORDER BY id LIMIT ` + limit
	if spatial == nil {
		return sql, w.args
	}
	if level, cells, ok := coverCells(spatial.lat, spatial.lon, spatial.r); ok {
		return cellsStatement(h, level, cells, cols, extra)
	}
	// A wide circle holding many Locations is read faster in id order,
	// checking the circle row by row (about limit / density rows), than
	// through the spatial index and a sort of every Location in it; one
	// holding few (open sea) the other way round. PostgreSQL cannot
	// estimate the circle's density, so one statement probes the spatial
	// index, counting up to WideProbe bounding-box entries, and runs only
	// the branch that suits.
	w2 := where{args: w.args}
	w2.structured(h, false)
	if h.After != nil {
		w2.add("id > " + w2.arg(h.After.ID))
	}
	probe := `WITH probe AS MATERIALIZED (SELECT ` + boxCount(spatial, s.probe) + ` < ` + fmt.Sprint(s.probe) + ` AS sparse)
`
	sel := `SELECT ` + qualified("") + extra + ` FROM ` + tableLocations
	sql = probe + `(` + sel + ` WHERE (SELECT sparse FROM probe) AND ` + w.String() + ` ORDER BY id LIMIT ` + limit + `)
UNION ALL
(` + sel + ` WHERE NOT (SELECT sparse FROM probe) AND ` + w2.String() + ` ORDER BY id LIMIT ` + limit + `)
ORDER BY 1`
	return sql, w2.args
}

// boxCount is the SQL of the number of public Locations in c's bounding
// box, counted through the spatial index up to limit (schema.go).
func boxCount(c *circle, limit int) string {
	return `storefinder_box_count(` + c.point + `, ` + c.radius + `, ` + fmt.Sprint(limit) + `)`
}

// cellsStatement reads a local circle cell by cell (see cells.go): one
// branch per covering cell reads that cell's rows in id order from its
// (cell, id) index, checking the circle and the other pushdowns row by row,
// and a Merge Append interleaves the branches in id order, so the statement
// stops after limit rows in all: it reads about limit × (rows of the cells ÷
// rows that match) rows, not limit from every cell. One branch per cell,
// each with its cell as a parameter, keeps the statement text (so its
// prepared plan) the same for every circle with as many cells. Each branch
// has the LIMIT too: without it, with parallel plans off (Config), the
// planner costs a dense cell's branch in full and reads and sorts the whole
// cell (2,400 buffers instead of 200 at 200k stores). It selects cols, then
// extra, like byIDStatement.
func cellsStatement(h finder.Hints, level int, cells []int64, cols []string, extra string) (string, []any) {
	var w where
	w.structured(h, false)
	if h.After != nil {
		w.add("id > " + w.arg(h.After.ID))
	}
	cond := w.String()
	list := strings.Join(cols, ", ")
	limit := w.arg(h.Limit)
	branches := make([]string, len(cells))
	for i, c := range cells {
		branches[i] = `(SELECT ` + list + ` FROM ` + tableLocations + ` WHERE ` + cond + ` AND ` + cellColumns[level] + ` = ` + w.arg(c) + ` ORDER BY id LIMIT ` + limit + `)`
	}
	return `SELECT ` + list + extra + ` FROM (` + strings.Join(branches, "\nUNION ALL\n") + `) AS x ORDER BY id LIMIT ` + limit, w.args
}

// where accumulates the SQL conditions and positional arguments of one
// statement.
type where struct {
	conds []string
	args  []any
}

func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return fmt.Sprintf("$%d", len(w.args))
}

func (w *where) add(cond string) { w.conds = append(w.conds, cond) }

func (w *where) String() string {
	return strings.Join(w.conds, " AND ")
}

// circle is a pushed-down distance circle: its centre and radius (margin
// included) and their placeholders.
type circle struct {
	point, radius string
	lat, lon, r   float64
}

// structured adds the conditions every candidate query shares: public rows
// only, and the exact or superset pushdowns of the structured query, with
// the distance circle either indexable (ST_DWithin) or checked row by row
// (_ST_DWithin). It returns the circle's placeholders, or nil when no
// circle was pushed down.
func (w *where) structured(h finder.Hints, indexed bool) *circle {
	var c *circle
	w.add("NOT private")
	d := h.Distance
	if d == nil {
		d = h.Query.Distance
	}
	if d != nil {
		r := d.Max*(1+marginRelative) + marginAbsolute
		if r >= halfMeridian || math.IsNaN(r) {
			w.add("geog IS NOT NULL")
		} else {
			c = &circle{
				point:  "ST_SetSRID(ST_MakePoint(" + w.arg(d.Center.Lon) + "::float8, " + w.arg(d.Center.Lat) + "::float8), 4326)::geography",
				radius: w.arg(r) + "::float8",
				lat:    d.Center.Lat, lon: d.Center.Lon, r: r,
			}
			fn := "ST_DWithin"
			if !indexed {
				fn = "_ST_DWithin"
			}
			w.add(fn + "(geog, " + c.point + ", " + c.radius + ", true)")
		}
	}
	f := h.Query.Filters
	if f.HasAmenities || len(f.Amenities) > 0 {
		w.add("amenities @> " + w.arg(nonNil(f.Amenities)) + "::text[]")
	}
	if len(f.Items) > 0 {
		if hasNUL(f.Items) {
			w.add("false") // no stored item id holds NUL
		} else {
			w.add("items @> " + w.arg(f.Items) + "::text[]")
		}
	}
	return c
}

// query runs a candidate statement and decodes each row's Location once.
func (s *Source) query(ctx context.Context, sql string, args []any) ([]finder.Candidate[location.Location], error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("postgis candidates: %w", err)
	}
	defer rows.Close()
	var out []finder.Candidate[location.Location]
	for rows.Next() {
		var id string
		var doc []byte
		var score float32
		if err := rows.Scan(&id, &doc, &score); err != nil {
			return nil, fmt.Errorf("postgis candidates: %w", err)
		}
		c, err := candidate(id, doc)
		if err != nil {
			return nil, err
		}
		c.Score = float64(score)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgis candidates: %w", err)
	}
	return out, nil
}

// candidate decodes a stored Location; Ref is the row's id.
func candidate(id string, doc []byte) (finder.Candidate[location.Location], error) {
	loc, err := location.DecodeLocation(doc)
	if err != nil {
		return finder.Candidate[location.Location]{}, fmt.Errorf("postgis: stored location %q no longer decodes: %w", id, err)
	}
	return finder.Candidate[location.Location]{Location: loc, Ref: id}, nil
}

// hasNUL reports a value holding U+0000, which no PostgreSQL text (so no
// stored id, alias or item) can hold: it matches nothing, as in memory,
// instead of failing the statement.
func hasNUL(values []string) bool {
	return slices.ContainsFunc(values, func(v string) bool { return strings.IndexByte(v, 0) >= 0 })
}

// Resolve implements finder.Source: ids and aliases in one statement.
func (s *Source) Resolve(ctx context.Context, keys []string) (map[string][]finder.Candidate[location.Location], error) {
	return call(s, ctx, func(ctx context.Context) (map[string][]finder.Candidate[location.Location], error) {
		return s.resolve(ctx, keys)
	})
}

func (s *Source) resolve(ctx context.Context, keys []string) (map[string][]finder.Candidate[location.Location], error) {
	out := map[string][]finder.Candidate[location.Location]{}
	if hasNUL(keys) {
		keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return strings.IndexByte(k, 0) >= 0 })
	}
	if len(keys) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `
SELECT k.key, l.id, l.doc FROM unnest($1::text[]) AS k(key)
	JOIN `+tableLocations+` l ON l.id = k.key COLLATE "C" AND NOT l.private
UNION ALL
SELECT k.key, l.id, l.doc FROM unnest($1::text[]) AS k(key)
	JOIN `+tableAliases+` a ON a.alias = k.key COLLATE "C"
	JOIN `+tableLocations+` l ON l.id = a.location_id AND NOT l.private`, keys)
	if err != nil {
		return nil, fmt.Errorf("postgis resolve: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, id string
		var doc []byte
		if err := rows.Scan(&key, &id, &doc); err != nil {
			return nil, fmt.Errorf("postgis resolve: %w", err)
		}
		c, err := candidate(id, doc)
		if err != nil {
			return nil, err
		}
		out[key] = append(out[key], c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgis resolve: %w", err)
	}
	return out, nil
}

// refs returns the row ids of cands, failing on a candidate this source did
// not produce.
func refs(cands []finder.Candidate[location.Location]) ([]string, error) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		id, ok := c.Ref.(string)
		if !ok {
			return nil, fmt.Errorf("postgis: candidate %d has ref %T, not this source's row id", i, c.Ref)
		}
		ids[i] = id
	}
	return ids, nil
}

// area is a row's service area as Serves evaluates it.
type area struct {
	present                    bool
	countries, regions, postal []string
	radius                     *float64
}

// Serves implements finder.Source: one statement reads the batch's service
// areas; the rules are evaluated in Go exactly as the in-memory store does.
func (s *Source) Serves(ctx context.Context, t predicate.Target, cands []finder.Candidate[location.Location]) ([]bool, error) {
	return call(s, ctx, func(ctx context.Context) ([]bool, error) { return s.serves(ctx, t, cands) })
}

func (s *Source) serves(ctx context.Context, t predicate.Target, cands []finder.Candidate[location.Location]) ([]bool, error) {
	if t.Key != "point" && t.Key != "address" {
		return nil, fmt.Errorf("%w: serves target %q", predicate.ErrUnevaluable, t.Key)
	}
	ids, err := refs(cands)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT id, sa_present, sa_countries, sa_regions, sa_postal_codes, sa_radius_m
		FROM `+tableLocations+` WHERE id = ANY($1::text[]) AND NOT private`, ids)
	if err != nil {
		return nil, fmt.Errorf("postgis serves: %w", err)
	}
	areas := make(map[string]area, len(ids))
	for rows.Next() {
		var id string
		var a area
		if err := rows.Scan(&id, &a.present, &a.countries, &a.regions, &a.postal, &a.radius); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgis serves: %w", err)
		}
		areas[id] = a
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgis serves: %w", err)
	}
	out := make([]bool, len(cands))
	for i, c := range cands {
		a, ok := areas[ids[i]]
		out[i] = ok && a.present && servesArea(a, c.Location, t)
	}
	return out, nil
}

// servesArea decides one candidate: a point within radius_m of the Location's
// geo by geodesic distance; an address whose every non-empty member is in
// the service area's list (countries as alpha-2 codes, which Load stores and
// the engine turns the request's country into; regions case-insensitively;
// postal codes exactly).
func servesArea(a area, l *location.Location, t predicate.Target) bool {
	switch t.Key {
	case "point":
		g, ok := l.Geo.Get()
		if a.radius == nil || !ok || t.Point == nil {
			return false
		}
		return geodesic.Within(geodesic.Point{Lat: g.Latitude, Lon: g.Longitude}, *t.Point, *a.radius)
	case "address":
		ad := t.Address
		if ad == nil {
			return false
		}
		return inList(a.countries, ad.Country, func(x, y string) bool { return x == y }) &&
			inList(a.regions, ad.Region, strings.EqualFold) &&
			inList(a.postal, ad.PostalCode, func(x, y string) bool { return x == y })
	}
	return false
}

// inList is true for an empty (absent) want, else when list holds it.
func inList(list []string, want string, eq func(string, string) bool) bool {
	if want == "" {
		return true
	}
	return slices.ContainsFunc(list, func(x string) bool { return eq(x, want) })
}

// Items implements finder.Source: one statement, array containment.
func (s *Source) Items(ctx context.Context, items []string, cands []finder.Candidate[location.Location]) ([]bool, error) {
	return call(s, ctx, func(ctx context.Context) ([]bool, error) { return s.items(ctx, items, cands) })
}

func (s *Source) items(ctx context.Context, items []string, cands []finder.Candidate[location.Location]) ([]bool, error) {
	ids, err := refs(cands)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, errors.New("postgis items: no item ids given")
	}
	if hasNUL(items) {
		return make([]bool, len(cands)), nil
	}
	rows, err := s.pool.Query(ctx, `SELECT id FROM `+tableLocations+`
		WHERE id = ANY($1::text[]) AND NOT private AND items @> $2::text[]`, ids, items)
	if err != nil {
		return nil, fmt.Errorf("postgis items: %w", err)
	}
	have, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgis items: %w", err)
	}
	ok := make(map[string]bool, len(have))
	for _, id := range have {
		ok[id] = true
	}
	out := make([]bool, len(cands))
	for i, id := range ids {
		out[i] = ok[id]
	}
	return out, nil
}

// Config parses dsn into a pool configuration suited to this source's short
// read statements: JIT compilation and parallel workers cost more to start
// than such a statement takes, so both are turned off for the session;
// every statement is planned with its parameters' values
// (plan_cache_mode=force_custom_plan), never with a generic plan; a
// statement may run StatementTimeout and a connection may take
// ConnectTimeout to open, so a hostile query or a hung server cannot hold
// a connection for long. The DSN's own values win.
func Config(dsn string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres DSN: %w", err)
	}
	rp := cfg.ConnConfig.RuntimeParams
	if _, set := rp["jit"]; !set {
		rp["jit"] = "off"
	}
	if _, set := rp["max_parallel_workers_per_gather"]; !set {
		rp["max_parallel_workers_per_gather"] = "0"
	}
	if _, set := rp["plan_cache_mode"]; !set {
		// pgx prepares each statement text once per connection; after five
		// runs PostgreSQL may switch a prepared statement to a generic plan
		// chosen without the parameters' values, and every statement here
		// depends on them (a circle's radius, a posting list's length, a
		// keyset position). Planning each run costs well under a
		// millisecond; a wrong generic plan cost seconds.
		rp["plan_cache_mode"] = "force_custom_plan"
	}
	if _, set := rp["application_name"]; !set {
		rp["application_name"] = "ucpgen-storefinder"
	}
	if _, set := rp["statement_timeout"]; !set {
		rp["statement_timeout"] = fmt.Sprint(StatementTimeout.Milliseconds())
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	return cfg, nil
}

// Connect opens a pool on dsn with Config's settings and checks that the
// server answers.
func Connect(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	cfg, err := Config(dsn)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return pool, nil
}

// Ping reports whether the database answers a trivial statement within
// timeout, for a readiness probe; it does not count toward outage logs.
func (s *Source) Ping(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgis ping: %w", err)
	}
	return nil
}

// PublicCount reports how many buyer-accessible Locations the database
// holds, for start-up logs and health checks.
func (s *Source) PublicCount(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM `+tableLocations+` WHERE NOT private`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count public locations: %w", err)
	}
	return n, nil
}
