package postgis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Table names; prefixed so the source can share a database with other
// applications without clashing with a generic "locations" table. The
// prefix is the one the tables had when this source was the store finder
// example's, kept so that databases loaded then still open.
const (
	tableLocations  = "storefinder_locations"
	tableAliases    = "storefinder_aliases"
	tableMigrations = "storefinder_migrations"
	tablePostings   = "storefinder_postings"
)

// migration is one schema version: SQL, then an optional step in Go for
// what SQL cannot compute (text postings need textrank's tokenizer), both
// in the same transaction.
type migration struct {
	sql  string
	fill func(ctx context.Context, tx pgx.Tx) error
}

// migrations are applied in order, each once, each in its own transaction;
// a released migration is never edited, only followed by a new one.
var migrations = []migration{
	// 1: the locations, their aliases, and the indexes the queries use.
	{sql: `
CREATE EXTENSION IF NOT EXISTS postgis;

CREATE TABLE storefinder_locations (
	-- COLLATE "C" makes ORDER BY id the byte-wise order of finder.ByID and
	-- lets the primary key serve keyset pagination.
	id              text COLLATE "C" PRIMARY KEY,
	-- The UCP Location JSON exactly as loaded; decoded by the server.
	doc             text NOT NULL,
	-- SHA-256 of the whole dataset record, so a reload rewrites only the
	-- rows that changed.
	digest          bytea NOT NULL,
	private         boolean NOT NULL DEFAULT false,
	geog            geography(Point, 4326),
	-- Grid cells of geog at 0.1 and 1 degree (cells.go), so a local
	-- distance search reads each covering cell in id order.
	cell0           bigint,
	cell1           bigint,
	amenities       text[] COLLATE "C" NOT NULL DEFAULT '{}',
	items           text[] COLLATE "C" NOT NULL DEFAULT '{}',
	-- service_area: sa_present false means the record has none.
	sa_present      boolean NOT NULL DEFAULT false,
	sa_countries    text[] NOT NULL DEFAULT '{}',
	sa_regions      text[] NOT NULL DEFAULT '{}',
	sa_postal_codes text[] COLLATE "C" NOT NULL DEFAULT '{}',
	sa_radius_m     double precision,
	-- Searchable text by field weight: name, address, amenity labels.
	text_name       text NOT NULL DEFAULT '',
	text_address    text NOT NULL DEFAULT '',
	text_amenities  text NOT NULL DEFAULT '',
	search          tsvector GENERATED ALWAYS AS (
		setweight(to_tsvector('simple', text_name), 'A') ||
		setweight(to_tsvector('simple', text_address), 'B') ||
		setweight(to_tsvector('simple', text_amenities), 'C')) STORED,
	CHECK (sa_radius_m IS NULL OR sa_radius_m >= 0)
);

CREATE INDEX storefinder_locations_geog ON storefinder_locations USING gist (geog) WHERE NOT private;
CREATE INDEX storefinder_locations_cell0 ON storefinder_locations (cell0, id) WHERE NOT private;
CREATE INDEX storefinder_locations_cell1 ON storefinder_locations (cell1, id) WHERE NOT private;
CREATE INDEX storefinder_locations_search ON storefinder_locations USING gin (search) WHERE NOT private;
CREATE INDEX storefinder_locations_items ON storefinder_locations USING gin (items) WHERE NOT private;

CREATE TABLE storefinder_aliases (
	alias       text COLLATE "C" PRIMARY KEY,
	location_id text COLLATE "C" NOT NULL REFERENCES storefinder_locations (id) ON DELETE CASCADE
);
CREATE INDEX storefinder_aliases_location ON storefinder_aliases (location_id);
`},
	// 2: text postings (postings.go), backfilled from the rows a database
	// already holds, so relevance pages read O(page) rows.
	{sql: `
CREATE TABLE storefinder_postings (
	-- A textrank token of a public Location's text.
	term       text COLLATE "C" NOT NULL,
	-- Minus the largest weight of the fields holding term (name 3, address
	-- 2, amenities 1): ascending index order is best first, and the keyset
	-- (neg_weight, id) > ($w, $id) is one index range.
	neg_weight smallint NOT NULL CHECK (neg_weight BETWEEN -3 AND -1),
	id         text COLLATE "C" NOT NULL,
	PRIMARY KEY (term, neg_weight, id)
);
-- The tsvector ranked differently from the in-memory store; postings
-- replace it.
DROP INDEX storefinder_locations_search;
ALTER TABLE storefinder_locations DROP COLUMN search;
`, fill: backfillPostings},
	// 3: cells and amenity keys in one GIN index (btree_gin gives bigint
	// columns GIN entries), so a local circle with an amenity filter fetches
	// only the rows of each covering cell that hold the amenities (a bitmap
	// of both conditions) instead of every row of dense cells: at 200k
	// stores, 10 km with one amenity read 4,600 heap buffers through the
	// (cell, id) indexes and about 300 through this one.
	{sql: `
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX IF NOT EXISTS storefinder_locations_cell_amenities ON storefinder_locations
	USING gin (cell0, cell1, amenities) WHERE NOT private;

-- The bounded count of a circle's bounding box that decides how a wide or
-- ranked circle is read. Inline, once the table has statistics, the
-- planner read it with a sequential scan that stops at the cap, which is
-- cheap where the box's rows come early in the heap and reads most of the
-- table where they come late (130 ms for 1,000 km around Los Angeles at
-- 200k stores, against 5 through the spatial index). Its own settings
-- leave the planner only the spatial index.
CREATE OR REPLACE FUNCTION storefinder_box_count(center geography, radius double precision, cap integer)
	RETURNS bigint LANGUAGE sql STABLE
	SET enable_seqscan = off
	AS $$SELECT count(*) FROM (SELECT 1 FROM storefinder_locations
		WHERE NOT private AND geog && _ST_Expand(center, radius) LIMIT cap) AS p$$;
`},
}

