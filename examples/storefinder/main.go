// Command storefinder is an example UCP Business: it serves Location Search
// and Lookup over MCP for a fictional multi-brand retailer, from the embedded
// dataset or a --data file in the same format.
//
//	go run ./examples/storefinder                 # streamable HTTP on 127.0.0.1:8080
//	go run ./examples/storefinder --stdio         # MCP over stdin/stdout
//	go run ./examples/storefinder --postgres "$DSN" --data stores.json
//	                                              # load into PostGIS, then serve from it
//
// Over HTTP the MCP endpoint is /ucp/mcp and the Business profile is
// /.well-known/ucp. --supported-versions 2026-08-21 also serves that older
// version from the same data, at /ucp/2026-08-21/mcp with its own profile
// at /.well-known/ucp/2026-08-21, listed in the current profile's
// supported_versions. The server has read, write and idle timeouts, a cap on
// requests in flight and per-caller rate limits (see --help and
// docs/security.md), and on SIGTERM or SIGINT it stops accepting
// connections and lets requests in flight finish within --shutdown-grace.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/cursorkeys"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/heapgoal"
	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/restserver"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "storefinder:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	addr  string
	stdio bool
	data  string
	// snapshot is the in-memory store's snapshot file ("" : none), see
	// store.OpenSnapshot.
	snapshot string
	// snapshotKey is the file of the key that authenticates the snapshot
	// (store.ReadSnapshotKey); required with snapshot.
	snapshotKey string
	batchMax    int
	pageMax     int
	// postgres is the PostGIS DSN to serve from ("" : in memory).
	postgres string
	// postgresTimeout bounds each PostGIS statement (0: the source's default).
	postgresTimeout time.Duration
	// postgresSmallSet is postgis.Options.SmallSet; no flag sets it (tests
	// use -1 to rank every page through the posting lists).
	postgresSmallSet int
	// ops is the metrics, access log and probes (operations.go); nil in
	// configs built by hand, which turns them off.
	ops *opsState
	// cursorKeys is the shared cursor key file ("" : the environment
	// variable, else a per-process key).
	cursorKeys string
	// pools, when set, collects the PostGIS pools opened, so a test can
	// close them; a process keeps its pool for its lifetime.
	pools *[]*pgxpool.Pool
	// negotiate turns on Platform profile discovery (https only, public
	// addresses only) instead of the trusted default.
	negotiate bool
	// negotiator overrides the discovery source; tests use it with a
	// loopback HTTPS server.
	negotiator negotiation.Negotiator
	// limits are the HTTP server's timeouts and request limits.
	limits limits
	// wrap, when set, wraps the store's hooks; tests use it to hold or
	// fail a call.
	wrap hooksWrapper
	// holdWrite, when set, holds a snapshot write before it begins: the
	// write sends on it, then waits to receive. Tests use it to keep the
	// write running while the server serves and stops.
	holdWrite chan struct{}
	// supported are the older UCP versions served beside the current one
	// (--supported-versions), each at its own endpoints.
	supported versionList
}

// limits bound what one client or the whole load can cost the server.
type limits struct {
	readHeaderTimeout time.Duration
	readTimeout       time.Duration
	writeTimeout      time.Duration
	idleTimeout       time.Duration
	shutdownGrace     time.Duration
	maxHeaderBytes    int
	maxInFlight       int
	rate              float64
	rateBurst         int
	itemsRate         float64
	itemsBurst        int
	otherRate         float64
	otherBurst        int
	maxRequestMemory  int64
	minWriteRate      int64
	writeGrace        time.Duration
	// viaSDK routes tools/call through the SDK's per-request session
	// instead of mcpserver's direct path (for comparison and debugging).
	viaSDK bool
	// gcHeadroom is heapgoal.Keep's headroom once the data is loaded (0:
	// Go's default growth target).
	gcHeadroom int64
}

// locationHooks are the Location capabilities the storefinder serves, the
// hooks its wrappers decorate. Naming the two interfaces it adopts, not the
// service's Hooks, keeps it compiling and serving the same when a UCP release
// adds another capability to the service.
type locationHooks interface {
	location.LocationSearchHooks
	location.LocationLookupHooks
}

