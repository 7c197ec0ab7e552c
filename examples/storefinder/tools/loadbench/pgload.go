package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// The -postgres-load mode: the store finder's first load of a generated
// --data file into empty PostgreSQL tables, beside a baseline measured in
// the same run on the same database: a plain COPY of the rows the load
// wrote into fresh tables, then the same index builds and ANALYZE. The
// baseline is what any loader needs to put those rows and indexes in place,
// so the ratio says what parsing, validating, staging and upserting cost on
// top, whatever the machine.
var postgresLoadMode bool

// addPostgresLoadFlags registers -postgres-load on fs.
func addPostgresLoadFlags(fs *flag.FlagSet) {
	fs.BoolVar(&postgresLoadMode, "postgres-load", false, "instead of the latency table: with -postgres, empty the store finder's tables, start the storefinder with --postgres --data on each generated dataset (-n) until /.well-known/ucp answers, then time a plain COPY of the rows it wrote into fresh tables plus the same index builds and ANALYZE, -runs times; prints both, the ratio and the storefinder's peak RSS")
}

// loadedTables are the tables a load fills, in the order the baseline
// copies them.
var loadedTables = []string{"storefinder_locations", "storefinder_aliases", "storefinder_postings"}

// baselineSchema holds the baseline's tables while it runs.
const baselineSchema = "loadbench_baseline"

func runPostgresLoad(out io.Writer, c config, bin, dir string) error {
	if c.postgres == "" {
		return errors.New("-postgres-load: needs -postgres DSN")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.postgres)
	if err != nil {
		return fmt.Errorf("-postgres: %w", err)
	}
	defer conn.Close(ctx)
	fmt.Fprintf(out, "first --postgres --data load into empty tables (shape %s) until /.well-known/ucp answers, beside a plain COPY of the same rows into fresh tables plus the same index builds and ANALYZE, in the same run; %d runs\n", shapeName(), c.run.runs)
	figs := []figure{{"load", fmtSecFig}, {"server CPU", fmtSecFig}, {"server peak RSS", fmtMBFig},
		{"COPY baseline", fmtSecFig}, {"load / COPY", fmtRatioFig}}
	t := newRunTable("First PostGIS load against a COPY baseline, min / median / max over runs (ratio taken per run)", []string{"N", "shape"}, figs...)
	log := &runLog{opt: c.run, progress: os.Stderr}
	for _, n := range c.sizes {
		if n == 0 {
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("stores-%s-%d.json", shapeName(), n))
		if err := writeDataset(path, n); err != nil {
			return err
		}
		key := []string{sizeLabel(n), shapeName()}
		err := log.repeat("postgres load N="+sizeLabel(n), func(int) error {
			if err := emptyStoreFinder(ctx, conn); err != nil {
				return err
			}
			addr, err := freeAddr()
			if err != nil {
				return err
			}
			t0 := time.Now()
			stop, pid, err := startServer(bin, append([]string{"--addr", addr, "--postgres", c.postgres, "--data", path}, c.extra...), "http://"+addr, c.startMax)
			if err != nil {
				return err
			}
			up := time.Since(t0)
			cpu, rss := cpuTime(pid), peakRSS(pid)
			stop()
			base, err := copyBaseline(ctx, conn, dir)
			if err != nil {
				return fmt.Errorf("COPY baseline: %w", err)
			}
			t.add(key, "load", float64(up))
			t.add(key, "server CPU", float64(cpu))
			t.add(key, "server peak RSS", float64(rss))
			t.add(key, "COPY baseline", float64(base))
			t.add(key, "load / COPY", runstat.Ratio(float64(up), float64(base)))
			return nil
		})
		if err != nil {
			return err
		}
	}
	return renderAll(out, log, t)
}

// emptyStoreFinder drops the store finder's tables, so the next start
// migrates a fresh schema and loads into empty tables.
func emptyStoreFinder(ctx context.Context, conn *pgx.Conn) error {
	_, err := conn.Exec(ctx, `DROP TABLE IF EXISTS storefinder_postings, storefinder_aliases, storefinder_locations, storefinder_migrations CASCADE`)
	if err != nil {
		return fmt.Errorf("empty the store finder's tables: %w", err)
	}
	return nil
}

