package postgis

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
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
// dataset until the transaction commits; on a first load, into empty
// tables, they wait for the commit instead (see deferIndexes). An invalid
// record is a *dataset.FieldError naming its index and the JSON Pointer of
// the value.
func Load(ctx context.Context, pool *pgxpool.Pool, recs []dataset.Record) (LoadStats, error) {
	each := func(fn func(int, dataset.Record) error) error {
		for i, rec := range recs {
			if err := fn(i, rec); err != nil {
				return err
			}
		}
		return nil
	}
	return load(ctx, pool, each, func() error { return checkRecords(recs) })
}

// LoadFile is Load for the dataset file at path, streamed: it parses the
// file and copies its records into the database in batches of loadBatch,
// so the memory it needs does not grow with the file (PostgreSQL's keys
// enforce unique ids and aliases). An invalid file is reported exactly as
// dataset.ParseFile and Load would report it, naming the first broken
// record's JSON Pointer; finding that error reads the file once more.
func LoadFile(ctx context.Context, pool *pgxpool.Pool, path string) (LoadStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return LoadStats{}, err
	}
	defer f.Close()
	each := func(fn func(int, dataset.Record) error) error {
		return dataset.Each(f, fn)
	}
	return load(ctx, pool, each, func() error { return checkFile(path) })
}

// LoadRecords is Load for records a Business streams from its own data (a
// catalogue, another database): recs yields each record, or an error that
// stops the load, and the records are copied in batches as LoadFile copies
// a file's, so memory grows with the identifiers kept to name a duplicate,
// not with the records. A record is only read during its yield. An invalid
// record is a *dataset.FieldError naming its index in the sequence; nothing
// is written unless every record is valid.
func LoadRecords(ctx context.Context, pool *pgxpool.Pool, recs iter.Seq2[dataset.Record, error]) (LoadStats, error) {
	var idents []dataset.Record
	each := func(fn func(int, dataset.Record) error) error {
		i := 0
		for rec, err := range recs {
			if err != nil {
				return fmt.Errorf("record %d: %w", i, err)
			}
			if err := fn(i, rec); err != nil {
				return err
			}
			id := rec.ID
			if id == "" { // valid, so its id decodes (toRow checked it)
				var l struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(rec.Location, &l)
				id = l.ID
			}
			idents = append(idents, dataset.Record{ID: strings.Clone(id), Aliases: slices.Clone(rec.Aliases)})
			i++
		}
		return nil
	}
	return load(ctx, pool, each, func() error { return dataset.CheckIdentifiers(idents) })
}

// loadBatch is the number of records copied per COPY; a variable so tests
// can make batch boundaries occur in a small dataset.
var loadBatch = 4096

// errInvalid marks a load that failed because of the data, not the
// database: the caller then computes the error the user should see.
var errInvalid = errors.New("dataset is invalid")

// uniqueViolation is PostgreSQL's SQLSTATE for a duplicate key.
const uniqueViolation = "23505"

// load runs one loading transaction over the records each yields. When the
// data turns out invalid, exact names the error to report, so streaming
// never changes which problem a user is told about first.
func load(ctx context.Context, pool *pgxpool.Pool, each func(func(int, dataset.Record) error) error, exact func() error) (LoadStats, error) {
	var st LoadStats
	if err := Migrate(ctx, pool); err != nil {
		return st, err
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return loadTx(ctx, tx, each, &st)
	})
	if err == nil {
		return st, nil
	}
	if errors.Is(err, errInvalid) {
		if e := exact(); e != nil {
			return LoadStats{}, e
		}
	}
	return LoadStats{Records: st.Records}, fmt.Errorf("load %d records: %w", st.Records, err)
}

// checkRecords is the validation Load does, record by record: the first
// record toRow rejects or the first identifier already used.
func checkRecords(recs []dataset.Record) error {
	seen := make(map[string]int, len(recs))
	for i, rec := range recs {
		r, err := toRow(i, rec)
		if err != nil {
			return err
		}
		for j, k := range append([]string{r.id}, rec.Aliases...) {
			if prev, dup := seen[k]; dup {
				ptr := "/location/id"
				if j > 0 {
					ptr = "/aliases/" + strconv.Itoa(j-1)
				}
				return fieldErr(i, ptr, "identifier %q is already used by record %d", k, prev)
			}
			seen[k] = i
		}
	}
	return nil
}