// hooksWrapper decorates the generated hooks (an interface, so config stays
// comparable).
type hooksWrapper interface {
	wrap(locationHooks) locationHooks
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("storefinder", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "HTTP listen address")
	fs.BoolVar(&c.stdio, "stdio", false, "serve MCP over stdin/stdout instead of HTTP")
	fs.StringVar(&c.data, "data", "", "dataset file (JSON array of store records); default: the embedded dataset")
	fs.StringVar(&c.snapshot, "snapshot", "", "with --data (in memory): open the stores from this snapshot file when this build of the storefinder wrote it from the same --data contents, else build them from --data and write it, so the next start skips parsing and validating every record")
	fs.StringVar(&c.snapshotKey, "snapshot-key", "", "with --snapshot (required): file holding the base64 of at least 32 random bytes, readable by this user only (head -c 32 /dev/urandom | base64 > FILE; chmod 600 FILE); the snapshot is written with an HMAC under it and opened only when that HMAC verifies, else it is rebuilt from --data; a new key costs one rebuild")
	fs.IntVar(&c.batchMax, "batch-max", 0, "distinct ids processed per lookup (0: runtime default; at least 10)")
	fs.IntVar(&c.pageMax, "page-max", 0, "largest search page (0: runtime default)")
	fs.StringVar(&c.postgres, "postgres", "", "serve from this PostgreSQL + PostGIS DSN instead of memory; with --data, first load FILE into it (the database then holds exactly FILE's records)")
	fs.DurationVar(&c.postgresTimeout, "postgres-timeout", postgis.DefaultTimeout, "longest one PostGIS statement may take, waiting for a connection included; past it the call gets -32000 with HTTP 503 and Retry-After (the session's statement_timeout is "+postgis.StatementTimeout.String()+")")
	fs.StringVar(&c.cursorKeys, "cursor-keys", "", "cursor key file shared by replicas: {\"current\": id, \"keys\": {id: base64}}, readable by its owner and group only (chmod o-rw FILE) (default: $"+cursorkeys.EnvVar+", else a per-process key)")
	fs.Var(&c.supported, "supported-versions", "comma-separated older UCP versions to serve beside "+location.ProtocolVersion+", each with its own profile (/.well-known/ucp/VERSION), MCP endpoint (/ucp/VERSION/mcp) and REST binding (/ucp/VERSION/locations/...), listed in the profile's supported_versions; off by default (known: "+knownVersions()+")")
	fs.BoolVar(&c.negotiate, "negotiate", false, "fetch each request's Platform profile (meta.ucp-agent.profile) and negotiate capabilities; off by default, which trusts every caller with this Business's own capabilities")
	c.ops = opsFlags(fs)
	l := &c.limits
	fs.DurationVar(&l.readHeaderTimeout, "read-header-timeout", 10*time.Second, "time allowed to read a request's headers")
	fs.DurationVar(&l.readTimeout, "read-timeout", 30*time.Second, "time allowed to read a whole request, body included")
	fs.DurationVar(&l.writeTimeout, "write-timeout", 60*time.Second, "time allowed from the end of the request headers to the end of the response")
	fs.DurationVar(&l.idleTimeout, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection is kept")
	fs.DurationVar(&l.shutdownGrace, "shutdown-grace", 20*time.Second, "on SIGTERM or SIGINT, how long requests in flight may take to finish")
	fs.IntVar(&l.maxHeaderBytes, "max-header-bytes", 64<<10, "largest request header block")
	fs.IntVar(&l.maxInFlight, "max-inflight", 256, "requests served at once; more get -32000 with HTTP 503 and Retry-After (0: no cap)")
	fs.Float64Var(&l.rate, "rate", 200, "tool calls per second per caller (agent profile, else remote address); more get -32000 with HTTP 429 (0: no limit)")
	fs.IntVar(&l.rateBurst, "rate-burst", 400, "tool calls a caller may make at once before --rate applies")
	fs.Float64Var(&l.itemsRate, "items-rate", 20, "searches with filters.items per second per caller, on top of --rate, against inventory probing (0: no extra limit)")
	fs.IntVar(&l.itemsBurst, "items-burst", 40, "searches with filters.items a caller may make at once before --items-rate applies")
	fs.Float64Var(&l.otherRate, "other-rate", 100, "requests that run no tool (tools/list, initialize, ping, refused messages) per second per remote address; more get -32000 with HTTP 429 (0: no limit)")
	fs.IntVar(&l.otherBurst, "other-burst", 200, "requests that run no tool a remote address may make at once before --other-rate applies")
	fs.Int64Var(&l.maxRequestMemory, "max-request-memory", ucpcore.DefaultMaxRequestMemory, "bytes the requests being served may reserve together, each 64 times its body size; a request that finds none free within 30 s gets -32000 with HTTP 503 (-1: no budget)")
	fs.Int64Var(&l.minWriteRate, "min-write-rate", mcpserver.DefaultMinWriteRate, "slowest a client may read an answer, in bytes per second after --write-grace; slower connections are closed (-1: no minimum)")
	fs.DurationVar(&l.writeGrace, "write-grace", mcpserver.DefaultWriteGrace, "how long an answer may take before --min-write-rate applies")
	fs.Int64Var(&l.gcHeadroom, "gc-headroom", heapgoal.DefaultHeadroom, "once the data is loaded, bytes the heap may always grow by between two garbage collections, so that a small dataset is not collected every few hundred calls; costs up to that much memory (0: Go's default, the live heap; the GOGC environment variable, when set, wins; GOMEMLIMIT still bounds the heap)")
	fs.BoolVar(&l.viaSDK, "tool-calls-via-sdk", false, "answer tools/call through the MCP SDK's per-request session instead of the direct path (same bytes, about half the throughput; for comparison)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	for _, check := range []struct {
		name string
		bad  bool
	}{
		{"--read-header-timeout", l.readHeaderTimeout <= 0},
		{"--read-timeout", l.readTimeout <= 0},
		{"--write-timeout", l.writeTimeout <= 0},
		{"--idle-timeout", l.idleTimeout <= 0},
		{"--shutdown-grace", l.shutdownGrace < 0},
		{"--postgres-timeout", c.postgresTimeout <= 0},
		{"--drain-delay", c.ops.drainDelay < 0},
		{"--ready-timeout", c.ops.readyWait <= 0},
		{"--max-header-bytes", l.maxHeaderBytes <= 0},
		{"--max-inflight", l.maxInFlight < 0},
		{"--rate", l.rate < 0},
		{"--rate-burst", l.rateBurst < 1},
		{"--items-rate", l.itemsRate < 0},
		{"--items-burst", l.itemsBurst < 1},
		{"--other-rate", l.otherRate < 0},
		{"--other-burst", l.otherBurst < 1},
		{"--max-request-memory", l.maxRequestMemory == 0 || l.maxRequestMemory < -1},
		{"--min-write-rate", l.minWriteRate == 0 || l.minWriteRate < -1},
		{"--write-grace", l.writeGrace <= 0},
		{"--gc-headroom", l.gcHeadroom < 0},
	} {
		if check.bad {
			return c, fmt.Errorf("%s: out of range", check.name)
		}
	}
	if c.snapshot != "" && (c.data == "" || c.postgres != "") {
		return c, errors.New("--snapshot needs --data and the in-memory store (it holds the indexes built from that file; PostgreSQL keeps its own)")
	}
	if c.snapshot != "" && c.snapshotKey == "" {
		return c, errors.New("--snapshot needs --snapshot-key FILE: the key that proves a snapshot was written by this deployment, so an altered one is never served (head -c 32 /dev/urandom | base64 > FILE; chmod 600 FILE)")
	}
	if c.snapshotKey != "" && c.snapshot == "" {
		return c, errors.New("--snapshot-key needs --snapshot")
	}
	if c.stdio && c.supported != "" {
		return c, errors.New("--supported-versions needs HTTP: each version has its own endpoint, and --stdio has one")
	}
	return c, nil
}

func loadRecords(path string) ([]dataset.Record, error) {
	if path == "" {
		return sample.Default()
	}
	// ParseFile streams the file, so a large dataset is never held whole
	// beside the records made from it.
	recs, err := dataset.ParseFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("--data: %w", err)
		}
		return nil, fmt.Errorf("--data %s: %w", path, err)
	}
	return recs, nil
}

