package postgis_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis"
)

// Example loads a dataset file into PostgreSQL, streamed, and serves the
// database over MCP: the pattern of a primary that loads and replicas (or a
// hot standby) that only serve, each calling Open on its own pool.
func Example() {
	ctx := context.Background()
	pool, err := postgis.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	if _, err := postgis.LoadFile(ctx, pool, "stores.json"); err != nil { // on the primary only
		log.Fatal(err)
	}
	src, err := postgis.Open(ctx, pool, postgis.Options{})
	if err != nil {
		log.Fatal(err)
	}
	svc, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "my-stores", Version: "1"}, nil)
	if err := location.Register(server, svc, nil); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", mcpserver.Handler(server, nil)))
}