// checkFile names the first problem of a dataset file the way parsing it
// whole and then loading it would: the file's structure and records first,
// then its identifiers, then what toRow rejects. It keeps only the
// identifiers; a file whose structure or records are broken is parsed
// whole, for the error Parse reports first.
func checkFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var idents []dataset.Record
	var rowErr error
	err = dataset.Each(f, func(i int, rec dataset.Record) error {
		idents = append(idents, dataset.Record{ID: strings.Clone(rec.ID), Aliases: rec.Aliases})
		if rowErr == nil {
			_, rowErr = toRow(i, rec)
		}
		return nil
	})
	if err != nil {
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			return rerr
		}
		if _, perr := dataset.Parse(data); perr != nil {
			return perr
		}
		return err
	}
	if err := dataset.CheckIdentifiers(idents); err != nil {
		return err
	}
	return rowErr
}

// upserts are the ON CONFLICT clauses that make the copies from staging
// rewrite the rows that changed; a first load, into empty tables without
// their keys, inserts plainly.
type upserts struct{ locations, aliases string }

var rowByRow = upserts{
	locations: `ON CONFLICT (id) DO UPDATE SET
		doc = EXCLUDED.doc, digest = EXCLUDED.digest, private = EXCLUDED.private,
		geog = EXCLUDED.geog, cell0 = EXCLUDED.cell0, cell1 = EXCLUDED.cell1,
		amenities = EXCLUDED.amenities, items = EXCLUDED.items,
		sa_present = EXCLUDED.sa_present, sa_countries = EXCLUDED.sa_countries,
		sa_regions = EXCLUDED.sa_regions, sa_postal_codes = EXCLUDED.sa_postal_codes,
		sa_radius_m = EXCLUDED.sa_radius_m, text_name = EXCLUDED.text_name,
		text_address = EXCLUDED.text_address, text_amenities = EXCLUDED.text_amenities
	WHERE l.digest <> EXCLUDED.digest`,
	aliases: `ON CONFLICT (alias) DO UPDATE SET location_id = EXCLUDED.location_id
		WHERE a.location_id <> EXCLUDED.location_id`,
}

// stageColumns are the staging table's columns in the order batch.add
// produces them.
var stageColumns = []string{"id", "doc", "digest", "private", "lat", "lon", "amenities", "items",
	"sa_present", "sa_countries", "sa_regions", "sa_postal_codes", "sa_radius_m",
	"text_name", "text_address", "text_amenities"}

// batch holds the staging rows of up to loadBatch records, for every
// staging table.
type batch struct {
	locations [][]any
	aliases   [][]any
	// postings are the batch's text postings, made on a first load only.
	postings postingRows
	// err is the first record of the chunk that is invalid (see rows).
	err error
}

// add makes the rows each staging table gets from one record: the one place
// to extend when the loader fills another table. Every value is owned by
// the batch, never a view of the parser's buffer, which the next record
// overwrites.
func (b *batch) add(rec dataset.Record, r *row) {
	b.locations = append(b.locations, []any{r.id, r.doc, r.digest, r.private, r.lat, r.lon, r.amenities, r.items,
		r.saPresent, r.countries, r.regions, r.postal, r.radius,
		r.textName, r.textAddr, r.textAmenit})
	for _, a := range rec.Aliases {
		b.aliases = append(b.aliases, []any{a, r.id})
	}
}

func (b *batch) len() int { return len(b.locations) }

// flush copies the batch into the staging tables, and its postings into
// the postings table.
func (b *batch) flush(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"storefinder_stage"}, stageColumns, pgx.CopyFromRows(b.locations)); err != nil {
		return fmt.Errorf("copy records into staging: %w", invalidIfDuplicate(err))
	}
	if len(b.aliases) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"storefinder_stage_aliases"}, []string{"alias", "location_id"}, pgx.CopyFromRows(b.aliases)); err != nil {
			return fmt.Errorf("copy aliases into staging: %w", invalidIfDuplicate(err))
		}
	}
	if len(b.postings.terms) > 0 {
		if _, err := b.postings.copyTo(ctx, tx); err != nil {
			return fmt.Errorf("write text postings: %w", err)
		}
	}
	return nil
}

