package main

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

// TestTypeScriptClient drives the server with the official TypeScript MCP
// SDK (installed by .ci/run into testdata/e2e-ts/node_modules), an implementation
// independent of the Go SDK. It skips on machines without node unless
// UCPGEN_CI is set, where it must run. A second server, whose negotiation
// finds no common capability, checks that the capabilities_incompatible
// outcome passes the SDK's validation of structuredContent against the
// advertised outputSchema.
func TestTypeScriptClient(t *testing.T) {
	server, _, err := newServer(config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcpserver.Handler(server, nil))
	defer ts.Close()
	lookupOnly := envelope.Fixed(location.ProtocolVersion, map[string]string{"dev.ucp.common.location.lookup": location.ProtocolVersion})
	other, _, err := newServer(config{negotiator: lookupOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(mcpserver.Handler(other, nil))
	defer ts2.Close()

	const id = "loc_a72bfe596943"
	out := testshared.RunTypeScript(t, "client.mjs", ts.URL, id, ts2.URL)
	var got struct {
		Tools            []string
		InputSchemaTypes []string
		Search           struct {
			UCP struct {
				Version      string
				Capabilities map[string]json.RawMessage
			}
			Locations []struct {
				ID  string
				Geo *struct{ Latitude, Longitude float64 }
			}
			Pagination struct {
				HasNextPage bool   `json:"has_next_page"`
				Cursor      string `json:"cursor"`
			}
		}
		SearchText string
		Lookup     struct {
			Locations []struct {
				ID     string
				Inputs []struct{ ID string }
			}
			Messages []struct{ Type, Code string }
		}
		Invalid *struct {
			Code    int
			Message string
		}
		Incompatible *struct {
			Result *struct {
				UCP struct {
					Status string
				}
				Locations []json.RawMessage
				Messages  []struct{ Type, Code, Content string }
			}
			IsError bool
			Thrown  *struct {
				Code    *int
				Message string
			}
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(got.Tools, []string{"lookup_locations", "search_locations"}) {
		t.Errorf("tools = %v", got.Tools)
	}
	for _, typ := range got.InputSchemaTypes {
		if typ != "object" {
			t.Errorf("input schema type %q", typ)
		}
	}
	if got.Search.UCP.Version != "2026-08-25" || got.Search.UCP.Capabilities["dev.ucp.common.location.search"] == nil {
		t.Errorf("search ucp = %+v", got.Search.UCP)
	}
	if n := len(got.Search.Locations); n == 0 || n > 5 {
		t.Errorf("search returned %d locations, want 1..5", n)
	}
	center := geodesic.Point{Lat: 40.7128, Lon: -74.006}
	for _, l := range got.Search.Locations {
		if l.Geo == nil || !geodesic.Within(center, geodesic.Point{Lat: l.Geo.Latitude, Lon: l.Geo.Longitude}, 20000) {
			t.Errorf("%s is outside the 20 km radius", l.ID)
		}
	}
	if got.Search.Pagination.HasNextPage != (got.Search.Pagination.Cursor != "") {
		t.Errorf("pagination inconsistent: %+v", got.Search.Pagination)
	}
	var text any
	if json.Unmarshal([]byte(got.SearchText), &text) != nil {
		t.Errorf("text content is not the JSON result: %q", got.SearchText)
	}
	if len(got.Lookup.Locations) != 1 || got.Lookup.Locations[0].ID != id || len(got.Lookup.Locations[0].Inputs) != 1 || got.Lookup.Locations[0].Inputs[0].ID != id {
		t.Errorf("lookup = %+v", got.Lookup)
	}
	if len(got.Lookup.Messages) != 1 || got.Lookup.Messages[0].Code != "not_found" {
		t.Errorf("lookup messages = %+v", got.Lookup.Messages)
	}
	if got.Invalid == nil || got.Invalid.Code != -32602 {
		t.Errorf("distance without center: %+v, want -32602", got.Invalid)
	}
	switch inc := got.Incompatible; {
	case inc == nil:
		t.Error("the client did not run the capabilities_incompatible call")
	case inc.Thrown != nil:
		t.Errorf("the TypeScript SDK rejected the capabilities_incompatible outcome: %+v", *inc.Thrown)
	case inc.Result == nil || inc.IsError || inc.Result.UCP.Status != "error" || inc.Result.Locations == nil || len(inc.Result.Locations) != 0 ||
		len(inc.Result.Messages) != 1 || inc.Result.Messages[0].Code != "capabilities_incompatible" || inc.Result.Messages[0].Content == "":
		t.Errorf("capabilities_incompatible outcome = %+v", inc)
	}
}
