package postgis

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A first load, into empty tables, builds the secondary indexes once the
// rows are in instead of keeping them up to date row by row. PostgreSQL
// builds an index by sorting all of its entries in one pass; inserting a
// million rows into five indexes, and some twenty million postings into
// their key, writes index pages in random order, which at 1M stores no
// longer fit in shared_buffers.
//
// The unique keys of locations and aliases stay: the upserts rely on them.
// The postings key is rebuilt like the other indexes, since the load only
// appends postings to an empty table, and the alias foreign key is added
// again at the end, checked in one pass.
//
// Dropping an index takes its table's ACCESS EXCLUSIVE lock until the
// transaction ends, so a reader of the empty tables waits for the first load
// to commit instead of reading nothing. A load into tables that hold rows
// keeps every index, and readers keep reading the previous dataset.

// deferredIndex is an index or constraint a first load drops and makes
// again at the end.
type deferredIndex struct {
	name         string // for errors
	drop, create string // statements
}

// deferIndexes drops the indexes a first load builds at the end, if the
// locations table is empty, and returns the function that builds them again
// with their original definitions and names (nil when the table holds rows).
func deferIndexes(ctx context.Context, tx pgx.Tx) (rebuild func() error, err error) {
	var empty bool
	if err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM `+tableLocations+`)`).Scan(&empty); err != nil {
		return nil, fmt.Errorf("check for a first load: %w", err)
	}
	if !empty {
		return nil, nil
	}
	idx, err := deferrable(ctx, tx)
	if err != nil {
		return nil, err
	}
	for _, d := range idx {
		if _, err := tx.Exec(ctx, d.drop); err != nil {
			return nil, fmt.Errorf("drop index %s for the first load: %w", d.name, err)
		}
	}
	return func() error {
		for _, d := range idx {
			if _, err := tx.Exec(ctx, d.create); err != nil {
				return fmt.Errorf("build index %s: %w", d.name, err)
			}
		}
		return nil
	}, nil
}

// deferrable lists the indexes of the loaded tables that a first load
// defers: every index that backs no constraint, and the postings key. The
// statements come from the catalog, so an index a later migration adds is
// deferred too, and comes back exactly as the migration made it.
func deferrable(ctx context.Context, tx pgx.Tx) ([]deferredIndex, error) {
	rows, err := tx.Query(ctx, `
SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid), i.indrelid = $2::regclass,
	con.conname, pg_get_constraintdef(con.oid)
FROM pg_index i
LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
WHERE i.indrelid = ANY($1::regclass[])
ORDER BY 1`, []string{tableLocations, tableAliases, tablePostings}, tablePostings)
	if err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	defer rows.Close()
	var out []deferredIndex
	for rows.Next() {
		var name, def string
		var postings bool
		var con, conDef *string
		if err := rows.Scan(&name, &def, &postings, &con, &conDef); err != nil {
			return nil, fmt.Errorf("list indexes: %w", err)
		}
		switch {
		case con == nil:
			out = append(out, deferredIndex{name: name, drop: `DROP INDEX ` + name, create: def})
		case postings && conDef != nil:
			table, c := pgx.Identifier{tablePostings}.Sanitize(), pgx.Identifier{*con}.Sanitize()
			out = append(out, deferredIndex{name: name,
				drop:   `ALTER TABLE ` + table + ` DROP CONSTRAINT ` + c,
				create: `ALTER TABLE ` + table + ` ADD CONSTRAINT ` + c + ` ` + *conDef})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	fks, err := foreignKeys(ctx, tx)
	if err != nil {
		return nil, err
	}
	return append(out, fks...), nil
}

// foreignKeys lists the foreign keys of the loaded tables, which a first
// load also adds at the end: checking a million aliases against their
// locations in one join costs far less than a lookup per inserted row.
// They come after the indexes, so they are added once the keys they
// reference exist.
func foreignKeys(ctx context.Context, tx pgx.Tx) ([]deferredIndex, error) {
	rows, err := tx.Query(ctx, `
SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::regclass[])
ORDER BY 1, 2`, []string{tableLocations, tableAliases, tablePostings})
	if err != nil {
		return nil, fmt.Errorf("list foreign keys: %w", err)
	}
	defer rows.Close()
	var out []deferredIndex
	for rows.Next() {
		var table, name, def string
		if err := rows.Scan(&table, &name, &def); err != nil {
			return nil, fmt.Errorf("list foreign keys: %w", err)
		}
		c := pgx.Identifier{name}.Sanitize()
		out = append(out, deferredIndex{name: name,
			drop:   `ALTER TABLE ` + table + ` DROP CONSTRAINT ` + c,
			create: `ALTER TABLE ` + table + ` ADD CONSTRAINT ` + c + ` ` + def})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list foreign keys: %w", err)
	}
	return out, nil
}
