package postgis

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// stage copies the records each yields into the staging tables. Parsing
// and copying overlap: while one batch is on its way to PostgreSQL, the
// next is parsed and validated, so the loader's work and the database's
// run on two cores at once. Two batches are alive at a time, whatever the
// dataset's size.
func stage(ctx context.Context, tx pgx.Tx, each func(func(int, dataset.Record) error) error, st *LoadStats) error {
	fl := startFlusher(ctx, tx)
	b := fl.take()
	err := each(func(i int, rec dataset.Record) error {
		r, err := toRow(i, rec)
		if err != nil {
			return err
		}
		st.Records++
		b.add(rec, &r)
		if b.len() >= loadBatch {
			fl.send(b)
			b = fl.take()
			return b.err
		}
		return nil
	})
	if err == nil && b.len() > 0 {
		fl.send(b)
	}
	// The flusher is done with tx once wait returns, whatever happened.
	if ferr := fl.wait(); err == nil {
		err = ferr
	}
	if err != nil {
		var fe *dataset.FieldError
		if errors.As(err, &fe) || errors.Is(err, dataset.ErrNotStreamable) {
			err = fmt.Errorf("%w: %w", errInvalid, err)
		}
		return err
	}
	return nil
}

// flusher copies batches into the staging tables on a goroutine of its
// own, which is the only user of the transaction until wait returns.
type flusher struct {
	todo chan *batch // batches to copy, in order
	free chan *batch // batches copied (or skipped after an error) and emptied
	done chan struct{}
	err  error // the first copy's error, set before done closes
}

func startFlusher(ctx context.Context, tx pgx.Tx) *flusher {
	f := &flusher{todo: make(chan *batch), free: make(chan *batch, 2), done: make(chan struct{})}
	f.free <- &batch{}
	f.free <- &batch{}
	go func() {
		var first error
		for b := range f.todo {
			if first == nil {
				first = b.flush(ctx, tx)
			}
			b.reset()
			b.err = first
			f.free <- b
		}
		f.err = first
		close(f.done)
	}()
	return f
}

// take returns an empty batch, waiting while both are being copied; its err
// is the first error of the copies finished so far.
func (f *flusher) take() *batch { return <-f.free }

// send queues b for copying.
func (f *flusher) send(b *batch) { f.todo <- b }

// wait stops the flusher once the batches sent are copied and returns the
// first copy's error.
func (f *flusher) wait() error {
	close(f.todo)
	<-f.done
	return f.err
}
