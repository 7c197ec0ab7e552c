package postgis

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A first load, into empty tables, builds the indexes once the rows are in
// instead of keeping them up to date row by row. PostgreSQL builds an index
// by sorting all of its entries in one pass; inserting a million rows into
// seven indexes, and some twenty million postings into their key, writes
// index pages in random order, which at 1M stores no longer fit in
// shared_buffers. The tables' keys go too (the rows are copied from
// staging, whose own keys already refused a repeated id or alias), and the
// alias foreign key is added back at the end, checked in one join rather
// than by a lookup per alias.
//
// Dropping an index takes its table's ACCESS EXCLUSIVE lock until the
// transaction ends, so a reader of the empty tables waits for the first load
// to commit instead of reading nothing. A load into tables that hold rows
// keeps every index, and readers keep reading the previous dataset.

// deferredIndex is an index or constraint a first load drops and makes
// again at the end.
type deferredIndex struct {
	name         string // what it is, for errors
	drop, create string // statements
}

// deferIndexes drops the indexes and constraints a first load makes again
// at the end, if the locations and postings tables are empty, and returns
// the function that makes them again with their original definitions and
// names (nil when the table holds rows, or postings are left over from rows
// deleted by hand).
func deferIndexes(ctx context.Context, tx pgx.Tx) (rebuild func() error, err error) {
	var empty bool
	if err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM `+tableLocations+`) AND NOT EXISTS (SELECT 1 FROM `+tablePostings+`)`).Scan(&empty); err != nil {
		return nil, fmt.Errorf("check for a first load: %w", err)
	}
	if !empty {
		return nil, nil
	}
	fks, err := foreignKeys(ctx, tx)
	if err != nil {
		return nil, err
	}
	idx, err := indexes(ctx, tx)
	if err != nil {
		return nil, err
	}
	// A key goes after the foreign keys that reference it, and comes back
	// before them.
	for _, d := range append(fks, idx...) {
		if _, err := tx.Exec(ctx, d.drop); err != nil {
			return nil, fmt.Errorf("drop %s for the first load: %w", d.name, err)
		}
	}
	return func() error {
		for _, d := range append(idx, fks...) {
			if _, err := tx.Exec(ctx, d.create); err != nil {
				return fmt.Errorf("build %s: %w", d.name, err)
			}
		}
		return nil
	}, nil
}

// indexes lists the indexes of the loaded tables, as plain indexes or as
// the key constraints they back. The statements come from the catalog, so
// an index a later migration adds is deferred too, and comes back exactly
// as the migration made it.
func indexes(ctx context.Context, tx pgx.Tx) ([]deferredIndex, error) {
	rows, err := tx.Query(ctx, `
SELECT i.indexrelid::regclass::text, i.indrelid::regclass::text, pg_get_indexdef(i.indexrelid),
	con.conname, pg_get_constraintdef(con.oid)
FROM pg_index i
LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
WHERE i.indrelid = ANY($1::regclass[])
ORDER BY 1`, loadedTables)
	if err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	defer rows.Close()
	var out []deferredIndex
	for rows.Next() {
		var name, table, def string
		var con, conDef *string
		if err := rows.Scan(&name, &table, &def, &con, &conDef); err != nil {
			return nil, fmt.Errorf("list indexes: %w", err)
		}
		if con == nil || conDef == nil {
			out = append(out, deferredIndex{name: "index " + name, drop: `DROP INDEX ` + name, create: def})
			continue
		}
		out = append(out, constraint("constraint", table, *con, *conDef))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	return out, nil
}

// loadedTables are the tables a load writes.
var loadedTables = []string{tableLocations, tableAliases, tablePostings}

// foreignKeys lists the foreign keys of the loaded tables.
func foreignKeys(ctx context.Context, tx pgx.Tx) ([]deferredIndex, error) {
	rows, err := tx.Query(ctx, `
SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::regclass[])
ORDER BY 1, 2`, loadedTables)
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
		out = append(out, constraint("foreign key", table, name, def))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list foreign keys: %w", err)
	}
	return out, nil
}

// constraint is the deferredIndex of table's constraint name, made again
// from its definition def (pg_get_constraintdef); kind names it in errors.
func constraint(kind, table, name, def string) deferredIndex {
	c := pgx.Identifier{name}.Sanitize()
	return deferredIndex{name: kind + " " + name,
		drop:   `ALTER TABLE ` + table + ` DROP CONSTRAINT ` + c,
		create: `ALTER TABLE ` + table + ` ADD CONSTRAINT ` + c + ` ` + def}
}
