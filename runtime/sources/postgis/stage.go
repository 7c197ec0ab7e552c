package postgis

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// stage copies the records each yields into the staging tables, and on a
// first load their postings straight into the postings table (which holds
// none yet, so nothing needs to be read back and compared). The work runs
// as a pipeline so that the loader uses every core beside PostgreSQL:
// records are parsed in order and cut into chunks of loadBatch, each chunk
// is validated and turned into rows on one of GOMAXPROCS workers, and one
// flusher copies the batches in file order. A bounded number of chunks is
// in flight at a time, whatever the dataset's size.
func stage(ctx context.Context, tx pgx.Tx, each func(func(int, dataset.Record) error) error, st *LoadStats, first bool) error {
	workers := max(1, runtime.GOMAXPROCS(0))
	p := &pipeline{
		jobs:  make(chan job),
		order: make(chan chan *batch, workers),
		done:  make(chan struct{}),
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range p.jobs {
				j.out <- rows(j, first)
			}
		}()
	}
	go p.flush(ctx, tx)

	var chunk []dataset.Record
	start := 0
	send := func() {
		out := make(chan *batch, 1)
		p.order <- out
		p.jobs <- job{start: start, recs: chunk, out: out}
		start += len(chunk)
		chunk = nil
	}
	err := each(func(i int, rec dataset.Record) error {
		// rec.Location is a view of the parser's buffer, valid only now.
		rec.Location = slices.Clone(rec.Location)
		chunk = append(chunk, rec)
		if len(chunk) >= loadBatch {
			send()
			if p.failed.Load() {
				return errStaging
			}
		}
		return nil
	})
	if err == nil && len(chunk) > 0 {
		send()
	}
	close(p.jobs)
	wg.Wait()
	close(p.order)
	<-p.done
	// The flusher's error comes first in file order; a parse error comes
	// after every record the flusher has seen.
	if p.err != nil || errors.Is(err, errStaging) {
		err = p.err
	}
	st.Records += p.records
	if err != nil {
		var fe *dataset.FieldError
		if errors.As(err, &fe) || errors.Is(err, dataset.ErrNotStreamable) {
			err = fmt.Errorf("%w: %w", errInvalid, err)
		}
		return err
	}
	return nil
}

// errStaging stops the parser once the pipeline has failed; the pipeline's
// own error is the one reported.
var errStaging = errors.New("staging failed")

// job is a chunk of consecutive records, the first one numbered start.
type job struct {
	start int
	recs  []dataset.Record
	out   chan *batch
}

// rows validates a chunk and builds its batch; the first invalid record
// ends it, with the error in the batch.
func rows(j job, first bool) *batch {
	b := &batch{}
	for k, rec := range j.recs {
		r, err := toRow(j.start+k, rec)
		if err != nil {
			b.err = err
			return b
		}
		b.add(rec, &r)
		if first && !rec.Private {
			b.postings.add(r.id, r.textName, r.textAddr, r.textAmenit)
		}
	}
	return b
}

// pipeline connects the parser, the workers and the flusher.
type pipeline struct {
	jobs  chan job
	order chan chan *batch // each job's result, in file order
	done  chan struct{}
	// failed is set once err is: the parser then stops early.
	failed atomic.Bool
	// err and records are written by the flusher before done closes.
	err     error
	records int
}

// flush copies the batches into the database in file order, the only use
// of the transaction while the records stream; after the first error it
// only drains the results.
func (p *pipeline) flush(ctx context.Context, tx pgx.Tx) {
	defer close(p.done)
	for out := range p.order {
		b := <-out
		if p.err != nil {
			continue
		}
		if p.err = b.err; p.err == nil {
			p.err = b.flush(ctx, tx)
		}
		if p.err != nil {
			p.failed.Store(true)
			continue
		}
		p.records += b.len()
	}
}
