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
// /.well-known/ucp.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/cursorkeys"
	"github.com/ucpgen/ucpgen/examples/storefinder/dataset"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "storefinder:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	addr     string
	stdio    bool
	data     string
	batchMax int
	pageMax  int
	// postgres is the PostGIS DSN to serve from ("" : in memory).
	postgres string
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
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("storefinder", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "HTTP listen address")
	fs.BoolVar(&c.stdio, "stdio", false, "serve MCP over stdin/stdout instead of HTTP")
	fs.StringVar(&c.data, "data", "", "dataset file (JSON array of store records); default: the embedded dataset")
	fs.IntVar(&c.batchMax, "batch-max", 0, "distinct ids processed per lookup (0: runtime default; at least 10)")
	fs.IntVar(&c.pageMax, "page-max", 0, "largest search page (0: runtime default)")
	fs.StringVar(&c.postgres, "postgres", "", "serve from this PostgreSQL + PostGIS DSN instead of memory; with --data, first load FILE into it (the database then holds exactly FILE's records)")
	fs.StringVar(&c.cursorKeys, "cursor-keys", "", "cursor key file shared by replicas: {\"current\": id, \"keys\": {id: base64}} (default: $"+cursorkeys.EnvVar+", else a per-process key)")
	fs.BoolVar(&c.negotiate, "negotiate", false, "fetch each request's Platform profile (meta.ucp-agent.profile) and negotiate capabilities; off by default, which trusts every caller with this Business's own capabilities")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return c, nil
}

func loadRecords(path string) ([]dataset.Record, error) {
	if path == "" {
		return dataset.Default()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	recs, err := dataset.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("--data %s: %w", path, err)
	}
	return recs, nil
}

// newServer builds the MCP server over the configured dataset.
func newServer(c config, logger *slog.Logger) (*mcp.Server, int, error) {
	signer, err := cursorkeys.Load(c.cursorKeys)
	if err != nil {
		return nil, 0, err
	}
	src, n, err := openSource(c)
	if err != nil {
		return nil, 0, err
	}
	svc, err := location.NewService(src, location.ServiceOptions{
		Lookup: lookup.Options{BatchMax: c.batchMax},
		Pages:  pagination.Options{MaxLimit: c.pageMax},
		Signer: signer,
	})
	if err != nil {
		return nil, 0, err
	}
	neg, err := negotiator(c)
	if err != nil {
		return nil, 0, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "ucpgen-storefinder", Version: location.ProtocolVersion}, nil)
	if err := location.Register(server, svc, &mcpserver.Options{Version: location.ProtocolVersion, Logger: logger, Negotiator: neg}); err != nil {
		return nil, 0, err
	}
	return server, n, nil
}

// businessCapabilities is what this Business offers, as negotiation sees it.
func businessCapabilities() map[string][]negotiation.CapabilityVersion {
	caps := map[string][]negotiation.CapabilityVersion{}
	for _, c := range location.Capabilities {
		caps[c.Name] = []negotiation.CapabilityVersion{{Version: c.Version}}
	}
	return caps
}

// negotiator returns nil (trusted mode) unless --negotiate is set.
func negotiator(c config) (negotiation.Negotiator, error) {
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
	return &negotiation.ProfileNegotiator{
		Source:  src,
		Current: negotiation.Business{Version: location.ProtocolVersion, Capabilities: businessCapabilities()},
	}, nil
}

func run(args []string) error {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	server, n, err := newServer(c, logger)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if c.stdio {
		logger.Info("storefinder serving MCP over stdio", "records", n)
		return server.Run(ctx, &mcp.StdioTransport{})
	}

	base := "http://" + c.addr
	profile, err := location.BusinessProfile(base + "/ucp/mcp")
	if err != nil {
		return fmt.Errorf("business profile: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/ucp/mcp", mcpserver.Handler(server, nil))
	mux.Handle("/.well-known/ucp", mcpserver.ProfileHandler(profile))
	srv := &http.Server{Addr: c.addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	logger.Info("storefinder serving MCP", "endpoint", base+"/ucp/mcp", "profile", base+"/.well-known/ucp", "records", n)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("listen %s: %w", c.addr, err)
	}
	return nil
}
