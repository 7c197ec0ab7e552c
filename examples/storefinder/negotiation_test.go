package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
)

// TestNegotiationEndToEnd serves Platform profiles from a loopback HTTPS
// server and calls the example over the SDK: a Platform that lists only
// lookup gets lookup results and the capabilities_incompatible outcome from
// search.
func TestNegotiationEndToEnd(t *testing.T) {
	platform := `{"ucp":{"version":"2026-08-25",
	  "services":{"dev.ucp.common":[{"version":"2026-08-25","spec":"https://ucp.dev/2026-08-25/specification/overview","transport":"mcp","schema":"https://ucp.dev/2026-08-25/services/common/mcp.openrpc.json"}]},
	  "capabilities":{"dev.ucp.common.location.lookup":[{"version":"2026-08-25","spec":"https://ucp.dev/2026-08-25/specification/common/location/lookup","schema":"https://ucp.dev/2026-08-25/schemas/common/location_lookup.json"}]},
	  "payment_handlers":{}}}`
	fetches := 0
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches++
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=60")
		w.Write([]byte(platform))
	}))
	defer ts.Close()
	src, err := negotiation.NewHTTPSource(negotiation.HTTPOptions{AllowPrivateNetworks: true, TLSConfig: ts.Client().Transport.(*http.Transport).TLSClientConfig})
	if err != nil {
		t.Fatal(err)
	}
	neg := &negotiation.ProfileNegotiator{Source: src, Current: negotiation.Business{Version: location.ProtocolVersion, Capabilities: offered(t)}}
	server, _, err := newServer(config{negotiator: neg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	meta := `{"ucp-agent":{"profile":"` + ts.URL + `/platform.json"}}`

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(`{"meta":` + meta + `,"location":{}}`)})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		UCP struct {
			Status       string                     `json:"status"`
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		} `json:"ucp"`
		Messages []struct{ Type, Code, Severity string } `json:"messages"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if out.UCP.Status != "error" || len(out.Messages) != 1 || out.Messages[0].Code != "capabilities_incompatible" || out.Messages[0].Severity != "unrecoverable" || out.Messages[0].Type != "error" {
		t.Fatalf("search with a lookup-only Platform: %s", b)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_locations", Arguments: json.RawMessage(`{"meta":` + meta + `,"location":{"ids":["store-0001"]}}`)})
	if err != nil || res.IsError {
		t.Fatalf("lookup: %v %+v", err, res)
	}
	b, _ = json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"dev.ucp.common.location.lookup":[{"version":"2026-08-25"}]`) || strings.Contains(string(b), `"status":"error"`) {
		t.Fatalf("lookup response ucp: %s", b)
	}
	if fetches != 1 {
		t.Fatalf("profile fetched %d times, want 1 (cached by max-age)", fetches)
	}

	// An invalid request is rejected before its (uncached) profile is fetched.
	other := `{"ucp-agent":{"profile":"` + ts.URL + `/other.json"}}`
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(`{"meta":` + other + `,"location":{"distance":{"max":-1}}}`)}); err == nil {
		t.Fatal("invalid request accepted")
	}
	if fetches != 1 {
		t.Fatalf("an invalid request fetched the profile (%d fetches)", fetches)
	}

	// A profile URL that is not https is a -32001 invalid_profile_url.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_locations", Arguments: json.RawMessage(`{"meta":{"ucp-agent":{"profile":"http://platform.example/p.json"}},"location":{"ids":["x"]}}`)})
	if err == nil || !strings.Contains(err.Error(), "profile") {
		t.Fatalf("http profile URL: %v", err)
	}
}

// offered is what newServers offers negotiation: the capabilities of its
// hooks' type, which a zero notedHooks has too.
func offered(t *testing.T) map[string][]negotiation.CapabilityVersion {
	t.Helper()
	caps, err := businessCapabilities(notedHooks{})
	if err != nil {
		t.Fatal(err)
	}
	return caps
}
