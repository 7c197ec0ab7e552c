package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/internal/testshared"
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
// the full tool schemas and every reduced one the generated code embeds (the
// input schemas, the lean output schemas tools/list sends by default and
// the described ones it sends on request) and requires the same verdict for
// every case: the reduction drops only keywords that assert nothing and
// writes single-use definitions in place.
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
	if len(full) != 4 || len(reduced) != 6 {
		t.Fatalf("got %d full and %d reduced schema files, want 4 and 6", len(full), len(reduced))
	}
	// variants maps each full schema file to the reduced ones that must
	// accept the same documents.
	variants := map[string][]string{}
	for name := range reduced {
		of := strings.Replace(name, ".output.described.", ".output.", 1)
		if full[of] == nil {
			t.Fatalf("reduced %s has no full counterpart %s", name, of)
		}
		variants[of] = append(variants[of], name)
	}
	type set struct {
		full    *jsonschema.Schema
		reduced map[string]*jsonschema.Schema
	}
	compiled := map[string]set{}
	for name := range full {
		s := set{compileToolSchema(t, "full/"+name, full[name]), map[string]*jsonschema.Schema{}}
		for _, r := range variants[name] {
			if rn, fn := compactLen(t, reduced[r]), compactLen(t, full[name]); rn >= fn {
				t.Errorf("%s: reduced schema (%d bytes compact) is not smaller than the full one (%d)", r, rn, fn)
			}
			s.reduced[r] = compileToolSchema(t, "reduced/"+r, reduced[r])
		}
		compiled[name] = s
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
	perVariant := map[string]int{}
	for i, c := range cases {
		if testshared.Race && i%5 != 0 {
			// One goroutine comparing two validators: the race pass
			// compares every fifth case (over 1,700 still), the plain
			// pass all of them.
			continue
		}
		for _, w := range wrap[c.target] {
			if !json.Valid(c.data) {
				continue // the wrapper would change where the syntax error is
			}
			name, data := w(c.data)
			p := compiled[name]
			a := referenceVerdict(p.full, data)
			compared++
			if a == nil {
				accepted++
			}
			for r, sch := range p.reduced {
				perVariant[r]++
				if b := referenceVerdict(sch, data); (a == nil) != (b == nil) {
					disagree++
					if disagree <= 10 {
						t.Errorf("%s via %s: full=%v %s=%v\npayload: %s", c.name, name, a, r, b, data)
					}
				}
			}
		}
	}
	t.Logf("tool schemas: %d cases compared, %d accepted, %d rejected, %d disagreements; per reduced file: %v", compared, accepted, compared-accepted, disagree, perVariant)
	if compared < 100 || accepted == 0 || accepted == compared {
		t.Fatalf("corpus too thin to prove anything: %d cases, %d accepted", compared, accepted)
	}
	for r := range reduced {
		if perVariant[r] == 0 {
			t.Errorf("no corpus case reached %s", r)
		}
	}
}
