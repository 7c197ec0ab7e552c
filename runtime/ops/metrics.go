// Package ops holds a Location server's operational surface: Prometheus
// metrics (client_golang) for calls, sources, the PostgreSQL pool and
// cursor rejections; a structured access log; and the /healthz and
// /readyz probes. It wraps transports and sources from the outside, so
// runtime/mcpserver knows nothing of Prometheus, and every transport (MCP
// now, REST later) is one value of the transport label.
package ops

import (
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Outcomes of a request, the values of the outcome label.
const (
	OutcomeOK             = "ok"
	OutcomeInvalidParams  = "invalid_params"
	OutcomeInvalidRequest = "invalid_request"
	OutcomeRateLimited    = "rate_limited"
	OutcomeOverloaded     = "overloaded"
	OutcomeRefused        = "refused"
	OutcomeInternal       = "internal"
)

// Metrics is one registry of the store finder's metrics; it is safe for
// concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	inFlight  *prometheus.GaugeVec
	cursors   *prometheus.CounterVec
	srcCalls  *prometheus.CounterVec
	srcLatent *prometheus.HistogramVec

	// handles keeps the counter and histogram of each label combination
	// seen: a vector's lookup hashes every label value and takes a lock
	// shared by all cores, on every request and every source call. The
	// combinations are bounded by the label normalisation of record and
	// done (known methods, tools and outcomes only).
	// It is copied on write (few writes, one per combination), so a read
	// takes no lock.
	handles atomic.Pointer[map[handleKey]handle]
	addMu   sync.Mutex
}

// handleKey is one label combination of a request or a source call
// (transport empty for a source call).
type handleKey struct{ transport, method, tool, outcome string }

// handle is the counter and histogram of one handleKey.
type handle struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// NewMetrics registers every metric, with the Go runtime and process
// collectors, on a registry of its own (not the global one, so tests and
// several servers in one process do not collide).
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "storefinder_requests_total",
		Help: "Requests answered, by transport, JSON-RPC method, tool and outcome.",
	}, []string{"transport", "method", "tool", "outcome"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "storefinder_request_duration_seconds",
		Help:    "Time from a request's arrival to its answer, by transport, method and tool.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"transport", "method", "tool"})
	m.inFlight = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "storefinder_requests_in_flight",
		Help: "Requests being served now, by transport.",
	}, []string{"transport"})
	m.cursors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "storefinder_cursor_rejections_total",
		Help: "Searches refused because of their pagination cursor (forged, expired, other constraints or another ranking), by transport.",
	}, []string{"transport"})
	m.srcCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "storefinder_source_calls_total",
		Help: "Data source calls, by method (candidates, resolve, serves, items) and outcome (ok, unavailable, error).",
	}, []string{"method", "outcome"})
	m.srcLatent = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "storefinder_source_call_duration_seconds",
		Help:    "Duration of data source calls, by method.",
		Buckets: []float64{.0001, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5},
	}, []string{"method"})
	m.reg.MustRegister(m.requests, m.latency, m.inFlight, m.cursors, m.srcCalls, m.srcLatent,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// request records one answered request.
func (m *Metrics) request(transport, method, tool, outcome string, d time.Duration, cursorRejected bool) {
	k := handleKey{transport, method, tool, outcome}
	h, ok := m.handle(k)
	if !ok {
		h = m.keep(k, handle{m.requests.WithLabelValues(transport, method, tool, outcome), m.latency.WithLabelValues(transport, method, tool)})
	}
	h.count.Inc()
	h.latency.Observe(d.Seconds())
	if cursorRejected {
		m.cursors.WithLabelValues(transport).Inc()
	}
}

// source records one data source call.
func (m *Metrics) source(method, outcome string, d time.Duration) {
	k := handleKey{method: method, outcome: outcome}
	h, ok := m.handle(k)
	if !ok {
		h = m.keep(k, handle{m.srcCalls.WithLabelValues(method, outcome), m.srcLatent.WithLabelValues(method)})
	}
	h.count.Inc()
	h.latency.Observe(d.Seconds())
}

// handle is the handle kept for k, if any.
func (m *Metrics) handle(k handleKey) (handle, bool) {
	if hs := m.handles.Load(); hs != nil {
		h, ok := (*hs)[k]
		return h, ok
	}
	return handle{}, false
}

// keep adds h as k's handle (a copy of the map with it) and returns it.
func (m *Metrics) keep(k handleKey, h handle) handle {
	m.addMu.Lock()
	defer m.addMu.Unlock()
	next := map[handleKey]handle{}
	if hs := m.handles.Load(); hs != nil {
		maps.Copy(next, *hs)
	}
	next[k] = h
	m.handles.Store(&next)
	return h
}

// WatchPool exports the statistics of a pgx pool (connections acquired,
// idle and open, acquisitions and their waiting time) under
// storefinder_pgxpool_*.
func (m *Metrics) WatchPool(pool *pgxpool.Pool) {
	m.reg.MustRegister(&poolCollector{pool: pool})
}

// poolCollector reads pgxpool.Stat at each scrape.
type poolCollector struct{ pool *pgxpool.Pool }

var (
	poolAcquired    = prometheus.NewDesc("storefinder_pgxpool_acquired_conns", "Connections in use.", nil, nil)
	poolIdle        = prometheus.NewDesc("storefinder_pgxpool_idle_conns", "Idle connections.", nil, nil)
	poolTotal       = prometheus.NewDesc("storefinder_pgxpool_total_conns", "Open connections (acquired, idle and being opened).", nil, nil)
	poolMax         = prometheus.NewDesc("storefinder_pgxpool_max_conns", "Largest pool size.", nil, nil)
	poolAcquires    = prometheus.NewDesc("storefinder_pgxpool_acquires_total", "Successful acquisitions.", nil, nil)
	poolAcquireWait = prometheus.NewDesc("storefinder_pgxpool_acquire_duration_seconds_total", "Time spent acquiring connections.", nil, nil)
	poolEmpty       = prometheus.NewDesc("storefinder_pgxpool_empty_acquires_total", "Acquisitions that had to wait for a connection.", nil, nil)
	poolCanceled    = prometheus.NewDesc("storefinder_pgxpool_canceled_acquires_total", "Acquisitions given up by their caller.", nil, nil)
	poolNew         = prometheus.NewDesc("storefinder_pgxpool_new_conns_total", "Connections opened.", nil, nil)
)

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolAcquired, poolIdle, poolTotal, poolMax, poolAcquires, poolAcquireWait, poolEmpty, poolCanceled, poolNew} {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	g := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	n := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	g(poolAcquired, float64(s.AcquiredConns()))
	g(poolIdle, float64(s.IdleConns()))
	g(poolTotal, float64(s.TotalConns()))
	g(poolMax, float64(s.MaxConns()))
	n(poolAcquires, float64(s.AcquireCount()))
	n(poolAcquireWait, s.AcquireDuration().Seconds())
	n(poolEmpty, float64(s.EmptyAcquireCount()))
	n(poolCanceled, float64(s.CanceledAcquireCount()))
	n(poolNew, float64(s.NewConnsCount()))
}