// invalidIfDuplicate marks a unique violation in staging (an id or alias
// used twice) as a problem of the data.
func invalidIfDuplicate(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == uniqueViolation {
		return fmt.Errorf("%w: %w", errInvalid, err)
	}
	return err
}

func loadTx(ctx context.Context, tx pgx.Tx, each func(func(int, dataset.Record) error) error, st *LoadStats) error {
	// One loader at a time; readers are not blocked by this lock mode.
	if _, err := tx.Exec(ctx, `LOCK TABLE `+tableLocations+`, `+tableAliases+`, `+tablePostings+` IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return fmt.Errorf("lock tables: %w", err)
	}
	// The pool's statement_timeout bounds a request; the statements of a
	// load legitimately run longer, and the caller's context bounds them.
	if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
		return fmt.Errorf("lift statement_timeout for the load: %w", err)
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
	rebuild, err := deferIndexes(ctx, tx)
	if err != nil {
		return err
	}
	first := rebuild != nil
	if err := stage(ctx, tx, each, st, first); err != nil {
		return err
	}
	// Ids and aliases share one namespace: the staging keys caught repeats
	// within each, this catches an alias that is also an id.
	var clash bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM storefinder_stage_aliases a JOIN storefinder_stage s ON s.id = a.alias)`).Scan(&clash); err != nil {
		return fmt.Errorf("check aliases against ids: %w", err)
	}
	if clash {
		return fmt.Errorf("%w: an alias equals a location id", errInvalid)
	}
	if _, err := tx.Exec(ctx, `ANALYZE storefinder_stage; ANALYZE storefinder_stage_aliases`); err != nil {
		return fmt.Errorf("analyze staging: %w", err)
	}

	if !first { // a first load copied the postings with the records
		if err := syncPostings(ctx, tx, "storefinder_stage"); err != nil {
			return err
		}
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
	onConflict := rowByRow
	if first { // no keys to conflict on, and no rows to conflict with
		onConflict = upserts{}
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
	`+onConflict.locations+`
	RETURNING (xmax = 0) AS inserted
)
SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM up`).Scan(&inserted, &updated)
	if err != nil {
		return fmt.Errorf("upsert records: %w", err)
	}
	st.Inserted, st.Updated = inserted, updated
	if _, err := tx.Exec(ctx, `INSERT INTO `+tableAliases+` AS a (alias, location_id)
		SELECT alias, location_id FROM storefinder_stage_aliases
		`+onConflict.aliases); err != nil {
		return fmt.Errorf("upsert aliases: %w", err)
	}
	if first {
		if err := rebuild(); err != nil {
			return err
		}
	}
	if st.Inserted+st.Updated+st.Deleted == 0 {
		return nil
	}
	// New GIN entries wait in each GIN index's pending list, which every
	// search through the index reads whole until a vacuum merges it: after
	// a 20,000-store load, a 10 km amenity search read 1,365 buffers
	// through the cell and amenity index instead of 171. Merging them
	// here, in bulk, leaves the indexes as a fresh build would.
	if _, err := tx.Exec(ctx, `SELECT gin_clean_pending_list(i) FROM unnest($1::regclass[]) AS i`,
		[]string{tableLocations + "_items", tableLocations + "_cell_amenities"}); err != nil {
		return fmt.Errorf("merge pending GIN entries: %w", err)
	}
	// Statistics in the same transaction: readers plan their first
	// statements after the commit with the new rows' statistics, not with
	// the previous dataset's (or none, after a first load) until autovacuum
	// comes round, which chose plans that read every row of the covering
	// cells (15 ms instead of 2 for 10 km with an amenity, at 200k stores).
	// ANALYZE samples a fixed number of rows, so it costs about the same at
	// 1M stores as at 10k; it counts this transaction's own rows as live.
	if _, err := tx.Exec(ctx, `ANALYZE `+tableLocations+`, `+tableAliases+`, `+tablePostings); err != nil {
		return fmt.Errorf("analyze the loaded tables: %w", err)
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
