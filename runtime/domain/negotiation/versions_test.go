package negotiation

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/schemas"
)

const v0821 = "2026-08-21"

// keysRequiredTree is a tree in the profile.json layout whose platform
// profile must carry keys, a rule the bundled 2026-08-25 tree does not have,
// so a test can tell which schema checked a profile.
func keysRequiredTree() fstest.MapFS {
	return fstest.MapFS{
		"schemas/profile.json": {Data: []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://ucp.dev/schemas/profile.json",
  "$defs": {"platform_schema": {
    "type": "object", "required": ["ucp", "keys"],
    "properties": {"ucp": {"$ref": "ucp.json#/$defs/platform_schema"}, "keys": {"type": "array"}}
  }}
}`)},
		"schemas/ucp.json": {Data: []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://ucp.dev/schemas/ucp.json",
  "$defs": {"platform_schema": {"type": "object", "required": ["version"], "properties": {"version": {"type": "string"}}}}
}`)},
		"services/common/mcp.openrpc.json": {Data: []byte(`{"openrpc": "1.3.2"}`)},
	}
}

// unversionedSchema is the bundled tree's profile schema compiled without
// its OpenRPC document, so it states no release and may check any version,
// as a tree in UCP's source/ layout does.
func unversionedSchema(t *testing.T) *ProfileSchema {
	t.Helper()
	sub := schemas.FS
	tree := fstest.MapFS{}
	err := fs.WalkDir(sub, "schemas", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(sub, p)
		tree[p] = &fstest.MapFile{Data: raw}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := CompileProfileSchema(tree)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != "" {
		t.Fatalf("Version() = %q for a tree without an OpenRPC document", s.Version())
	}
	return s
}

// withKeys adds an empty keys member to a profile document.
func withKeys(t *testing.T, raw []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["keys"] = []any{}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustDecode(t *testing.T, raw []byte) *Profile {
	t.Helper()
	p, err := DecodeProfile(raw)
	if err != nil {
		t.Fatalf("DecodeProfile: %v", errString(err))
	}
	return p
}

func TestDecodeProfileRefuses(t *testing.T) {
	tests := []struct {
		name, doc, wantIn string
	}{
		{"empty body", ``, "not valid JSON"},
		{"trailing garbage", `{"ucp":{"version":"2026-08-25"}} x`, "not valid JSON"},
		{"array document", `[1]`, "JSON object"},
		{"no ucp member", `{"keys":[]}`, "/ucp"},
		{"ucp null", `{"ucp":null}`, "/ucp"},
		{"no version", `{"ucp":{"services":{}}}`, "/ucp/version"},
		{"empty version", `{"ucp":{"version":""}}`, "/ucp/version"},
		{"version not a string", `{"ucp":{"version":20260825}}`, "ucp.version"},
		{"capabilities an array", `{"ucp":{"version":"2026-08-25","capabilities":[]}}`, "ucp.capabilities"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodeProfile([]byte(tt.doc))
			if p != nil {
				t.Fatalf("got a profile, want profile_malformed")
			}
			d := wantDiscovery(t, err, rpcerr.ProfileMalformed)
			if !strings.Contains(d.Content, tt.wantIn) {
				t.Errorf("content %q does not name %q", d.Content, tt.wantIn)
			}
		})
	}
}

func TestCompileProfileSchemaLayouts(t *testing.T) {
	keys, err := CompileProfileSchema(keysRequiredTree())
	if err != nil {
		t.Fatalf("profile.json layout: %v", err)
	}
	bundled, err := BundledProfileSchema()
	if err != nil {
		t.Fatalf("bundled tree (ucp.json only): %v", err)
	}
	doc := profileDoc(t, v0821, caps{capSearch: {cv(v0821)}})
	if err := bundled.Check(doc); err != nil {
		t.Errorf("bundled schema refuses a valid profile: %v", errString(err))
	}
	err = keys.Check(doc)
	if d := wantDiscovery(t, err, rpcerr.ProfileMalformed); !strings.Contains(d.Content, "keys") {
		t.Errorf("content %q does not name keys", d.Content)
	}
	if err := keys.Check(withKeys(t, doc)); err != nil {
		t.Errorf("keys tree refuses a profile with keys: %v", errString(err))
	}

	if _, err := CompileProfileSchema(fstest.MapFS{"schemas/other.json": {Data: []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema"}`)}}); err == nil ||
		!strings.Contains(err.Error(), "profile.json") {
		t.Errorf("tree without a profile schema: err = %v, want one naming profile.json", err)
	}
	if _, err := CompileProfileSchema(fstest.MapFS{"schemas/ucp.json": {Data: []byte(`{"$id": "https://ucp.dev/schemas/ucp.json", "$defs": {"platform_schema": {"$ref": "missing.json"}}}`)}}); err == nil ||
		!strings.Contains(err.Error(), "missing.json") {
		t.Errorf("tree with a dangling $ref: err = %v, want one naming missing.json", err)
	}
}

// The draft release's source tree keeps the platform profile in
// profile.json; a Platform profile valid at that version must pass it.
func TestCompileProfileSchemaDraftTree(t *testing.T) {
	dir := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	s, err := CompileProfileSchema(os.DirFS(dir))
	if err != nil {
		t.Fatalf("CompileProfileSchema(%s): %v", dir, err)
	}
	if err := s.Check(profileDoc(t, v0821, caps{capSearch: {cv(v0821)}})); err != nil {
		t.Errorf("draft schema refuses a valid profile: %v", errString(err))
	}
	if err := s.Check([]byte(`{"ucp":{"version":"2026-08-21"}}`)); err == nil {
		t.Errorf("draft schema accepts a profile without services")
	}
}

// Each Platform is checked against the profile schema of the version it
// speaks, and only once that version is known to be served.
func TestNegotiatorChecksAtPlatformVersion(t *testing.T) {
	older, err := CompileProfileSchema(keysRequiredTree())
	if err != nil {
		t.Fatal(err)
	}
	doc := func(v string) []byte { return profileDoc(t, v, caps{capSearch: {cv(v)}}) }
	src := staticSource{
		"https://p.example/current":         {p: mustDecode(t, doc(v0825))},
		"https://p.example/older-no-keys":   {p: mustDecode(t, doc(v0821))},
		"https://p.example/older-keys":      {p: mustDecode(t, withKeys(t, doc(v0821)))},
		"https://p.example/unsupported":     {p: mustDecode(t, []byte(`{"ucp":{"version":"2026-01-11"}}`))},
		"https://p.example/current-invalid": {p: mustDecode(t, []byte(`{"ucp":{"version":"2026-08-25","services":{}}}`))},
	}
	n := &ProfileNegotiator{
		Source:  src,
		Current: Business{Version: v0825, Capabilities: caps{capSearch: {cv(v0825)}}},
		Older:   []Business{{Version: v0821, Capabilities: caps{capSearch: {cv(v0821)}}, Schema: older}},
	}
	tests := []struct {
		url, wantCode, wantIn, wantVer string
	}{
		{url: "https://p.example/current", wantVer: v0825},
		{url: "https://p.example/current-invalid", wantCode: rpcerr.ProfileMalformed, wantIn: "payment_handlers"},
		{url: "https://p.example/older-no-keys", wantCode: rpcerr.ProfileMalformed, wantIn: "keys"},
		{url: "https://p.example/older-keys", wantVer: v0821},
		{url: "https://p.example/unsupported", wantCode: rpcerr.VersionUnsupported, wantIn: "2026-01-11"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			for range 2 { // the second time the verdict comes from the profile's memo
				out, err := n.Negotiate(context.Background(), tt.url, capSearch)
				if tt.wantCode != "" {
					d := wantDiscovery(t, err, tt.wantCode)
					if !strings.Contains(d.Content, tt.wantIn) {
						t.Errorf("content %q does not name %q", d.Content, tt.wantIn)
					}
					continue
				}
				if err != nil {
					t.Fatalf("Negotiate: %v", errString(err))
				}
				if out.Version != tt.wantVer || !out.Compatible {
					t.Errorf("out = %+v, want compatible at %s", out, tt.wantVer)
				}
			}
		})
	}
}

// An endpoint serves one version: a Platform speaking another served version
// passes the version check but shares no capability version with it.
func TestNegotiatorAt(t *testing.T) {
	doc := func(v string) []byte { return profileDoc(t, v, caps{capSearch: {cv(v)}}) }
	n := &ProfileNegotiator{
		Source: staticSource{
			"https://p.example/current": {p: mustDecode(t, doc(v0825))},
			"https://p.example/older":   {p: mustDecode(t, doc(v0821))},
			"https://p.example/ancient": {p: mustDecode(t, doc("2026-01-11"))},
		},
		Current: Business{Version: v0825, Capabilities: caps{capSearch: {cv(v0825)}}},
		Older:   []Business{{Version: v0821, Capabilities: caps{capSearch: {cv(v0821)}}, Schema: unversionedSchema(t)}},
	}
	tests := []struct {
		at, url, wantCode, wantVer string
		wantCompat                 bool
	}{
		{at: v0821, url: "https://p.example/older", wantVer: v0821, wantCompat: true},
		{at: v0821, url: "https://p.example/current", wantVer: v0821},
		{at: v0825, url: "https://p.example/older", wantVer: v0825},
		{at: v0825, url: "https://p.example/current", wantVer: v0825, wantCompat: true},
		{at: v0821, url: "https://p.example/ancient", wantCode: rpcerr.VersionUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.at+" "+tt.url, func(t *testing.T) {
			neg, err := n.At(tt.at)
			if err != nil {
				t.Fatalf("At(%s): %v", tt.at, err)
			}
			out, err := neg.Negotiate(context.Background(), tt.url, capSearch)
			if tt.wantCode != "" {
				wantDiscovery(t, err, tt.wantCode)
				return
			}
			if err != nil {
				t.Fatalf("Negotiate: %v", errString(err))
			}
			if out.Version != tt.wantVer || out.Compatible != tt.wantCompat {
				t.Errorf("out = %+v, want version %s compatible %v", out, tt.wantVer, tt.wantCompat)
			}
		})
	}
	if _, err := n.At("2026-01-11"); err == nil || !strings.Contains(err.Error(), "2026-01-11") {
		t.Errorf("At(unserved): err = %v, want one naming the version", err)
	}
}

// A Business version checked by another release's tree is a configuration
// fault, reported when the endpoint is wired and on every request, never a
// Platform checked by the wrong rules.
func TestNegotiatorRefusesAnotherVersionsSchema(t *testing.T) {
	bundled, err := BundledProfileSchema()
	if err != nil {
		t.Fatal(err)
	}
	if bundled.Version() != v0825 {
		t.Fatalf("bundled Version() = %q, want %s", bundled.Version(), v0825)
	}
	for name, older := range map[string]Business{
		"no schema":           {Version: v0821},
		"the bundled release": {Version: v0821, Schema: bundled},
	} {
		t.Run(name, func(t *testing.T) {
			n := &ProfileNegotiator{
				Source:  staticSource{"https://p.example/older": {p: mustDecode(t, profileDoc(t, v0821, caps{capSearch: {cv(v0821)}}))}},
				Current: Business{Version: v0825},
				Older:   []Business{older},
			}
			if _, err := n.At(v0825); err == nil || !strings.Contains(err.Error(), v0821) {
				t.Errorf("At: err = %v, want one naming %s", err, v0821)
			}
			_, err := n.Negotiate(context.Background(), "https://p.example/older", capSearch)
			if _, isDiscovery := rpcerr.AsDiscovery(err); err == nil || isDiscovery || !strings.Contains(err.Error(), "Business.Schema") {
				t.Errorf("Negotiate: err = %v, want a server fault naming Business.Schema", err)
			}
		})
	}
}

// FuzzDecodeProfile checks that arbitrary bytes never panic the decoder,
// that it refuses only with profile_malformed, and that what it accepts has
// a version and survives a schema check without panicking.
func FuzzDecodeProfile(f *testing.F) {
	f.Add(readTestdata(f, "platform_profile.json"))
	f.Add([]byte(`{"ucp":{"version":"2026-08-21"}}`))
	f.Add([]byte(`{"ucp":{"version":"x","capabilities":{"a.b":[{"version":"v","extends":"c.d"}]}}}`))
	f.Add([]byte(`{"ucp":{"version":null}}`))
	f.Add([]byte(`{"ucp":[]}`))
	bundled, err := BundledProfileSchema()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := DecodeProfile(raw)
		if err != nil {
			if d, ok := rpcerr.AsDiscovery(err); !ok || d.Code != rpcerr.ProfileMalformed {
				t.Fatalf("refused with %v, want profile_malformed", err)
			}
			return
		}
		if p.Version == "" || p.Capabilities == nil || p.Services == nil {
			t.Fatalf("accepted %+v", p)
		}
		if err := p.Check(bundled); err != nil {
			if _, ok := rpcerr.AsDiscovery(err); !ok {
				t.Fatalf("schema check failed with a non-discovery error: %v", err)
			}
		}
	})
}
