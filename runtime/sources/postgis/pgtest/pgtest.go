// Package pgtest gives tests a PostgreSQL + PostGIS database of their own:
// it finds the server .ci/postgres.sh started, skips cleanly in a checkout
// without one, fails under CI (UCPGEN_CI set) where one must exist, and
// isolates each test in a throwaway schema.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Environment variables .ci/postgres.sh exports.
const (
	EnvDSN        = "UCPGEN_POSTGRES_DSN"
	EnvStandbyDSN = "UCPGEN_POSTGRES_STANDBY_DSN"
)

// DSN returns the primary's connection string, or skips (fails under CI)
// when none is configured, so a plain checkout's `go test ./...` passes and
// CI cannot silently lose these tests.
func DSN(t testing.TB) string {
	t.Helper()
	return lookup(t, EnvDSN)
}

// StandbyDSN returns the hot standby's connection string with the same
// skip-or-fail rule as DSN.
func StandbyDSN(t testing.TB) string {
	t.Helper()
	return lookup(t, EnvStandbyDSN)
}

func lookup(t testing.TB, name string) string {
	t.Helper()
	if v := os.Getenv(name); v != "" {
		return v
	}
	if os.Getenv("UCPGEN_CI") != "" {
		t.Fatalf("%s is not set: CI must start PostgreSQL + PostGIS (.ci/postgres.sh start)", name)
	}
	t.Skipf("skipping: %s is not set; start a PostgreSQL 15 + PostGIS cluster with `eval \"$(bash .ci/postgres.sh start)\"` to run the PostGIS tests", name)
	return ""
}

// Schema creates a fresh schema on the primary, drops it when the test ends,
// and returns its name; PostGIS stays reachable through "public".
func Schema(t testing.TB) string {
	t.Helper()
	dsn := DSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		failOrSkip(t, "connect to %s: %v", EnvDSN, err)
	}
	defer conn.Close(ctx)
	if err := publicExtensions(ctx, conn); err != nil {
		t.Fatalf("create extensions in public: %v", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+name); err != nil {
		t.Fatalf("create schema %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, `DROP SCHEMA `+name+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return name
}

// publicExtensions creates the extensions the schema's migrations ask for
// in public, as .ci/postgres.sh does, for a cluster started without them: a
// migration run with a test schema first on search_path would otherwise
// create one inside that schema, and dropping the schema would drop it, and
// with it the indexes of every other test schema, under concurrent tests.
// An advisory lock serialises concurrent test binaries.
func publicExtensions(ctx context.Context, conn *pgx.Conn) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(0x706774657374)); err != nil { // "pgtest"
			return err
		}
		_, err := tx.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public`)
		return err
	})
}

// Pool opens a pool on dsn whose search_path is schema then public, and
// closes it when the test ends.
func Pool(t testing.TB, dsn, schema string) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("parse DSN: %v", err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema + ",public"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("open pool: %v", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		failOrSkip(t, "ping database: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// SchemaDSN returns dsn with search_path set to schema then public, for
// code under test that opens its own pool (a storefinder process).
func SchemaDSN(t testing.TB, dsn, schema string) string {
	t.Helper()
	if _, err := pgx.ParseConfig(dsn); err != nil {
		t.Fatalf("parse DSN: %v", err)
	}
	if !strings.Contains(dsn, "://") { // keyword/value form
		return dsn + " search_path=" + schema + ",public"
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema + ",public"
}

// failOrSkip reports an unreachable database like a missing one: a failure
// under CI, a skip elsewhere.
func failOrSkip(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("UCPGEN_CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("skipping: "+format, args...)
}
