// Command bench measures the store finder on PostGIS at scale: it loads the
// embedded dataset, replicates it inside the database to -n locations
// (jittered copies around the same metros), then times three request shapes
// through the generated service and counts database round trips per request:
//
//   - a 10 km search with an hours filter and an amenity filter;
//   - a 1,000 km search;
//   - a 50-id lookup;
//   - text-ranked searches ("express", "electronics", "harvest lane
//     market", "exp"), first page and page 5 (each page-5 request carries
//     the cursor of page 4, walked untimed before), and "express" within
//     50 km.
//
// With -memory it runs the same requests on the in-memory source built from
// the same rows, for comparison where that fits in memory.
//
//	eval "$(bash .ci/postgres.sh start)"
//	go run ./examples/storefinder/tools/postgisbench -dsn "$UCPGEN_POSTGRES_DSN" -n 1000000
//
// It writes to the database it is given (tables storefinder_*); point it at
// a scratch database.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// counter counts the statements a pool sends, one per round trip (pgx
// sends each Query or Exec as one extended-protocol exchange).
type counter struct{ n atomic.Int64 }

func (c *counter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *counter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func run() error {
	dsn := flag.String("dsn", os.Getenv("UCPGEN_POSTGRES_DSN"), "PostgreSQL DSN of a scratch database with PostGIS")
	n := flag.Int("n", 1_000_000, "number of locations after replication")
	reqs := flag.Int("requests", 300, "requests per shape")
	memory := flag.Bool("memory", false, "also run the in-memory source on the same rows")
	skipLoad := flag.Bool("skip-load", false, "reuse the rows a previous run loaded")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the PostGIS requests to this file")
	flag.Parse()
	if *dsn == "" {
		return fmt.Errorf("-dsn is required (or UCPGEN_POSTGRES_DSN)")
	}
	ctx := context.Background()
	cfg, err := postgis.Config(*dsn)
	if err != nil {
		return fmt.Errorf("-dsn: %w", err)
	}
	var trips counter
	cfg.ConnConfig.Tracer = &trips
	// Replicating rows takes minutes; the serving timeout is for requests.
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = "0"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer pool.Close()

	if !*skipLoad {
		if err := replicate(ctx, pool, *n); err != nil {
			return err
		}
	}
	var total int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM storefinder_locations`).Scan(&total); err != nil {
		return err
	}
	fmt.Printf("locations in PostGIS: %d\n\n", total)

	src, err := postgis.Open(ctx, pool, postgis.Options{})
	if err != nil {
		return err
	}
	svc, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		return err
	}
	rows, err := pool.Query(ctx, `SELECT id FROM storefinder_locations WHERE NOT private ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read ids: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("read ids: %w", err)
	}
	base, err := sample.Default()
	if err != nil {
		return err
	}
	shapes := requests(base, ids, *reqs)
	texts, err := textShapes(ctx, svc, *reqs)
	if err != nil {
		return err
	}
	shapes = append(shapes, texts...)
	fmt.Println("| source | request | p50 | p99 | round trips / request | locations returned / request |")
	fmt.Println("|---|---|---|---|---|---|")
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	for _, sh := range shapes {
		r, err := measure(ctx, svc, sh, &trips.n)
		if err != nil {
			return fmt.Errorf("postgis %s: %w", sh.name, err)
		}
		fmt.Printf("| PostGIS | %s | %s | %s | %s | %.1f |\n", sh.name, r.p50, r.p99, r.trips, r.returned)
	}
	if *memory {
		return runMemory(ctx, pool, shapes)
	}
	return nil
}

