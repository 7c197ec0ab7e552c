package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/heapgoal"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ops"
	"github.com/ucpgen/ucpgen/runtime/opt"
)

// opsState is the operational surface of one server (metrics, access log,
// probes); a nil *opsState (tests that build a config by hand) turns it
// all off.
type opsState struct {
	metricsAddr string
	drainDelay  time.Duration
	accessLog   bool
	readyWait   time.Duration

	metrics *ops.Metrics
	gate    ops.Gate
	// ping is the source's readiness check, set once it is open.
	ping atomic.Pointer[func(context.Context) error]
	// logger receives access lines when accessLog is set.
	logger *slog.Logger
	// writes are the snapshot writes begun once the stores were built;
	// the process waits for them before it exits (see snapshotSource).
	writes sync.WaitGroup
}

// waitWrites waits for the snapshot writes still running, so the next
// start finds the snapshot this one began.
func (o *opsState) waitWrites(logger *slog.Logger) {
	if o == nil {
		return
	}
	done := make(chan struct{})
	go func() { o.writes.Wait(); close(done) }()
	select {
	case <-done:
	default:
		logger.Info("storefinder waiting for the snapshot write before it exits")
		<-done
	}
}

// opsFlags registers the operations flags on fs.
func opsFlags(fs *flag.FlagSet) *opsState {
	o := &opsState{metrics: ops.NewMetrics()}
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve Prometheus metrics on /metrics at this address (say 127.0.0.1:9090), a listener of its own, never the public one (empty: not served)")
	fs.DurationVar(&o.drainDelay, "drain-delay", 0, "on SIGTERM, how long /readyz reports draining (503) while requests are still accepted, before the server stops accepting them; give load balancers time to notice (Kubernetes: about 5s)")
	fs.BoolVar(&o.accessLog, "access-log", true, "log one line per request, HTTP or stdio (request id, JSON-RPC id, tool, status, outcome, duration, caller; coordinates cut to 2 decimals, the ids and caller to "+fmt.Sprint(ops.MaxIDBytes)+" and "+fmt.Sprint(ops.MaxCallerBytes)+" bytes)")
	fs.DurationVar(&o.readyWait, "ready-timeout", ops.DefaultReadyTimeout, "how long /readyz waits for the data source to answer")
	return o
}

// watchPool exports a PostGIS pool's statistics.
func (o *opsState) watchPool(pool *pgxpool.Pool) {
	if o != nil {
		o.metrics.WatchPool(pool)
	}
}

// observe records src's readiness check and returns it wrapped with the
// source metrics.
func (o *opsState) observe(src location.Source) location.Source {
	if o == nil {
		return src
	}
	if p, ok := src.(interface {
		Ping(context.Context, time.Duration) error
	}); ok {
		f := func(ctx context.Context) error { return p.Ping(ctx, o.readyWait) }
		o.ping.Store(&f)
	}
	return o.metrics.Source(src)
}

// wrap adds metrics and the access log to one transport's endpoint.
func (o *opsState) wrap(h http.Handler, transport string) http.Handler {
	if o == nil {
		return h
	}
	mo := ops.MiddlewareOptions{Transport: transport, Tools: toolNames(), Metrics: o.metrics}
	if o.accessLog {
		mo.Logger = o.logger
	}
	return ops.Middleware(h, mo)
}

// stdioObserver records the messages of a stdio session as wrap records
// HTTP requests.
func (o *opsState) stdioObserver() func(mcpserver.StdioExchange) {
	mo := ops.MiddlewareOptions{Tools: toolNames(), Metrics: o.metrics}
	if o.accessLog {
		mo.Logger = o.logger
	}
	return ops.StdioObserver(mo)
}

// accessLogged reports whether the middleware already logs every request,
// so that the REST handler need not log it again.
func (o *opsState) accessLogged() bool { return o != nil && o.accessLog }

// toolNames are the tools every served version registers, the only values
// the tool label takes.
func toolNames() []string { return []string{"search_locations", "lookup_locations"} }

