package postgis

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// Text postings. storefinder_postings holds, for every public Location and
// every distinct textrank token of its text, the largest weight of the
// fields holding the token: exactly what textrank.Postings returns for the
// row's text columns. Rows are a pure function of (id, private, text_*), so
// the loader keeps them in step by deleting the postings of the rows it
// rewrites or removes (recomputed from their old text, each by primary key)
// and adding those of the rows it writes, all in the load's transaction.

// postingBatch is how many Locations one read-back statement covers when
// postings are computed, which bounds the memory a load or backfill needs.
const postingBatch = 5000

// textFields is the ranking text of a row as textrank reads it. The
// columns join the address fields and the amenity labels with spaces, and
// textrank splits on spaces, so the tokens are those of the separate values
// that the in-memory store ranks (store.TextFields).
func textFields(name, address, amenities string) textrank.Fields {
	f := textrank.Fields{Name: name}
	if address != "" {
		f.Address = []string{address}
	}
	if amenities != "" {
		f.Amenities = []string{amenities}
	}
	return f
}

// textRow is a row's id and ranking text, read back to compute postings.
type textRow struct{ id, name, address, amenities string }

// eachTextBatch runs sql (which selects id, text_name, text_address,
// text_amenities ordered by id, continuing after $1, LIMIT postingBatch)
// batch by batch, handing each batch to fn.
func eachTextBatch(ctx context.Context, tx pgx.Tx, sql string, fn func([]textRow) error) error {
	last := ""
	for {
		rows, err := tx.Query(ctx, sql, last)
		if err != nil {
			return err
		}
		var batch []textRow
		for rows.Next() {
			var r textRow
			if err := rows.Scan(&r.id, &r.name, &r.address, &r.amenities); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		if err := fn(batch); err != nil {
			return err
		}
		if len(batch) < postingBatch {
			return nil
		}
		last = batch[len(batch)-1].id
	}
}

// postingRows are posting rows as three parallel columns (term,
// neg_weight, id): a posting costs a few dozen bytes, where a row of three
// interface values would cost several times that.
type postingRows struct {
	terms []string
	negs  []int16
	ids   []string
}

// add appends the postings of one public Location's text.
func (p *postingRows) add(id, name, address, amenities string) {
	for _, t := range textrank.Postings(textFields(name, address, amenities)) {
		p.terms = append(p.terms, t.Token)
		p.negs = append(p.negs, int16(-t.Weight))
		p.ids = append(p.ids, id)
	}
}

// copyTo copies the rows into the postings table and returns how many it
// wrote.
func (p *postingRows) copyTo(ctx context.Context, tx pgx.Tx) (int64, error) {
	return tx.CopyFrom(ctx, pgx.Identifier{tablePostings}, []string{"term", "neg_weight", "id"},
		pgx.CopyFromSlice(len(p.terms), func(i int) ([]any, error) { return []any{p.terms[i], p.negs[i], p.ids[i]}, nil }))
}

// postingColumns computes the posting rows of a batch.
func postingColumns(batch []textRow) postingRows {
	var p postingRows
	for _, r := range batch {
		p.add(r.id, r.name, r.address, r.amenities)
	}
	return p
}

// addPostings writes the postings of the rows sql selects (see
// eachTextBatch); it returns how many it wrote.
func addPostings(ctx context.Context, tx pgx.Tx, sql string) (int64, error) {
	var n int64
	err := eachTextBatch(ctx, tx, sql, func(batch []textRow) error {
		rows := postingColumns(batch)
		c, err := rows.copyTo(ctx, tx)
		n += c
		return err
	})
	if err != nil {
		return n, fmt.Errorf("write text postings: %w", err)
	}
	return n, nil
}

// dropPostings deletes the postings of the rows sql selects, recomputed
// from the text they were written from, each by its primary key.
func dropPostings(ctx context.Context, tx pgx.Tx, sql string) error {
	err := eachTextBatch(ctx, tx, sql, func(batch []textRow) error {
		rows := postingColumns(batch)
		_, err := tx.Exec(ctx, `DELETE FROM `+tablePostings+` p
			USING unnest($1::text[], $2::smallint[], $3::text[]) AS d(term, neg_weight, id)
			WHERE p.term = d.term AND p.neg_weight = d.neg_weight AND p.id = d.id`, rows.terms, rows.negs, rows.ids)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete text postings: %w", err)
	}
	return nil
}

// backfillPostings computes the postings of every public row of a database
// loaded before postings existed (migration 2).
func backfillPostings(ctx context.Context, tx pgx.Tx) error {
	_, err := addPostings(ctx, tx, `SELECT id, text_name, text_address, text_amenities FROM `+tableLocations+`
		WHERE NOT private AND id > $1 ORDER BY id LIMIT `+fmt.Sprint(postingBatch))
	return err
}

// syncPostings brings the postings in step with the staged records before
// the load rewrites the rows (it compares staged digests with the stored
// ones, so it must run first): the postings of every public row that the
// load will rewrite or delete go, and those of every public staged record
// that is new or changed come. Unchanged rows cost nothing.
func syncPostings(ctx context.Context, tx pgx.Tx, stage string) error {
	batch := fmt.Sprint(postingBatch)
	if err := dropPostings(ctx, tx, `SELECT l.id, l.text_name, l.text_address, l.text_amenities
		FROM `+tableLocations+` l LEFT JOIN `+stage+` s ON s.id = l.id
		WHERE NOT l.private AND (s.id IS NULL OR s.digest <> l.digest) AND l.id > $1
		ORDER BY l.id LIMIT `+batch); err != nil {
		return err
	}
	_, err := addPostings(ctx, tx, `SELECT s.id, s.text_name, s.text_address, s.text_amenities
		FROM `+stage+` s LEFT JOIN `+tableLocations+` l ON l.id = s.id
		WHERE NOT s.private AND (l.id IS NULL OR l.digest <> s.digest) AND s.id > $1
		ORDER BY s.id LIMIT `+batch)
	return err
}