// openData opens a --data file for the in-memory store, with loadRecords'
// error wording; its records are validated and tokenised while it is
// parsed, so memory.NewFile does not read every Location again.
func openData(path string) (*dataset.File, error) {
	df, err := dataset.OpenFileWith(path, 0, memory.FileVisitors())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("--data: %w", err)
		}
		return nil, fmt.Errorf("--data %s: %w", path, err)
	}
	return df, nil
}

// newServer builds the current version's MCP server over the configured
// dataset.
func newServer(c config, logger *slog.Logger) (*mcp.Server, int, error) {
	s, n, err := newServers(c, logger)
	return s.current, n, err
}

// newServers builds the MCP server of every version served, all over one
// Source opened from the configured dataset.
func newServers(c config, logger *slog.Logger) (servers, int, error) {
	signer, err := cursorkeys.Load(c.cursorKeys)
	if err != nil {
		return servers{}, 0, err
	}
	src, n, err := openSource(c, logger)
	if err != nil {
		return servers{}, 0, err
	}
	src = c.ops.observe(src)
	svc, err := location.NewService(src, location.ServiceOptions{
		Lookup: lookup.Options{BatchMax: c.batchMax},
		Pages:  pagination.Options{MaxLimit: c.pageMax},
		Signer: signer,
	})
	if err != nil {
		return servers{}, 0, err
	}
	var h locationHooks = notedHooks{svc}
	if c.wrap != nil {
		h = c.wrap.wrap(h)
	}
	neg, err := negotiator(c, h)
	if err != nil {
		return servers{}, 0, err
	}
	var s servers
	for _, v := range append([]string{location.ProtocolVersion}, c.supported.versions()...) {
		at, err := negotiatorAt(neg, v)
		if err != nil {
			return servers{}, 0, err
		}
		server := mcp.NewServer(&mcp.Implementation{Name: "ucpgen-storefinder", Version: v}, nil)
		opts := &ucpcore.Options{Version: v, Logger: logger, Negotiator: at}
		if v == location.ProtocolVersion {
			err = location.Register(server, h, opts)
			s.current, s.hooks, s.opts = server, h, opts
		} else {
			ov := olderVersions[v]
			older := ov.serve(h)
			err = ov.register(server, older, opts)
			s.older = append(s.older, olderServer{version: v, server: server, hooks: older, opts: opts, rest: ov.rest, profile: ov.profile})
		}
		if err != nil {
			return servers{}, 0, fmt.Errorf("version %s: %w", v, err)
		}
	}
	return s, n, nil
}