// serveHTTP listens first, so the probes answer ("loading") while the data
// loads, then serves every version until ctx is done; on SIGTERM /readyz
// turns to draining for --drain-delay before the server stops accepting.
// It logs "storefinder loading" (with the probe address) before the load
// and "storefinder listening" once the endpoints answer.
func serveHTTP(ctx context.Context, c config, logger *slog.Logger) error {
	o := c.ops
	o.logger = logger
	// Whichever way serving ends, a snapshot write begun goes on to the end.
	defer o.waitWrites(logger)
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", c.addr, err)
	}
	base := "http://" + ln.Addr().String()
	// Only the probes answer until the data is loaded: /readyz says
	// "loading", every other path 503.
	logLoading(logger, c, "addr", ln.Addr().String(), "probes", base+"/readyz")
	shell, err := httpServers(c, servers{}, base, logger)
	if err != nil {
		ln.Close()
		return err
	}
	shell.Handler = &o.gate
	if o.metricsAddr != "" {
		stop, err := serveMetrics(o, logger)
		if err != nil {
			ln.Close()
			return err
		}
		defer stop()
	}
	serveCtx, stopServing := context.WithCancel(context.Background())
	defer stopServing()
	draining := context.AfterFunc(ctx, func() {
		o.gate.Drain()
		logger.Info("storefinder draining", "drain_delay", o.drainDelay)
		time.AfterFunc(o.drainDelay, stopServing)
	})
	defer draining()
	served := make(chan error, 1)
	go func() { served <- serveUntil(serveCtx, shell, ln, c.limits.shutdownGrace, logger) }()

	s, n, err := newServers(c, logger)
	if err != nil {
		stopServing()
		<-served
		return err
	}
	// The load is done: from here the heap is what serving keeps live.
	defer heapgoal.Keep(c.limits.gcHeadroom)()
	app, err := httpServers(c, s, base, logger)
	if err != nil {
		stopServing()
		<-served
		return err
	}
	o.gate.Timeout = o.readyWait
	var ready func(context.Context) error
	if p := o.ping.Load(); p != nil {
		ready = *p
	}
	o.gate.Open(app.Handler, ready)
	logger.Info("storefinder listening", "addr", ln.Addr().String(), "records", n)
	logger.Info("storefinder serving MCP", "endpoint", base+"/ucp/mcp", "records", n)
	return <-served
}

// serveMetrics serves /metrics on its own listener and returns its stop.
func serveMetrics(o *opsState, logger *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", o.metricsAddr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %w", o.metricsAddr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", o.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", "err", err)
		}
	}()
	logger.Info("storefinder serving metrics", "endpoint", "http://"+ln.Addr().String()+"/metrics")
	return func() { srv.Close() }, nil
}

// notedHooks adds the coarse coordinates of each call to the access log's
// note: the distance centre and the serves point, cut to 2 decimals
// (LOCATION.md section 10), never the precise values; nothing when the
// access log is off.
type notedHooks struct{ next locationHooks }

func (h notedHooks) SearchLocations(ctx context.Context, m *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	if n := mcpserver.NoteOf(ctx); n.WantsFields() && req != nil {
		noteCoordinates(n, req.Distance, req.Serves)
	}
	return h.next.SearchLocations(ctx, m, req)
}

func (h notedHooks) LookupLocations(ctx context.Context, m *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	if n := mcpserver.NoteOf(ctx); n.WantsFields() && req != nil {
		noteCoordinates(n, req.Distance, req.Serves)
	}
	return h.next.LookupLocations(ctx, m, req)
}

func noteCoordinates(n *mcpserver.CallNote, d opt.Value[location.LocationDistance], s opt.Value[location.LocationServes]) {
	if d, ok := d.Get(); ok {
		n.Set("near", ops.Coarse(d.Center.Latitude, d.Center.Longitude))
	}
	if s, ok := s.Get(); ok {
		if p, ok := s.Point.Get(); ok {
			n.Set("serves_point", ops.Coarse(p.Latitude, p.Longitude))
		}
	}
}
