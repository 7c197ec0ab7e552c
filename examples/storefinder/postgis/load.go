package postgis

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// LoadStats says what a Load changed, so an operator can see that a reload
// of an unchanged file wrote nothing.
type LoadStats struct {
	// Records is the number of records in the loaded dataset.
	Records int
	// Inserted, Updated and Deleted count location rows by what happened to
	// them; an unchanged row counts in none.
	Inserted, Updated, Deleted int
}

// row is one dataset record as the table stores it.
type row struct {
	id, doc                        string
	digest                         []byte
	private                        bool
	lat, lon                       *float64
	amenities, items               []string
	saPresent                      bool
	countries, regions, postal     []string
	radius                         *float64
	textName, textAddr, textAmenit string
}

// Load makes the database hold exactly recs: it migrates the schema, then in
// one transaction inserts new records, rewrites changed ones, deletes the
// ones recs no longer has, and reconciles aliases. Loading the same records
// twice changes nothing the second time. Readers keep seeing the previous
// dataset until the transaction commits. An invalid record is a
// *dataset.FieldError naming its index and the JSON Pointer of the value.
func Load(ctx context.Context, pool *pgxpool.Pool, recs []dataset.Record) (LoadStats, error) {
	st := LoadStats{Records: len(recs)}
	rows := make([]row, len(recs))
	seen := make(map[string]int, len(recs))
	for i, rec := range recs {
		r, err := toRow(i, rec)
		if err != nil {
			return st, err
		}
		for j, k := range append([]string{r.id}, rec.Aliases...) {
			if prev, dup := seen[k]; dup {
				ptr := "/location/id"
				if j > 0 {
					ptr = "/aliases/" + strconv.Itoa(j-1)
				}
				return st, fieldErr(i, ptr, "identifier %q is already used by record %d", k, prev)
			}
			seen[k] = i
		}
		rows[i] = r
	}
	if err := Migrate(ctx, pool); err != nil {
		return st, err
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return loadTx(ctx, tx, recs, rows, &st)
	})
	if err != nil {
		return LoadStats{Records: len(recs)}, fmt.Errorf("load %d records: %w", len(recs), err)
	}
	return st, nil
}