// businessCapabilities is what this Business offers through h, as
// negotiation sees it.
func businessCapabilities(h location.Hooks) (map[string][]negotiation.CapabilityVersion, error) {
	list, err := location.Capabilities(h)
	if err != nil {
		return nil, err
	}
	return capabilityVersions(list), nil
}

// negotiator returns nil (trusted mode) unless --negotiate is set; h are
// the current version's hooks, whose capabilities it offers.
func negotiator(c config, h location.Hooks) (negotiation.Negotiator, error) {
	if c.negotiator != nil {
		return c.negotiator, nil
	}
	if !c.negotiate {
		return nil, nil
	}
	src, err := negotiation.NewHTTPSource(negotiation.HTTPOptions{})
	if err != nil {
		return nil, fmt.Errorf("--negotiate: %w", err)
	}
	older, err := olderBusinesses(c.supported.versions(), h)
	if err != nil {
		return nil, err
	}
	caps, err := businessCapabilities(h)
	if err != nil {
		return nil, err
	}
	return &negotiation.ProfileNegotiator{
		Source:  src,
		Current: negotiation.Business{Version: location.ProtocolVersion, Capabilities: caps},
		Older:   older,
	}, nil
}

func run(args []string) error {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !c.stdio {
		return serveHTTP(ctx, c, logger)
	}
	logLoading(logger, c)
	defer c.ops.waitWrites(logger)
	s, n, err := newServers(c, logger)
	if err != nil {
		return err
	}
	defer heapgoal.Keep(c.limits.gcHeadroom)()
	if c.ops.metricsAddr != "" {
		stop, err := serveMetrics(c.ops, logger)
		if err != nil {
			return err
		}
		defer stop()
	}
	logger.Info("storefinder serving MCP over stdio", "records", n)
	return serveStdio(ctx, s.current, stdioTransport(c, logger), c.limits.shutdownGrace, logger)
}

