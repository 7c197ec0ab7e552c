package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
)

// openSource selects the data source: the in-memory dataset (embedded or
// --data) by default, or PostGIS with --postgres, after loading --data into
// it when both are given. It returns the number of public records served.
func openSource(c config, logger *slog.Logger) (location.Source, int, error) {
	if c.postgres == "" && c.data != "" && c.snapshot != "" {
		return snapshotSource(c, logger)
	}
	if c.postgres == "" && c.data != "" {
		src, err := buildFromFile(c.data)
		if err != nil {
			return nil, 0, err
		}
		return src, src.Records(), nil
	}
	if c.postgres == "" {
		recs, err := loadRecords(c.data)
		if err != nil {
			return nil, 0, err
		}
		src, err := memory.New(recs, memory.Options{})
		if err != nil {
			return nil, 0, fmt.Errorf("load stores: %w", err)
		}
		return src, len(recs), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	pool, err := postgis.Connect(ctx, c.postgres)
	if err != nil {
		return nil, 0, fmt.Errorf("--postgres: %w", err)
	}
	if c.pools != nil {
		*c.pools = append(*c.pools, pool)
	}
	c.ops.watchPool(pool)
	if c.data != "" {
		// LoadFile streams the file into the database, so the load needs
		// about the same memory for a thousand stores as for a million.
		st, err := postgis.LoadFile(ctx, pool, c.data)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return nil, 0, fmt.Errorf("--data: %w", err)
			}
			return nil, 0, fmt.Errorf("--postgres --data %s: %w", c.data, err)
		}
		fmt.Fprintf(os.Stderr, "storefinder: loaded %s into PostgreSQL: %d records, %d inserted, %d updated, %d deleted\n",
			c.data, st.Records, st.Inserted, st.Updated, st.Deleted)
	}
	src, err := postgis.Open(ctx, pool, postgis.Options{Timeout: c.postgresTimeout, Logger: logger, SmallSet: c.postgresSmallSet})
	if errors.Is(err, postgis.ErrSchema) {
		return nil, 0, fmt.Errorf("--postgres: %w; with this server, load with --postgres DSN --data FILE", err)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("--postgres: %w", err)
	}
	n, err := src.PublicCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("--postgres: %w", err)
	}
	return src, n, nil
}

// logLoading says what is about to load, before the load starts: the
// --data file and its size (or the embedded dataset), the snapshot, the
// database; extra are more attributes.
func logLoading(logger *slog.Logger, c config, extra ...any) {
	var attrs []any
	switch {
	case c.data == "" && c.postgres == "":
		attrs = append(attrs, "data", "embedded dataset")
	case c.data != "":
		attrs = append(attrs, "data", c.data)
		if fi, err := os.Stat(c.data); err == nil {
			attrs = append(attrs, "size", fi.Size())
		}
	}
	if c.snapshot != "" {
		attrs = append(attrs, "snapshot", c.snapshot)
	}
	if c.postgres != "" {
		attrs = append(attrs, "into", "PostgreSQL")
	}
	logger.Info("storefinder loading", append(attrs, extra...)...)
}

// snapshotSource opens --data through the --snapshot file when that
// snapshot is this build's, of these contents, authenticated by the
// --snapshot-key; otherwise it builds the store from --data as without
// --snapshot and then writes the snapshot for the next start, while it
// already serves: the snapshot is for the next start, which this one need
// not wait for; the process waits for the write before it exits. A
// snapshot that cannot be used or written is logged with its reason (at
// WARN when it was damaged, foreign or altered rather than absent or
// stale) and never stops the server: it serves the same stores either
// way. A key file that cannot be read or is unfit does stop it: that is a
// setup mistake.
func snapshotSource(c config, logger *slog.Logger) (location.Source, int, error) {
	key, err := memory.ReadSnapshotKey(c.snapshotKey)
	if err != nil {
		return nil, 0, fmt.Errorf("--snapshot-key: %w", err)
	}
	start := time.Now()
	src, err := memory.OpenSnapshot(c.snapshot, c.data, key, memory.Options{})
	if err == nil {
		logger.Info("opened the stores from the snapshot", "snapshot", c.snapshot, "data", c.data,
			"records", src.Records(), "took", time.Since(start).Round(time.Millisecond))
		return src, src.Records(), nil
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		logger.Info("building the stores from --data", "snapshot", c.snapshot, "reason", "no snapshot yet")
	case errors.Is(err, memory.ErrSnapshotStale):
		logger.Info("building the stores from --data", "snapshot", c.snapshot, "reason", err.Error())
	default:
		// Damaged, foreign or altered: never served, and worth a look.
		logger.Warn("building the stores from --data", "snapshot", c.snapshot, "reason", "snapshot refused: "+err.Error())
	}
	// Taken before the parse, so a file changed during the load is never
	// saved as the indexes of its new contents.
	before, err := dataset.FileFingerprint(c.data)
	built, buildErr := buildFromFile(c.data)
	if buildErr != nil {
		return nil, 0, buildErr
	}
	write := func() {
		if c.holdWrite != nil {
			c.holdWrite <- struct{}{}
			<-c.holdWrite
		}
		wrote := time.Now()
		err := err
		if err == nil {
			err = built.WriteSnapshot(c.snapshot, before, key)
		}
		if err != nil {
			logger.Warn("snapshot not written; the next start builds from --data again", "error", err)
		} else {
			logger.Info("wrote the snapshot", "snapshot", c.snapshot, "took", time.Since(wrote).Round(time.Millisecond))
		}
	}
	if c.ops == nil {
		// No process around the source to wait for a write (a test's
		// config): written before it is returned.
		write()
	} else {
		c.ops.writes.Go(write)
	}
	return built, built.Records(), nil
}

// buildFromFile builds the in-memory store from a --data file. The
// Locations stay in the file (the page cache) and are read when they are
// candidates; the file stays open for the process.
func buildFromFile(path string) (*memory.Source, error) {
	df, err := openData(path)
	if err != nil {
		return nil, err
	}
	src, err := memory.NewFile(df, memory.Options{})
	if err != nil {
		df.Close()
		return nil, fmt.Errorf("load stores from %s: %w", path, err)
	}
	return src, nil
}
