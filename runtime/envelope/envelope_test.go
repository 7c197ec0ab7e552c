package envelope

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"testing"
)

// AppendUCP writes what json.Marshal writes for UCP(), for compatible and
// incompatible outcomes, no, one and several capabilities (in and out of
// key order, more than eight), and names and versions that need escaping.
func TestAppendUCPMatchesMarshal(t *testing.T) {
	for _, o := range []Outcome{
		{},
		{Version: "2026-08-25", Compatible: true},
		{Version: "2026-08-25", Compatible: true, Capabilities: map[string]string{}},
		{Version: "2026-08-25", Compatible: true, Capabilities: map[string]string{"dev.ucp.common.location.search": "2026-08-25"}},
		{Version: "2026-08-25", Compatible: true, Capabilities: map[string]string{
			"dev.ucp.common.location.search": "2026-08-25", "com.example.z": "1", "com.example.a": "2", "dev.ucp.common.location": "2026-08-25",
		}},
		{Version: "2026-08-25", Compatible: false, Capabilities: map[string]string{"dev.ucp.common.location.search": "2026-08-25"}, ToolCapability: "x"},
		{Version: `v"1\<&>` + "\u2028caf\u00e9", Compatible: true, Capabilities: map[string]string{"a<b>&\"c\"": "\x01\t", "": ""}},
		{Version: "bad \xff utf8", Compatible: false},
		{Version: "2026-08-25", Compatible: true, Capabilities: map[string]string{ // more than the stack array holds
			"k": "1", "j": "2", "i": "3", "h": "4", "g": "5", "f": "6", "e": "7", "d": "8", "c": "9", "b": "10", "a": "11",
		}},
	} {
		want, err := json.Marshal(o.UCP())
		if err != nil {
			t.Fatal(err)
		}
		if got := o.AppendUCP([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("%+v: AppendUCP = %s, want x%s", o, got, want)
		}
	}
}

// TestFixedOutcomes: a tool whose capability Fixed lists is compatible and
// advertises that capability alone; any other tool is not, and advertises
// none; the caller's map is copied, not kept.
func TestFixedOutcomes(t *testing.T) {
	caps := map[string]string{"dev.ucp.common.location.search": "2026-08-25", "dev.ucp.common.location.lookup": "2026-08-25"}
	n := Fixed("2026-08-25", caps)
	caps["dev.ucp.common.location.search"] = "changed"
	for _, c := range []struct {
		tool string
		ok   bool
		want map[string]string
	}{
		{"dev.ucp.common.location.search", true, map[string]string{"dev.ucp.common.location.search": "2026-08-25"}},
		{"dev.ucp.common.location.lookup", true, map[string]string{"dev.ucp.common.location.lookup": "2026-08-25"}},
		{"dev.ucp.shopping.checkout", false, map[string]string{}},
	} {
		for range 2 { // the second outcome is the first's again
			out, err := n.Negotiate(context.Background(), "", c.tool)
			if err != nil || out.Compatible != c.ok || out.Version != "2026-08-25" || out.ToolCapability != c.tool || !maps.Equal(out.Capabilities, c.want) || len(out.Active) != 2 {
				t.Fatalf("%s: %+v, %v", c.tool, out, err)
			}
		}
	}
}