// stdioTransport is the stdin/stdout transport with the limits and the
// operations the HTTP endpoints have: the same rate buckets (the caller
// of a call without a profile is mcpserver.StdioCaller), and each message
// in the metrics and the access log under the transport "stdio".
func stdioTransport(c config, logger *slog.Logger) *mcpserver.StdioTransport {
	t := &mcpserver.StdioTransport{Budget: newBudget(c.limits)}
	if c.ops != nil {
		c.ops.logger = logger
		t.Observe = c.ops.stdioObserver()
	}
	return t
}

// serveStdio serves t until end of input, or until ctx is done: then it
// stops reading and lets the calls already read finish within grace.
func serveStdio(ctx context.Context, server *mcp.Server, t *mcpserver.StdioTransport, grace time.Duration, logger *slog.Logger) error {
	drain := make(chan struct{})
	t.Drain = drain
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := context.AfterFunc(ctx, func() {
		logger.Info("storefinder draining stdio", "grace", grace)
		close(drain)
		time.AfterFunc(grace, cancel)
	})
	defer stopped()
	err := server.Run(runCtx, t)
	if runCtx.Err() != nil {
		return fmt.Errorf("shutdown: calls still in flight after %s were cut off", grace)
	}
	return err
}

// httpServer builds the HTTP server of the current version alone.
func httpServer(c config, server *mcp.Server, base string, logger *slog.Logger) (*http.Server, error) {
	return httpServers(c, servers{current: server}, base, logger)
}

// httpServers builds the HTTP server with its timeouts and limits, serving
// every version's MCP endpoint and profile; base is the URL the Business
// profiles advertise.
func httpServers(c config, s servers, base string, logger *slog.Logger) (*http.Server, error) {
	docs, err := profiles(s, base)
	if err != nil {
		return nil, err
	}
	l := c.limits
	budget := newBudget(l)
	// The store finder adds no SDK middleware, so the direct path, which
	// writes the SDK's bytes without its per-request session, loses nothing.
	opts := &mcpserver.HTTPOptions{Budget: budget, MinWriteRate: l.minWriteRate, WriteGrace: l.writeGrace, Logger: logger, DirectToolCalls: !l.viaSDK}
	mux := http.NewServeMux()
	var fallback http.Handler
	if s.current != nil {
		mux.Handle(mcpPath(location.ProtocolVersion), c.ops.wrap(mcpserver.Handler(s.current, opts), "mcp"))
	}
	if s.hooks != nil {
		// The REST binding: the same hooks and options, the same budget.
		rest, err := location.RESTHandler(s.hooks, s.opts, &restserver.Options{Base: restBase, Budget: budget, Logger: logger, NoAccessLog: c.ops.accessLogged()})
		if err != nil {
			return nil, fmt.Errorf("rest: %w", err)
		}
		// Every path no other pattern takes: the REST handler answers one it
		// has no operation for (a capability not implemented, a case
		// variant, a path outside /ucp) with its JSON 404, charged as its
		// other refusals are.
		fallback = c.ops.wrap(rest, "rest")
		mux.Handle("/", fallback)
	}
	for _, o := range s.older {
		mux.Handle(mcpPath(o.version), c.ops.wrap(mcpserver.Handler(o.server, opts), "mcp"))
		// Its REST binding: the same Source through the same conversion,
		// drawing on the same budget as every other endpoint.
		rest, err := o.rest(o.hooks, o.opts, &restserver.Options{Base: restPath(o.version), Budget: budget, Logger: logger, NoAccessLog: c.ops.accessLogged()})
		if err != nil {
			return nil, fmt.Errorf("rest %s: %w", o.version, err)
		}
		// The base itself too: ServeMux would redirect it to base/.
		wrapped := c.ops.wrap(rest, "rest")
		mux.Handle(restPath(o.version)+"/", wrapped)
		mux.Handle(restPath(o.version), wrapped)
	}
	for path, doc := range docs {
		mux.Handle(path, ucpcore.ProfileHandler(doc))
	}
	var handler http.Handler = mux
	if fallback != nil {
		handler = withoutRedirects(mux, fallback)
	}
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: l.readHeaderTimeout,
		ReadTimeout:       l.readTimeout,
		WriteTimeout:      l.writeTimeout,
		IdleTimeout:       l.idleTimeout,
		MaxHeaderBytes:    l.maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}, nil
}

