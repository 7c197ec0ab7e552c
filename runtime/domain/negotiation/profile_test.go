package negotiation

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

func TestParseProfileAcceptsValidProfile(t *testing.T) {
	raw := readTestdata(t, "platform_profile.json")
	p, err := ParseProfile(raw)
	if err != nil {
		t.Fatalf("ParseProfile: %v", errString(err))
	}
	if p.Version != v0825 {
		t.Errorf("Version = %q, want %q", p.Version, v0825)
	}
	wantCaps := map[string][]CapabilityVersion{
		capSearch:                         {{Version: v0825}},
		"net.example.location.wheelchair": {{Version: "2026-07-01", Extends: Parents{capSearch}}},
	}
	if !reflect.DeepEqual(p.Capabilities, wantCaps) {
		t.Errorf("Capabilities = %#v, want %#v", p.Capabilities, wantCaps)
	}
	svc := p.Services["dev.ucp.common"]
	if len(svc) != 1 || svc[0].Transport != "mcp" || svc[0].Endpoint != "https://agent.example.net/ucp/mcp" {
		t.Errorf("Services = %#v", p.Services)
	}
	if string(p.Raw) != string(raw) {
		t.Errorf("Raw does not hold the document as received")
	}
	if got := p.CapabilityNames(); !reflect.DeepEqual(got, []string{capSearch, "net.example.location.wheelchair"}) {
		t.Errorf("CapabilityNames = %v", got)
	}
}

