package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
	"github.com/ucpgen/ucpgen/schemas"
)

// fullToolsListBytes is the compact size of tools/list before the schemas
// were reduced (annotations kept, top-level members as bare $refs).
const fullToolsListBytes = 70838

// maxToolsListBytes bounds tools/list as compact JSON, so a Platform's
// context window is not spent on tool schemas.
const maxToolsListBytes = 40000

// TestToolsListIsLean checks what an agent pays for in tools/list: at most
// maxToolsListBytes; every top-level argument declares its type beside its
// content (MCP Inspector 0.15 sends a string otherwise); the input schemas
// keep every description of the source schemas, word for word; the output
// schemas keep none by default and all of them with DescribedOutputSchemas;
// and the annotations that assert nothing are gone.
func TestToolsListIsLean(t *testing.T) {
	full := fullToolSchemas(t)
	for _, c := range []struct {
		name      string
		opts      *ucpcore.Options
		described bool
	}{
		{"default", nil, false},
		{"DescribedOutputSchemas", &ucpcore.Options{DescribedOutputSchemas: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs := connect(t, &seedHooks{}, c.opts)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			wire, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("tools/list: %d bytes of compact JSON (was %d)", len(wire), fullToolsListBytes)
			if !c.described && len(wire) > maxToolsListBytes {
				t.Errorf("tools/list is %d bytes, want at most %d", len(wire), maxToolsListBytes)
			}
			for _, bad := range []string{`"ucp_request"`, `"ucp_response"`, `"examples"`, `"$comment"`} {
				if bytes.Contains(wire, []byte(bad)) {
					t.Errorf("tools/list still carries %s", bad)
				}
			}
			if len(res.Tools) != 2 {
				t.Fatalf("%d tools, want 2", len(res.Tools))
			}
			for _, tool := range res.Tools {
				in, _ := json.Marshal(tool.InputSchema)
				out, _ := json.Marshal(tool.OutputSchema)
				t.Logf("%s: input %d bytes, output %d bytes", tool.Name, len(in), len(out))
				checkArgumentTypes(t, tool.Name, in)
				sameDescriptions(t, tool.Name+" input", annotations(t, in, "description"), annotations(t, full[tool.Name+".input.json"], "description"))
				want := map[string]int{}
				if c.described {
					want = annotations(t, full[tool.Name+".output.json"], "description")
				} else if d := annotations(t, out, "default"); len(d) > 0 {
					t.Errorf("%s output: default kept: %v", tool.Name, d)
				}
				sameDescriptions(t, tool.Name+" output", annotations(t, out, "description"), want)
			}
		})
	}
	checkTools(t, connect(t, &seedHooks{}, &ucpcore.Options{DescribedOutputSchemas: true}))
}

// checkArgumentTypes requires meta and location, each declaring type
// object beside its content.
func checkArgumentTypes(t *testing.T, tool string, raw []byte) {
	t.Helper()
	var in struct {
		Properties map[string]map[string]any
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(in.Properties) != 2 {
		t.Errorf("%s: %d top-level arguments, want meta and location", tool, len(in.Properties))
	}
	for name, p := range in.Properties {
		if p["type"] != "object" {
			t.Errorf("%s: argument %s has type %v beside its content, want object", tool, name, p["type"])
		}
	}
}

// fullToolSchemas bundles every tool schema with all its keywords, as the
// source schemas have them.
func fullToolSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	full, err := emit.ToolSchemas(sourceModel(t), false)
	if err != nil {
		t.Fatal(err)
	}
	return full
}

// The schema tree this package was generated from, when it is not the
// bundled one: generator's TestGeneratedTestsOnUpstream sets these when it
// runs this package's tests on code generated from UCP's own trees, so the
// expectations here come from the generator's input, never from pinned text.
const (
	schemasEnv    = "UCPGEN_TEST_SCHEMAS"
	ucpVersionEnv = "UCPGEN_TEST_UCP_VERSION"
)

// sourceModel is the generator's model of the input this package was
// generated from.
func sourceModel(t *testing.T) *ir.Model {
	t.Helper()
	cfg := generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath, Package: "location"}
	if dir := os.Getenv(schemasEnv); dir != "" {
		cfg.FS, cfg.UCPVersion = os.DirFS(dir), os.Getenv(ucpVersionEnv)
	}
	m, _, err := generator.Model(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Keywords whose value is a schema, an array of schemas or a map of
// schemas, so that a property named "description" is not taken for one.
var (
	subschema      = map[string]bool{"items": true, "additionalProperties": true, "not": true, "if": true, "then": true, "else": true, "propertyNames": true, "contains": true, "unevaluatedItems": true, "unevaluatedProperties": true}
	subschemaLists = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	subschemaMaps  = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true, "$defs": true}
)

// annotations counts the JSON-encoded values of keyword in every schema of
// the document raw.
func annotations(t *testing.T, raw []byte, keyword string) map[string]int {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	var walk func(v any)
	walk = func(v any) {
		s, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, x := range s {
			switch {
			case k == keyword:
				b, _ := json.Marshal(x)
				out[string(b)]++
			case subschema[k]:
				walk(x)
			case subschemaLists[k]:
				xs, _ := x.([]any)
				for _, y := range xs {
					walk(y)
				}
			case subschemaMaps[k]:
				xs, _ := x.(map[string]any)
				for _, y := range xs {
					walk(y)
				}
			}
		}
	}
	walk(doc)
	return out
}

// sameDescriptions requires the two multisets of descriptions to be equal.
func sameDescriptions(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	n := 0
	for d, k := range want {
		n += k
		if got[d] != k {
			t.Errorf("%s: description %.80s... appears %d times, want %d", what, d, got[d], k)
		}
	}
	for d, k := range got {
		if want[d] == 0 {
			t.Errorf("%s: description %.80s... appears %d times, want none", what, d, k)
		}
	}
	t.Logf("%s: %d descriptions, as wanted", what, n)
}

// TestRegisterVersion checks that Register fills an empty opts.Version
// with ProtocolVersion and refuses another release.
func TestRegisterVersion(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := location.Register(server, &seedHooks{}, &ucpcore.Options{Version: "2020-01-01"}); err == nil || !strings.Contains(err.Error(), location.ProtocolVersion) {
		t.Errorf("Register with another release: err = %v, want a refusal naming %s", err, location.ProtocolVersion)
	}
	res, err := call(t, connect(t, &seedHooks{}, &ucpcore.Options{}), "search_locations", `{"meta":`+goodMeta+`,"location":{}}`)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	var got struct{ UCP struct{ Version string } }
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &got); err != nil || got.UCP.Version != location.ProtocolVersion {
		t.Errorf("ucp.version = %q (%v), want %s", got.UCP.Version, err, location.ProtocolVersion)
	}
}