// migrationPurpose says in a few words what each version adds, for the
// error that refuses an older database.
var migrationPurpose = []string{
	"the locations and aliases tables",
	"text postings for ranked search",
	"a cell and amenity index for local amenity searches, a bounded bounding-box count",
}

// migrationLock is the advisory lock key that serialises concurrent
// migrators (several replicas starting at once).
const migrationLock = 0x75637067656e // "ucpgen"

// Migrate brings the schema to the newest version, so a fresh database and
// an older one both end up with the tables this package queries. It writes,
// so run it against the primary, never against a standby.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: acquire connection: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
		return fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLock))
	}()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+tableMigrations+` (
		version integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("migrate: create %s: %w", tableMigrations, err)
	}
	var have int
	if err := conn.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+tableMigrations).Scan(&have); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("migrate: database schema version %d is newer than this program's %d; upgrade the program", have, len(migrations))
	}
	for v := have + 1; v <= len(migrations); v++ {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			m := migrations[v-1]
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			if m.fill != nil {
				if err := m.fill(ctx, tx); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, `INSERT INTO `+tableMigrations+` (version) VALUES ($1)`, v)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: apply version %d: %w", v, err)
		}
	}
	return nil
}

// ErrSchema reports a database whose schema this program cannot read (not
// migrated, or migrated by a newer program), so serving fails at start-up
// instead of on the first request.
var ErrSchema = errors.New("storefinder schema not usable")

// checkSchema verifies, read-only, that the database holds exactly the
// schema version this program was written for.
func checkSchema(ctx context.Context, pool *pgxpool.Pool) error {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, tableMigrations).Scan(&exists); err != nil {
		return fmt.Errorf("check schema: %w", err)
	}
	if !exists {
		return fmt.Errorf("%w: table %s is missing; load a dataset (Load or LoadFile) or run Migrate first", ErrSchema, tableMigrations)
	}
	var have int
	if err := pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+tableMigrations).Scan(&have); err != nil {
		return fmt.Errorf("check schema: read version: %w", err)
	}
	if have < len(migrations) {
		return fmt.Errorf("%w: database is at version %d, this program needs %d (%s); migrate it by loading a dataset (Load or LoadFile) or with Migrate against the primary",
			ErrSchema, have, len(migrations), strings.Join(migrationPurpose[max(have, 0):], "; "))
	}
	if have != len(migrations) {
		return fmt.Errorf("%w: database is at version %d, this program needs %d", ErrSchema, have, len(migrations))
	}
	return nil
}
