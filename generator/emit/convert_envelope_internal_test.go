package emit

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/envelope"
)

// TestNegotiatedMembers holds negotiatedMembers to the ucp object the
// runtime merges into every answer a hook gives, so that a member the
// runtime starts or stops writing changes which members ServeFrom leaves
// to it.
func TestNegotiatedMembers(t *testing.T) {
	o := envelope.Outcome{Version: "2026-08-25", Compatible: true, Capabilities: map[string]string{"dev.ucp.common.location.search": "2026-08-25"}}
	var ucp map[string]json.RawMessage
	if err := json.Unmarshal(o.AppendUCP(nil), &ucp); err != nil {
		t.Fatalf("AppendUCP: %v", err)
	}
	got, want := slices.Sorted(maps.Keys(ucp)), slices.Sorted(slices.Values(negotiatedMembers))
	if !slices.Equal(got, want) {
		t.Errorf("the runtime writes %v into a hook's ucp member, negotiatedMembers lists %v", got, want)
	}
}
