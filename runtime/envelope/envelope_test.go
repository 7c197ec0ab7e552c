package envelope

import (
	"bytes"
	"encoding/json"
	"testing"
)

// AppendUCP writes what json.Marshal writes for UCP(), for compatible and
// incompatible outcomes, no, one and several capabilities (in and out of
// key order), and names and versions that need escaping.
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