// replicate loads the embedded dataset, then adds jittered copies inside
// the database until it holds about n locations; the indexes are rebuilt
// once at the end, which is much faster than maintaining them per row.
func replicate(ctx context.Context, pool *pgxpool.Pool, n int) error {
	recs, err := sample.Default()
	if err != nil {
		return err
	}
	start := time.Now()
	if _, err := postgis.Load(ctx, pool, recs); err != nil {
		return err
	}
	copies := (n - len(recs) + len(recs) - 1) / len(recs)
	if copies <= 0 {
		return nil
	}
	steps := []string{
		`DROP INDEX IF EXISTS storefinder_locations_geog, storefinder_locations_items,
			storefinder_locations_cell0, storefinder_locations_cell1,
			storefinder_locations_cell_amenities`,
		`ALTER TABLE storefinder_postings DROP CONSTRAINT IF EXISTS storefinder_postings_pkey`,
		`DELETE FROM storefinder_postings WHERE id LIKE '%-r%'`,
		// A copy has its original's text, so its original's postings.
		`INSERT INTO storefinder_postings (term, neg_weight, id)
		SELECT p.term, p.neg_weight, p.id || '-r' || k
		FROM storefinder_postings p
		JOIN storefinder_locations l ON l.id = p.id
		CROSS JOIN generate_series(1, ` + fmt.Sprint(copies) + `) AS k
		WHERE l.geog IS NOT NULL AND l.id NOT LIKE '%-r%'`,
		// Each copy k moves a store by a deterministic pseudo-random offset
		// of up to ±0.25° in each axis, so density follows the metros.
		`INSERT INTO storefinder_locations (id, doc, digest, private, geog, cell0, cell1, amenities, items,
			sa_present, sa_countries, sa_regions, sa_postal_codes, sa_radius_m,
			text_name, text_address, text_amenities)
		SELECT c.id, c.doc, sha256(convert_to(c.doc, 'UTF8')), l.private,
			ST_SetSRID(ST_MakePoint(j.lon::float8, j.lat::float8), 4326)::geography,
			` + postgis.CellExpressions("j.lat::float8", "j.lon::float8") + `,
			l.amenities, l.items, l.sa_present, l.sa_countries, l.sa_regions, l.sa_postal_codes, l.sa_radius_m,
			l.text_name, l.text_address, l.text_amenities
		FROM storefinder_locations l
		CROSS JOIN generate_series(1, ` + fmt.Sprint(copies) + `) AS k
		CROSS JOIN LATERAL (SELECT
			greatest(-89.9, least(89.9, ST_Y(l.geog::geometry) + ((hashtext(l.id || 'a' || k) & 65535) / 65535.0 - 0.5) / 2))::numeric(10,6) AS lat,
			(((ST_X(l.geog::geometry) + ((hashtext(l.id || 'o' || k) & 65535) / 65535.0 - 0.5) / 2 + 540)::numeric % 360) - 180)::numeric(10,6) AS lon) AS j
		CROSS JOIN LATERAL (SELECT l.id || '-r' || k AS id,
			jsonb_set(jsonb_set(jsonb_set(l.doc::jsonb, '{id}', to_jsonb(l.id || '-r' || k)),
				'{geo,latitude}', to_jsonb(j.lat)), '{geo,longitude}', to_jsonb(j.lon))::text AS doc) AS c
		WHERE l.geog IS NOT NULL AND l.id NOT LIKE '%-r%'`,
		`CREATE INDEX storefinder_locations_geog ON storefinder_locations USING gist (geog) WHERE NOT private`,
		`ALTER TABLE storefinder_postings ADD PRIMARY KEY (term, neg_weight, id)`,
		`CREATE INDEX storefinder_locations_items ON storefinder_locations USING gin (items) WHERE NOT private`,
		`CREATE INDEX storefinder_locations_cell0 ON storefinder_locations (cell0, id) WHERE NOT private`,
		`CREATE INDEX storefinder_locations_cell1 ON storefinder_locations (cell1, id) WHERE NOT private`,
		`CREATE INDEX storefinder_locations_cell_amenities ON storefinder_locations USING gin (cell0, cell1, amenities) WHERE NOT private`,
		`ANALYZE storefinder_locations`,
		`ANALYZE storefinder_postings`,
	}
	for _, s := range steps {
		if _, err := pool.Exec(ctx, s); err != nil {
			return fmt.Errorf("replicate: %s: %w", strings.Fields(s)[0], err)
		}
	}
	fmt.Fprintf(os.Stderr, "bench: loaded and replicated %d copies in %s\n", copies, time.Since(start).Round(time.Second))
	return nil
}