func loadTx(ctx context.Context, tx pgx.Tx, recs []dataset.Record, rows []row, st *LoadStats) error {
	// One loader at a time; readers are not blocked by this lock mode.
	if _, err := tx.Exec(ctx, `LOCK TABLE `+tableLocations+`, `+tableAliases+` IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return fmt.Errorf("lock tables: %w", err)
	}
	if _, err := tx.Exec(ctx, `
CREATE TEMP TABLE storefinder_stage (
	id text COLLATE "C" PRIMARY KEY, doc text, digest bytea, private boolean,
	lat double precision, lon double precision, amenities text[], items text[],
	sa_present boolean, sa_countries text[], sa_regions text[], sa_postal_codes text[],
	sa_radius_m double precision, text_name text, text_address text, text_amenities text
) ON COMMIT DROP;
CREATE TEMP TABLE storefinder_stage_aliases (
	alias text COLLATE "C" PRIMARY KEY, location_id text COLLATE "C"
) ON COMMIT DROP;`); err != nil {
		return fmt.Errorf("create staging tables: %w", err)
	}
	cols := []string{"id", "doc", "digest", "private", "lat", "lon", "amenities", "items",
		"sa_present", "sa_countries", "sa_regions", "sa_postal_codes", "sa_radius_m",
		"text_name", "text_address", "text_amenities"}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"storefinder_stage"}, cols, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		r := &rows[i]
		return []any{r.id, r.doc, r.digest, r.private, r.lat, r.lon, r.amenities, r.items,
			r.saPresent, r.countries, r.regions, r.postal, r.radius,
			r.textName, r.textAddr, r.textAmenit}, nil
	}))
	if err != nil {
		return fmt.Errorf("copy records into staging: %w", err)
	}
	var aliases [][]any
	for i, rec := range recs {
		for _, a := range rec.Aliases {
			aliases = append(aliases, []any{a, rows[i].id})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"storefinder_stage_aliases"}, []string{"alias", "location_id"}, pgx.CopyFromRows(aliases)); err != nil {
		return fmt.Errorf("copy aliases into staging: %w", err)
	}

	tag, err := tx.Exec(ctx, `DELETE FROM `+tableLocations+` l WHERE NOT EXISTS (SELECT 1 FROM storefinder_stage s WHERE s.id = l.id)`)
	if err != nil {
		return fmt.Errorf("delete removed records: %w", err)
	}
	st.Deleted = int(tag.RowsAffected())
	if _, err := tx.Exec(ctx, `DELETE FROM `+tableAliases+` a WHERE NOT EXISTS (
		SELECT 1 FROM storefinder_stage_aliases s WHERE s.alias = a.alias AND s.location_id = a.location_id)`); err != nil {
		return fmt.Errorf("delete removed aliases: %w", err)
	}
	var inserted, updated int
	err = tx.QueryRow(ctx, `
WITH up AS (
	INSERT INTO `+tableLocations+` AS l (id, doc, digest, private, geog, cell0, cell1, amenities, items,
		sa_present, sa_countries, sa_regions, sa_postal_codes, sa_radius_m,
		text_name, text_address, text_amenities)
	SELECT id, doc, digest, private,
		CASE WHEN lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography END,
		`+CellExpressions("lat", "lon")+`,
		amenities, items, sa_present, sa_countries, sa_regions, sa_postal_codes, sa_radius_m,
		text_name, text_address, text_amenities
	FROM storefinder_stage
	ON CONFLICT (id) DO UPDATE SET
		doc = EXCLUDED.doc, digest = EXCLUDED.digest, private = EXCLUDED.private,
		geog = EXCLUDED.geog, cell0 = EXCLUDED.cell0, cell1 = EXCLUDED.cell1,
		amenities = EXCLUDED.amenities, items = EXCLUDED.items,
		sa_present = EXCLUDED.sa_present, sa_countries = EXCLUDED.sa_countries,
		sa_regions = EXCLUDED.sa_regions, sa_postal_codes = EXCLUDED.sa_postal_codes,
		sa_radius_m = EXCLUDED.sa_radius_m, text_name = EXCLUDED.text_name,
		text_address = EXCLUDED.text_address, text_amenities = EXCLUDED.text_amenities
	WHERE l.digest <> EXCLUDED.digest
	RETURNING (xmax = 0) AS inserted
)
SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM up`).Scan(&inserted, &updated)
	if err != nil {
		return fmt.Errorf("upsert records: %w", err)
	}
	st.Inserted, st.Updated = inserted, updated
	if _, err := tx.Exec(ctx, `INSERT INTO `+tableAliases+` AS a (alias, location_id)
		SELECT alias, location_id FROM storefinder_stage_aliases
		ON CONFLICT (alias) DO UPDATE SET location_id = EXCLUDED.location_id
		WHERE a.location_id <> EXCLUDED.location_id`); err != nil {
		return fmt.Errorf("upsert aliases: %w", err)
	}
	return nil
}

func fieldErr(i int, rel, format string, args ...any) *dataset.FieldError {
	return &dataset.FieldError{Index: i, Pointer: "/" + strconv.Itoa(i) + rel, Reason: fmt.Sprintf(format, args...)}
}

// toRow validates one record the way the in-memory store does (the
// generated schema check plus the rules the store needs to answer
// faithfully) and derives the indexed columns from it.
func toRow(i int, rec dataset.Record) (row, error) {
	loc, err := location.DecodeLocation(rec.Location)
	if err != nil {
		if ip, ok := rpcerr.AsInvalidParams(err); ok && len(ip.Violations) > 0 {
			first := ip.Violations[0]
			return row{}, fieldErr(i, "/location"+first.Pointer, "not a valid UCP Location: %s", first.Message)
		}
		return row{}, fieldErr(i, "/location", "not a valid UCP Location: %v", err)
	}
	if loc.ID == "" {
		return row{}, fieldErr(i, "/location/id", "must not be empty")
	}
	if rec.ID != "" && rec.ID != loc.ID {
		return row{}, fieldErr(i, "/location/id", "record id %q differs from the Location id %q", rec.ID, loc.ID)
	}
	if loc.Name == "" {
		return row{}, fieldErr(i, "/location/name", "must not be empty")
	}
	r := row{id: loc.ID, doc: string(rec.Location), private: rec.Private, items: nonNil(rec.Items)}
	if g, ok := loc.Geo.Get(); ok {
		if !(g.Latitude >= -90 && g.Latitude <= 90) {
			return row{}, fieldErr(i, "/location/geo/latitude", "must be within -90..90 degrees, got %v", g.Latitude)
		}
		if !(g.Longitude >= -180 && g.Longitude <= 180) {
			return row{}, fieldErr(i, "/location/geo/longitude", "must be within -180..180 degrees, got %v", g.Longitude)
		}
		lat, lon := g.Latitude, g.Longitude
		r.lat, r.lon = &lat, &lon
	}
	if (loc.Hours.Set || loc.ExceptionHours.Set) && loc.Timezone.V == "" {
		return row{}, fieldErr(i, "/location/timezone", "required when hours or exception_hours are present")
	}
	cand := loc.PredicateCandidate()
	if _, err := cand.Schedule.Compile(); err != nil {
		return row{}, fieldErr(i, "/location"+hours.Pointer(err), "unusable schedule: %v", err)
	}
	if sa := rec.ServiceArea; sa != nil {
		r.saPresent = true
		r.regions, r.postal = nonNil(sa.Regions), nonNil(sa.PostalCodes)
		r.countries = []string{}
		for j, c := range sa.Countries {
			code, ok := country.Normalize(c)
			if !ok {
				return row{}, fieldErr(i, "/service_area/countries/"+strconv.Itoa(j), "%q is not an ISO 3166-1 country", c)
			}
			r.countries = append(r.countries, code)
		}
		if sa.RadiusM != nil {
			if v := *sa.RadiusM; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return row{}, fieldErr(i, "/service_area/radius_m", "must be a finite number of meters >= 0, got %v", v)
			}
			if !loc.Geo.Set {
				return row{}, fieldErr(i, "/service_area/radius_m", "needs the Location's geo to measure from")
			}
			v := *sa.RadiusM
			r.radius = &v
		}
	} else {
		r.countries, r.regions, r.postal = []string{}, []string{}, []string{}
	}
	r.amenities = []string{}
	var labels []string
	if am, ok := loc.Amenities.Get(); ok {
		for k := range am {
			r.amenities = append(r.amenities, string(k))
		}
		slices.Sort(r.amenities)
		for _, k := range r.amenities {
			labels = append(labels, am[location.AmenityType(k)].Description)
		}
	}
	r.textName = loc.Name
	if a, ok := loc.Address.Get(); ok {
		var parts []string
		for _, v := range []opt.Value[string]{a.StreetAddress, a.AddressLocality, a.AddressRegion, a.PostalCode, a.AddressCountry} {
			if v.Set {
				parts = append(parts, v.V)
			}
		}
		r.textAddr = strings.Join(parts, " ")
	}
	r.textAmenit = strings.Join(labels, " ")
	canon, err := json.Marshal(rec)
	if err != nil {
		return row{}, fieldErr(i, "", "encode record for its digest: %v", err)
	}
	sum := sha256.Sum256(canon)
	r.digest = sum[:]
	return r, nil
}

// nonNil returns s, or an empty slice for nil, so array columns hold '{}'
// rather than NULL.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
