package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/schemas"
)

// compileToolSchema compiles one bundled tool schema with the reference
// validator, with the same options as the differential.
func compileToolSchema(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(ecma)
	url := "mem:///tools/" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("add %s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return s
}

// compactLen is the size of a schema file as it goes on the wire.
func compactLen(t *testing.T, data []byte) int {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

// TestReducedToolSchemasAcceptTheSame runs the differential corpus through
// the full and the reduced tool schemas (the ones tools/list sends) and
// requires the same verdict for every case: the reduction drops only
// keywords that assert nothing.
func TestReducedToolSchemasAcceptTheSame(t *testing.T) {
	m, _, err := generator.Model(generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath, Package: "location"})
	if err != nil {
		t.Fatal(err)
	}
	full, err := emit.ToolSchemas(m, false)
	if err != nil {
		t.Fatal(err)
	}
	reduced, err := emit.ToolSchemas(m, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != 4 || len(reduced) != len(full) {
		t.Fatalf("got %d full and %d reduced schema files, want 4 each", len(full), len(reduced))
	}
	type pair struct{ full, reduced *jsonschema.Schema }
	compiled := map[string]pair{}
	for name := range full {
		if rn, fn := compactLen(t, reduced[name]), compactLen(t, full[name]); rn >= fn {
			t.Errorf("%s: reduced schema (%d bytes compact) is not smaller than the full one (%d)", name, rn, fn)
		}
		compiled[name] = pair{compileToolSchema(t, "full/"+name, full[name]), compileToolSchema(t, "reduced/"+name, reduced[name])}
	}

	const meta = `{"ucp-agent":{"profile":"https://platform.example/profile.json"}}`
	// Each corpus target reaches a tool schema as that tool would see it.
	wrap := map[string][]func([]byte) (string, []byte){
		"common/location_search request": {func(d []byte) (string, []byte) {
			return "search_locations.input.json", fmt.Appendf(nil, `{"meta":%s,"location":%s}`, meta, d)
		}},
		"common/location_lookup request": {func(d []byte) (string, []byte) {
			return "lookup_locations.input.json", fmt.Appendf(nil, `{"meta":%s,"location":%s}`, meta, d)
		}},
		"meta request": {
			func(d []byte) (string, []byte) {
				return "search_locations.input.json", fmt.Appendf(nil, `{"meta":%s,"location":{}}`, d)
			},
			func(d []byte) (string, []byte) {
				return "lookup_locations.input.json", fmt.Appendf(nil, `{"meta":%s,"location":{"ids":["a"]}}`, d)
			},
		},
		"common/location_search response": {func(d []byte) (string, []byte) { return "search_locations.output.json", d }},
		"common/location_lookup response": {func(d []byte) (string, []byte) { return "lookup_locations.output.json", d }},
	}
	cases := corpus(t, seedCases(t))
	compared, accepted, disagree := 0, 0, 0
	for _, c := range cases {
		for _, w := range wrap[c.target] {
			if !json.Valid(c.data) {
				continue // the wrapper would change where the syntax error is
			}
			name, data := w(c.data)
			p := compiled[name]
			a, b := referenceVerdict(p.full, data), referenceVerdict(p.reduced, data)
			compared++
			if a == nil {
				accepted++
			}
			if (a == nil) != (b == nil) {
				disagree++
				if disagree <= 10 {
					t.Errorf("%s via %s: full=%v reduced=%v\npayload: %s", c.name, name, a, b, data)
				}
			}
		}
	}
	t.Logf("tool schemas: %d cases compared, %d accepted, %d rejected, %d disagreements", compared, accepted, compared-accepted, disagree)
	if compared < 100 || accepted == 0 || accepted == compared {
		t.Fatalf("corpus too thin to prove anything: %d cases, %d accepted", compared, accepted)
	}
}
