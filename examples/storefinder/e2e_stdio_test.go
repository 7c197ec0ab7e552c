package main

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioEndToEnd builds the example, starts it as a subprocess with
// --stdio the way an MCP host launches a local server, and drives it with
// the official Go SDK's command transport: list the tools, search, look up
// what the search found, and get -32602 for a bad argument.
func TestStdioEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the example binary (not in -short mode)")
	}
	bin := storefinderBinary(t)
	ctx := e2eContext(t)
	cmd := exec.Command(bin, "--stdio")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-stdio", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"lookup_locations", "search_locations"}) {
		t.Fatalf("tools over stdio = %v", names)
	}

	var page e2eSearchPage
	if err := e2eCall(ctx, cs, "search_locations", `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":3}}`, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Locations) == 0 {
		t.Fatal("search over stdio found nothing near New York")
	}
	var found e2eLookup
	if err := e2eCall(ctx, cs, "lookup_locations", `{"ids":["`+page.Locations[0].ID+`"]}`, &found); err != nil {
		t.Fatal(err)
	}
	if len(found.Locations) != 1 || found.Locations[0].ID != page.Locations[0].ID {
		t.Fatalf("lookup over stdio of %s = %+v", page.Locations[0].ID, found)
	}

	err = e2eCall(ctx, cs, "search_locations", `{"distance":{"center":{"latitude":40.7,"longitude":-74},"max":-5}}`, &page)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 || !strings.Contains(string(rpcErr.Data), `"/location/distance/max"`) {
		t.Fatalf("bad argument over stdio: err = %v, want JSON-RPC -32602 naming /location/distance/max", err)
	}
}
