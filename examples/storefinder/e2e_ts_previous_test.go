package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestTypeScriptClientPreviousVersion serves the older version through
// the official TypeScript MCP SDK (testdata/e2e-ts/previous.mjs): it finds
// the 2026-08-21 endpoint from /.well-known/ucp as a Platform would, and the
// SDK itself checks every answer against the outputSchema it listed there.
func TestTypeScriptClientPreviousVersion(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testshared.Missing(t, "node is not installed")
	}
	dir := filepath.Join("testdata", "e2e-ts")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		testshared.Missing(t, "TypeScript MCP SDK not installed; run `npm ci` in %s", dir)
	}
	draft := draftSchemas(t)
	base := startVersions(t, config{supported: prevVersion})
	item, _ := itemAndAmenity(t)

	cmd := exec.Command(node, "previous.mjs", base, item)
	cmd.Dir = dir
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	out, err := cmd.Output()
	timer.Stop()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node client failed: %v\n%s", err, stderr)
	}
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
