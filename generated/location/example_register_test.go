package location_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
)

// oneStore is the smallest Business: it knows one store and returns it for
// every search, and resolves only that store's id on lookup.
type oneStore struct{}

func (oneStore) SearchLocations(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	return &location.SearchResponse{Locations: []location.Location{{ID: "loc_main_st", Name: "Main Street Store"}}}, nil
}

func (oneStore) LookupLocations(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	resp := &location.LookupResponse{}
	for _, id := range req.IDs {
		if id == "loc_main_st" {
			resp.Locations = append(resp.Locations, location.LookupLocation{
				ID: id, Name: "Main Street Store",
				Inputs: []location.LookupLocationInput{{ID: id}},
			})
		}
	}
	return resp, nil
}

// ExampleRegister registers the Location tools on an MCP server, wired to a
// Business's hooks, and calls one through an in-memory client. The runtime
// decodes and validates the arguments before the hook runs, and an invalid
// call never reaches it.
func ExampleRegister() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "my-store", Version: "1"}, nil)
	if err := location.Register(server, oneStore{}, nil); err != nil {
		log.Fatal(err)
	}

	// In production the server is served over HTTP with
	// mcpserver.Handler; here a client connects in memory.
	serverT, clientT := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverT, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	session, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools.Tools {
		fmt.Println("tool:", t.Name)
	}

	res, err := session.CallTool(ctx, &mcp.CallToolParams{
		Name: "search_locations",
		Arguments: json.RawMessage(`{
			"meta": {"ucp-agent": {"profile": "https://platform.example/profile.json"}},
			"location": {"query": "main street"}
		}`),
	})
	if err != nil {
		log.Fatal(err)
	}
	var out struct {
		Locations []struct{ ID, Name string }
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:", out.Locations[0].ID, out.Locations[0].Name)

	// A limit of 0 breaks the schema's minimum: the hook is not called.
	_, err = session.CallTool(ctx, &mcp.CallToolParams{
		Name: "search_locations",
		Arguments: json.RawMessage(`{
			"meta": {"ucp-agent": {"profile": "https://platform.example/profile.json"}},
			"location": {"pagination": {"limit": 0}}
		}`),
	})
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		fmt.Println("invalid:", rpcErr.Code, rpcErr.Message)
	}
	// Output:
	// tool: lookup_locations
	// tool: search_locations
	// found: loc_main_st Main Street Store
	// invalid: -32602 invalid params: /location/pagination/limit: must be >= 1, got 0
}
