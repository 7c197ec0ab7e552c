package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

// fullToolsListBytes is the compact size of tools/list before the schemas
// were reduced (annotations kept, top-level members as bare $refs).
const fullToolsListBytes = 70838

// TestToolsListIsLean checks what an agent pays for in tools/list: every
// top-level argument declares its type beside its content (MCP Inspector
// 0.15 sends a string otherwise), the annotations that assert nothing are
// gone, and the listing is smaller than the full one.
func TestToolsListIsLean(t *testing.T) {
	cs := connect(t, &seedHooks{}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d bytes of compact JSON (was %d)", len(wire), fullToolsListBytes)
	if len(wire) >= fullToolsListBytes*95/100 {
		t.Errorf("tools/list is %d bytes, want at least 5%% under the full %d", len(wire), fullToolsListBytes)
	}
	for _, bad := range []string{`"ucp_request"`, `"ucp_response"`, `"examples"`, `"$comment"`} {
		if bytes.Contains(wire, []byte(bad)) {
			t.Errorf("tools/list still carries %s", bad)
		}
	}
	for _, tool := range res.Tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]map[string]any
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if len(in.Properties) != 2 {
			t.Errorf("%s: %d top-level arguments, want meta and location", tool.Name, len(in.Properties))
		}
		for name, p := range in.Properties {
			if p["type"] != "object" {
				t.Errorf("%s: argument %s has type %v beside its content, want object", tool.Name, name, p["type"])
			}
			if _, ok := p["description"]; !ok && name == "location" {
				t.Errorf("%s: argument %s lost its description", tool.Name, name)
			}
		}
	}
}

// TestRegisterVersion checks that Register fills an empty opts.Version
// with ProtocolVersion and refuses another release.
func TestRegisterVersion(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := location.Register(server, &seedHooks{}, &mcpserver.Options{Version: "2020-01-01"}); err == nil || !strings.Contains(err.Error(), location.ProtocolVersion) {
		t.Errorf("Register with another release: err = %v, want a refusal naming %s", err, location.ProtocolVersion)
	}
	res, err := call(t, connect(t, &seedHooks{}, &mcpserver.Options{}), "search_locations", `{"meta":`+goodMeta+`,"location":{}}`)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	var got struct{ UCP struct{ Version string } }
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &got); err != nil || got.UCP.Version != location.ProtocolVersion {
		t.Errorf("ucp.version = %q (%v), want %s", got.UCP.Version, err, location.ProtocolVersion)
	}
}