// newBudget is the in-flight cap, request memory and rate buckets every
// endpoint of one process draws on, stdio included.
func newBudget(l limits) *ucpcore.Budget {
	return ucpcore.NewBudget(ucpcore.BudgetOptions{MaxInFlight: l.maxInFlight, MaxRequestMemory: l.maxRequestMemory, RateLimit: &ucpcore.RateLimit{
		PerSecond:       l.rate,
		Burst:           l.rateBurst,
		Strict:          searchesItems,
		StrictPerSecond: l.itemsRate,
		StrictBurst:     l.itemsBurst,
		OtherPerSecond:  l.otherRate,
		OtherBurst:      l.otherBurst,
	}})
}

// withoutRedirects serves mux, but sends a path ServeMux would redirect
// (repeated slashes, dot segments) to fallback, the REST handler, which
// refuses it with its JSON 404: a redirect is a refusal in another shape,
// and one no rate limit charges.
func withoutRedirects(mux *http.ServeMux, fallback http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		if c := path.Clean(p); c != p && c+"/" != p {
			fallback.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// searchesItems selects the calls --items-rate applies to: searches that
// filter by item availability (filters.items, or filters.inventory at
// 2026-08-21), which can probe a Business's inventory.
func searchesItems(tool string, args json.RawMessage) bool {
	if tool != "search_locations" {
		return false
	}
	// Without a backslash every member name is written as it reads, so
	// arguments that never say "items" or "inventory" filter by neither:
	// most calls end here, without the walk below.
	if bytes.IndexByte(args, '\\') < 0 && !bytes.Contains(args, []byte(`"items"`)) && !bytes.Contains(args, []byte(`"inventory"`)) {
		return false
	}
	// Read exactly as the validated call: mcpserver calls this only once
	// the arguments passed validation, and Argument matches names exactly.
	// One walk of filters answers both names.
	probes := false
	jsonmember.EachValid(ucpcore.Argument(args, "location", "filters"), func(name string, v json.RawMessage) error {
		if (name == "items" || name == "inventory") && string(v) != "null" {
			probes = true
			return errFound
		}
		return nil
	})
	return probes
}

// errFound ends a walk that found what it looked for.
var errFound = errors.New("found")

// serveUntil serves on ln until ctx is done, then stops accepting
// connections and waits up to grace for requests in flight to be answered;
// only if grace runs out are the remaining connections closed.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration, logger *slog.Logger) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	logger.Info("storefinder shutting down", "grace", grace)
	shut, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(shut)
	<-served // http.ErrServerClosed, once Shutdown has closed the listener
	if err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: requests still in flight after %s were cut off: %w", grace, err)
	}
	logger.Info("storefinder stopped")
	return nil
}
