package ops

import (
	"context"
	"errors"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Source wraps a location.Source so that every call is counted and timed
// by method and outcome (ok, unavailable: a -32000 transport error such as
// a database outage, error: anything else).
func (m *Metrics) Source(src location.Source) location.Source {
	o := &observed{src: src, m: m}
	if c, ok := src.(finder.Counter); ok {
		return &counted{observed: o, c: c}
	}
	return o
}

// counted keeps a source's Counter visible through the wrapper.
type counted struct {
	*observed
	c finder.Counter
}

func (o *counted) Count(ctx context.Context, q predicate.Query) (n int, err error) {
	defer func(start time.Time) { o.done("count", start, err) }(time.Now())
	return o.c.Count(ctx, q)
}

type observed struct {
	src location.Source
	m   *Metrics
}

func (o *observed) done(method string, start time.Time, err error) {
	outcome := "ok"
	if _, ok := rpcerr.AsTransport(err); ok {
		outcome = "unavailable"
	} else if err != nil && !errors.Is(err, context.Canceled) {
		outcome = "error"
	} else if err != nil {
		outcome = "canceled"
	}
	o.m.source(method, outcome, time.Since(start))
}

func (o *observed) Capabilities() location.SourceCapabilities { return o.src.Capabilities() }

func (o *observed) Candidates(ctx context.Context, h location.Hints) (c []location.Candidate, err error) {
	defer func(start time.Time) { o.done("candidates", start, err) }(time.Now())
	return o.src.Candidates(ctx, h)
}

func (o *observed) Resolve(ctx context.Context, keys []string) (r map[string][]location.Candidate, err error) {
	defer func(start time.Time) { o.done("resolve", start, err) }(time.Now())
	return o.src.Resolve(ctx, keys)
}

func (o *observed) Serves(ctx context.Context, t predicate.Target, cands []location.Candidate) (b []bool, err error) {
	defer func(start time.Time) { o.done("serves", start, err) }(time.Now())
	return o.src.Serves(ctx, t, cands)
}

func (o *observed) Items(ctx context.Context, items []string, cands []location.Candidate) (b []bool, err error) {
	defer func(start time.Time) { o.done("items", start, err) }(time.Now())
	return o.src.Items(ctx, items, cands)
}