// shape is one kind of request, with its bodies.
type shape struct {
	name   string
	lookup bool
	bodies []string
}

// requests builds the three shapes deterministically: centres near stores
// of the embedded dataset, lookup ids drawn from every public id.
func requests(base []dataset.Record, ids []string, n int) []shape {
	rng := rand.New(rand.NewPCG(7, 11))
	var geos [][2]float64
	for _, r := range base {
		var l struct {
			Geo *struct{ Latitude, Longitude float64 } `json:"geo"`
		}
		if json.Unmarshal(r.Location, &l) == nil && l.Geo != nil && !r.Private {
			geos = append(geos, [2]float64{l.Geo.Latitude, l.Geo.Longitude})
		}
	}
	center := func() string {
		g := geos[rng.IntN(len(geos))]
		return fmt.Sprintf(`{"latitude":%.6f,"longitude":%.6f}`, g[0]+rng.Float64()*0.2-0.1, g[1]+rng.Float64()*0.2-0.1)
	}
	near := shape{name: "10 km + hours + amenity search"}
	far := shape{name: "1,000 km search"}
	look := shape{name: "50-id lookup", lookup: true}
	for range n {
		near.bodies = append(near.bodies, `{"distance":{"center":`+center()+`,"max":10000},"filters":{"hours":{"open_at":"2026-12-02T17:00:00Z"},"amenities":["dev.ucp.amenity.parking"]}}`)
		far.bodies = append(far.bodies, `{"distance":{"center":`+center()+`,"max":1000000}}`)
		pick := make([]string, 50)
		for i := range pick {
			pick[i] = ids[rng.IntN(len(ids))]
		}
		b, _ := json.Marshal(map[string]any{"ids": pick})
		look.bodies = append(look.bodies, string(b))
	}
	return []shape{near, far, look}
}

// result is what one shape measured.
type result struct {
	p50, p99 time.Duration
	trips    string
	returned float64
}

// measure runs every body of sh once, sequentially, so the round-trip
// counter's delta belongs to one request.
func measure(ctx context.Context, svc *location.Service, sh shape, trips *atomic.Int64) (result, error) {
	var lat []time.Duration
	var tr []int64
	var returned int
	var slowest string
	for _, b := range sh.bodies {
		before := int64(0)
		if trips != nil {
			before = trips.Load()
		}
		start := time.Now()
		if sh.lookup {
			req, err := location.DecodeLookupRequest([]byte(b))
			if err != nil {
				return result{}, err
			}
			resp, err := svc.LookupLocations(ctx, nil, req)
			if err != nil {
				return result{}, err
			}
			returned += len(resp.Locations)
		} else {
			req, err := location.DecodeSearchRequest([]byte(b))
			if err != nil {
				return result{}, err
			}
			resp, err := svc.SearchLocations(ctx, nil, req)
			if err != nil {
				return result{}, err
			}
			returned += len(resp.Locations)
		}
		el := time.Since(start)
		if len(lat) == 0 || el > slices.Max(lat) {
			slowest = b
		}
		lat = append(lat, el)
		if trips != nil {
			tr = append(tr, trips.Load()-before)
		}
	}
	fmt.Fprintf(os.Stderr, "bench: slowest %s: %s\n", sh.name, slowest)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{
		p50:      lat[len(lat)/2].Round(10 * time.Microsecond),
		p99:      lat[len(lat)*99/100].Round(10 * time.Microsecond),
		trips:    "0 (in process)",
		returned: float64(returned) / float64(len(sh.bodies)),
	}
	if trips != nil {
		var sum int64
		for _, t := range tr {
			sum += t
		}
		r.trips = fmt.Sprintf("%.2f (max %d)", float64(sum)/float64(len(tr)), slices.Max(tr))
	}
	return r, nil
}

