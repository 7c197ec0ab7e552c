package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
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