// copyBaseline exports the loaded tables (untimed), then times copying them
// into fresh tables of the same columns and constraints, building the
// indexes the loaded tables have, and analysing them. The fresh tables are
// dropped afterwards.
func copyBaseline(ctx context.Context, conn *pgx.Conn, dir string) (time.Duration, error) {
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return 0, err
	}
	indexes, err := baselineIndexes(ctx, conn, schema)
	if err != nil {
		return 0, err
	}
	files := make([]string, len(loadedTables))
	defer func() {
		for _, f := range files {
			if f != "" {
				os.Remove(f)
			}
		}
	}()
	for i, tbl := range loadedTables {
		files[i] = filepath.Join(dir, tbl+".copy")
		if err := exportTable(ctx, conn, tbl, files[i]); err != nil {
			return 0, err
		}
	}
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+baselineSchema+` CASCADE; CREATE SCHEMA `+baselineSchema); err != nil {
		return 0, err
	}
	defer conn.Exec(context.Background(), `DROP SCHEMA IF EXISTS `+baselineSchema+` CASCADE`)
	for _, tbl := range loadedTables {
		if _, err := conn.Exec(ctx, `CREATE TABLE `+baselineSchema+`.`+tbl+` (LIKE `+tbl+` INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`); err != nil {
			return 0, fmt.Errorf("create %s: %w", tbl, err)
		}
	}
	t0 := time.Now()
	for i, tbl := range loadedTables {
		if err := importTable(ctx, conn, baselineSchema+"."+tbl, files[i]); err != nil {
			return 0, err
		}
	}
	for _, def := range indexes {
		if _, err := conn.Exec(ctx, def); err != nil {
			return 0, fmt.Errorf("%s: %w", def, err)
		}
	}
	if _, err := conn.Exec(ctx, `ANALYZE `+baselineSchema+`.`+strings.Join(loadedTables, `, `+baselineSchema+`.`)); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// baselineIndexes are the index definitions of the loaded tables, aimed at
// the baseline's copies of them (an index lives in its table's schema, so
// the names can stay).
func baselineIndexes(ctx context.Context, conn *pgx.Conn, schema string) ([]string, error) {
	rows, err := conn.Query(ctx, `SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = ANY($2) ORDER BY tablename, indexname`, schema, loadedTables)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var defs []string
	for rows.Next() {
		var tbl, def string
		if err := rows.Scan(&tbl, &def); err != nil {
			return nil, err
		}
		aimed, err := aimIndex(def, schema, tbl)
		if err != nil {
			return nil, err
		}
		defs = append(defs, aimed)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("no indexes on %s in schema %s: did the load run?", strings.Join(loadedTables, ", "), schema)
	}
	return defs, nil
}

// exportTable writes table's rows to path in COPY's binary format.
func exportTable(ctx context.Context, conn *pgx.Conn, table, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := conn.PgConn().CopyTo(ctx, f, `COPY `+table+` TO STDOUT (FORMAT binary)`); err != nil {
		f.Close()
		return fmt.Errorf("export %s: %w", table, err)
	}
	return f.Close()
}

// importTable copies the rows at path (exportTable's format) into table.
func importTable(ctx context.Context, conn *pgx.Conn, table, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := conn.PgConn().CopyFrom(ctx, f, `COPY `+table+` FROM STDIN (FORMAT binary)`); err != nil {
		return fmt.Errorf("copy into %s: %w", table, err)
	}
	return nil
}

// aimIndex turns the definition of an index on schema.tbl into the same
// index on the baseline's copy of tbl.
func aimIndex(def, schema, tbl string) (string, error) {
	on := " ON " + schema + "." + tbl + " "
	if strings.Count(def, on) != 1 {
		return "", fmt.Errorf("index definition %q does not name %s.%s once", def, schema, tbl)
	}
	return strings.Replace(def, on, " ON "+baselineSchema+"."+tbl+" ", 1), nil
}
