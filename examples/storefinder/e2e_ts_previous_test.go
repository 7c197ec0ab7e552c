package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestTypeScriptClientPreviousVersion serves the older version through
// the official TypeScript MCP SDK (testdata/e2e-ts/previous.mjs): it finds
// the 2026-08-21 endpoint from /.well-known/ucp as a Platform would, and the
// SDK itself checks every answer against the outputSchema it listed there.
func TestTypeScriptClientPreviousVersion(t *testing.T) {
	draft := draftSchemas(t)
	base := startVersions(t, config{supported: prevVersion})
	item, _ := itemAndAmenity(t)

	out := testshared.RunTypeScript(t, "previous.mjs", base, item)
	var got struct {
		LeafVersion string
		Endpoint    string
		FilterKeys  []string
		Search      json.RawMessage
		Inventory   json.RawMessage
		Lookup      json.RawMessage
		ItemsError  *struct {
			Code    int
			Message string
		}
		Current json.RawMessage
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	if got.LeafVersion != prevVersion || got.Endpoint != base+mcpPath(prevVersion) {
		t.Errorf("discovered %s at %s, want %s at %s", got.LeafVersion, got.Endpoint, prevVersion, base+mcpPath(prevVersion))
	}
	if !slices.Contains(got.FilterKeys, "inventory") || slices.Contains(got.FilterKeys, "items") {
		t.Errorf("filters at %s list %v, want inventory and not items", prevVersion, got.FilterKeys)
	}
	for name, body := range map[string]json.RawMessage{"search": got.Search, "inventory search": got.Inventory} {
		draft.valid(t, "search_locations", body)
		if a := decodeAnswer(t, name, body, prevVersion, '['); len(a.Locations) == 0 {
			t.Errorf("%s at %s found nothing", name, prevVersion)
		}
	}
	draft.valid(t, "lookup_locations", got.Lookup)
	if a := decodeAnswer(t, "lookup", got.Lookup, prevVersion, '['); len(a.Locations) == 0 {
		t.Errorf("lookup at %s found nothing", prevVersion)
	}
	if got.ItemsError == nil || got.ItemsError.Code != -32602 || !strings.Contains(got.ItemsError.Message, "items") {
		t.Errorf("filters.items at %s: %+v, want -32602 naming items", prevVersion, got.ItemsError)
	}
	decodeAnswer(t, "current search", got.Current, location.ProtocolVersion, '{')
}