// runMemory reads the same rows back as dataset records and runs the same
// requests on the in-memory source.
func runMemory(ctx context.Context, pool *pgxpool.Pool, shapes []shape) error {
	rows, err := pool.Query(ctx, `SELECT l.id, l.doc, l.private, l.items, l.sa_present, l.sa_countries,
		l.sa_regions, l.sa_postal_codes, l.sa_radius_m,
		coalesce((SELECT array_agg(a.alias ORDER BY a.alias) FROM storefinder_aliases a WHERE a.location_id = l.id), '{}')
		FROM storefinder_locations l ORDER BY l.id`)
	if err != nil {
		return fmt.Errorf("read rows back: %w", err)
	}
	var recs []dataset.Record
	for rows.Next() {
		var r dataset.Record
		var doc string
		var present bool
		var sa dataset.ServiceArea
		if err := rows.Scan(&r.ID, &doc, &r.Private, &r.Items, &present, &sa.Countries, &sa.Regions, &sa.PostalCodes, &sa.RadiusM, &r.Aliases); err != nil {
			rows.Close()
			return fmt.Errorf("read rows back: %w", err)
		}
		r.Location = json.RawMessage(doc)
		if present {
			r.ServiceArea = &sa
		}
		recs = append(recs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read rows back: %w", err)
	}
	start := time.Now()
	svc, err := memoryService(recs)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: in-memory source over %d records built in %s\n", len(recs), time.Since(start).Round(time.Millisecond))
	for _, sh := range shapes {
		r, err := measure(ctx, svc, sh, nil)
		if err != nil {
			return fmt.Errorf("memory %s: %w", sh.name, err)
		}
		fmt.Printf("| in-memory | %s | %s | %s | %s | %.1f |\n", sh.name, r.p50, r.p99, r.trips, r.returned)
	}
	return nil
}

// textShapes builds the ranked searches: the first page of each text, and
// page 5 with a cursor the service minted by walking pages 1-4 (untimed,
// here), so page 5 measures one cursor request as an agent sends it.
func textShapes(ctx context.Context, svc *location.Service, n int) ([]shape, error) {
	var out []shape
	for _, text := range []string{"express", "electronics", "harvest lane market", "exp"} {
		body := fmt.Sprintf(`{"query":%q}`, text)
		first := shape{name: fmt.Sprintf("text %q, first page", text)}
		fifth := shape{name: fmt.Sprintf("text %q, page 5", text)}
		cursor := ""
		for range 4 {
			b := body
			if cursor != "" {
				b = fmt.Sprintf(`{"query":%q,"pagination":{"cursor":%q}}`, text, cursor)
			}
			req, err := location.DecodeSearchRequest([]byte(b))
			if err != nil {
				return nil, err
			}
			resp, err := svc.SearchLocations(ctx, nil, req)
			if err != nil {
				return nil, fmt.Errorf("walk %q: %w", text, err)
			}
			p, _ := resp.Pagination.Get()
			cursor = p.Cursor.V
			if cursor == "" {
				return nil, fmt.Errorf("walk %q: no page after %d", text, 4)
			}
		}
		for range n {
			first.bodies = append(first.bodies, body)
			fifth.bodies = append(fifth.bodies, fmt.Sprintf(`{"query":%q,"pagination":{"cursor":%q}}`, text, cursor))
		}
		out = append(out, first, fifth)
	}
	near := shape{name: `text "express" within 50 km`}
	rng := rand.New(rand.NewPCG(3, 5))
	for range n {
		c := centers50[rng.IntN(len(centers50))]
		near.bodies = append(near.bodies, fmt.Sprintf(`{"query":"express","distance":{"center":{"latitude":%g,"longitude":%g},"max":50000}}`, c[0], c[1]))
	}
	return append(out, near), nil
}

// centers50 are metro centres of the embedded dataset.
var centers50 = [][2]float64{{40.7831, -73.9712}, {51.5074, -0.1278}, {41.8781, -87.6298}, {34.0522, -118.2437}, {35.6762, 139.6503}, {52.52, 13.405}}