// The upstream example profile is a Business profile, but it carries every
// member the platform schema requires, so it must pass the same validator.
func TestParseProfileAcceptsUpstreamExample(t *testing.T) {
	path := testshared.Path(t, "ucp-upstream", "2026-08-25", "examples", "mcp-14-profile.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	var wrapped struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(raw, &wrapped); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	p, err := ParseProfile(wrapped.Payload)
	if err != nil {
		t.Fatalf("ParseProfile(upstream example): %v", errString(err))
	}
	for _, name := range []string{capSearch, capLookup} {
		if cv := p.Capabilities[name]; len(cv) != 1 || cv[0].Version != v0825 {
			t.Errorf("capability %s = %#v", name, cv)
		}
	}
}

func TestParseProfileRejects(t *testing.T) {
	valid := func() map[string]any {
		var m map[string]any
		if err := json.Unmarshal(readTestdata(t, "platform_profile.json"), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	ucp := func(m map[string]any) map[string]any { return m["ucp"].(map[string]any) }
	mutate := func(f func(m map[string]any)) string {
		m := valid()
		f(m)
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	tests := []struct {
		name string
		doc  string
		// wantIn must appear in the error content (field and reason).
		wantIn []string
	}{
		{"empty body", ``, []string{"not valid JSON"}},
		{"not JSON", `<html>hello</html>`, []string{"not valid JSON"}},
		{"trailing garbage", `{"ucp":{}} x`, []string{"not valid JSON"}},
		{"array document", `[1,2]`, []string{"JSON object"}},
		{"string document", `"ucp"`, []string{"JSON object"}},
		{"no ucp member", `{"keys":[]}`, []string{"(document root)", "ucp"}},
		{"ucp not an object", `{"ucp":"2026-08-25"}`, []string{"/ucp"}},
		{"missing payment_handlers", mutate(func(m map[string]any) { delete(ucp(m), "payment_handlers") }), []string{"/ucp", "payment_handlers"}},
		{"missing services", mutate(func(m map[string]any) { delete(ucp(m), "services") }), []string{"/ucp", "services"}},
		{"missing version", mutate(func(m map[string]any) { delete(ucp(m), "version") }), []string{"/ucp", "version"}},
		{"version not a date", mutate(func(m map[string]any) { ucp(m)["version"] = "draft" }), []string{"/ucp/version"}},
		{"capability without spec", mutate(func(m map[string]any) {
			caps := ucp(m)["capabilities"].(map[string]any)
			delete(caps[capSearch].([]any)[0].(map[string]any), "spec")
		}), []string{"/ucp/capabilities/" + capSearch + "/0", "spec"}},
		{"capability name not reverse-domain", mutate(func(m map[string]any) {
			caps := ucp(m)["capabilities"].(map[string]any)
			caps["Search"] = caps[capSearch]
		}), []string{`member name "Search"`, "does not match pattern"}},
		{"extends empty list", mutate(func(m map[string]any) {
			caps := ucp(m)["capabilities"].(map[string]any)
			caps["net.example.location.wheelchair"].([]any)[0].(map[string]any)["extends"] = []any{}
		}), []string{"/ucp/capabilities/net.example.location.wheelchair/0/extends"}},
		{"capabilities not an array", mutate(func(m map[string]any) {
			ucp(m)["capabilities"].(map[string]any)[capSearch] = map[string]any{"version": v0825}
		}), []string{"/ucp/capabilities/" + capSearch}},
		{"mcp service without schema", mutate(func(m map[string]any) {
			svc := ucp(m)["services"].(map[string]any)["dev.ucp.common"].([]any)[0].(map[string]any)
			delete(svc, "schema")
		}), []string{"/ucp/services/dev.ucp.common/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProfile([]byte(tt.doc))
			if p != nil {
				t.Fatalf("got profile %+v, want rejection", p)
			}
			d := wantDiscovery(t, err, rpcerr.ProfileMalformed)
			for _, w := range tt.wantIn {
				if !strings.Contains(d.Content, w) {
					t.Errorf("content %q does not mention %q", d.Content, w)
				}
			}
		})
	}
}

func TestParentsJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Parents
		wantErr bool
		out     string
	}{
		{in: `"a.b.c"`, want: Parents{"a.b.c"}, out: `"a.b.c"`},
		{in: `["a.b.c"]`, want: Parents{"a.b.c"}, out: `"a.b.c"`},
		{in: `["a.b.c","d.e.f"]`, want: Parents{"a.b.c", "d.e.f"}, out: `["a.b.c","d.e.f"]`},
		{in: `null`, want: nil},
		{in: `[]`, wantErr: true},
		{in: `42`, wantErr: true},
		{in: `[1]`, wantErr: true},
		{in: `{"a":1}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p Parents
			err := json.Unmarshal([]byte(tt.in), &p)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Unmarshal(%s) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if tt.wantErr {
				if !strings.Contains(err.Error(), "extends") {
					t.Errorf("error %q does not name the field", err)
				}
				return
			}
			if !reflect.DeepEqual(p, tt.want) {
				t.Fatalf("got %#v, want %#v", p, tt.want)
			}
			if tt.out == "" {
				return
			}
			out, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.out {
				t.Errorf("Marshal = %s, want %s", out, tt.out)
			}
		})
	}
}

// FuzzParseProfile checks that arbitrary bytes never panic the parser and
// that anything accepted has the shape negotiation relies on.
func FuzzParseProfile(f *testing.F) {
	f.Add(readTestdata(f, "platform_profile.json"))
	f.Add([]byte(`{"ucp":{"version":"2026-08-25","services":{},"payment_handlers":{}}}`))
	f.Add([]byte(`{"ucp":{"version":"2026-08-25","services":{},"payment_handlers":{},"capabilities":{"a.b":[{"version":"2026-01-01","spec":"x","schema":"y","extends":["c.d"]}]}}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"ucp":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := ParseProfile(raw)
		if err != nil {
			if _, ok := rpcerr.AsDiscovery(err); !ok {
				t.Fatalf("non-discovery error: %v", err)
			}
			return
		}
		if len(p.Version) != len("2026-08-25") {
			t.Fatalf("accepted version %q", p.Version)
		}
		for name, entries := range p.Capabilities {
			for _, cv := range entries {
				if cv.Version == "" {
					t.Fatalf("accepted capability %s without version", name)
				}
			}
		}
	})
}
