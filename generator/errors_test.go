package generator_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator"
)

const goodRPC = `{"openrpc":"1.3.2","info":{"title":"t","version":"1"},"methods":[{"name":"m","params":[{"name":"p","required":true,"schema":{"$ref":"s.json"}}]}]}`

// refRPC is an OpenRPC document whose one method is the reference ref.
func refRPC(ref string) string {
	return `{"openrpc":"1.3.2","info":{"title":"t","version":"1"},"methods":[{"$ref":` + ref + `}]}`
}

// TestMalformedInputs checks that every broken input names file and pointer.
func TestMalformedInputs(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"bad ref file", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","properties":{"a":{"$ref":"missing.json"}}}`}, "s.json#/properties/a/$ref"},
		{"bad ref pointer", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`}, "s.json#/properties/a/$ref"},
		{"invalid json", map[string]string{"o.json": goodRPC, "s.json": "{\"type\": \"object\",\n \"properties\": {,}}"}, "s.json: invalid JSON at line 2"},
		{"wrong keyword type", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","required":"a"}`}, "s.json#/required"},
		{"unknown type", map[string]string{"o.json": goodRPC, "s.json": `{"type":"objekt"}`}, "s.json#/type"},
		{"bad minimum", map[string]string{"o.json": goodRPC, "s.json": `{"type":"number","minimum":"0"}`}, "s.json#/minimum"},
		{"duplicate member", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","type":"string"}`}, "s.json#/type: duplicate member"},
		{"unsupported keyword", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","patternProperties":{"^a":{}}}`}, "s.json#/patternProperties"},
		{"bad pattern", map[string]string{"o.json": goodRPC, "s.json": `{"type":"string","pattern":"(["}`}, "s.json"},
		{"no methods", map[string]string{"o.json": `{"openrpc":"1.3.2"}`}, "o.json#/methods"},
		{"method ref missing file", map[string]string{"o.json": refRPC(`"x/none.json#/m"`)}, `o.json#/methods/0/$ref: $ref "x/none.json#/m": no such file x/none.json`},
		{"method ref missing pointer", map[string]string{"o.json": refRPC(`"m.json#/methods/nope"`), "m.json": `{"methods":{}}`}, `o.json#/methods/0/$ref: $ref "m.json#/methods/nope": JSON pointer "/methods/nope" not found`},
		{"method ref loop", map[string]string{"o.json": refRPC(`"m.json#/a"`), "m.json": `{"a":{"$ref":"#/b"},"b":{"$ref":"#/a"}}`}, `m.json#/a/$ref: $ref "#/b" of a method is part of a reference loop`},
		{"method ref not a string", map[string]string{"o.json": refRPC(`7`)}, "o.json#/methods/0/$ref: $ref of a method must be a string"},
		{"method ref with siblings", map[string]string{"o.json": `{"openrpc":"1.3.2","info":{"title":"t","version":"1"},"methods":[{"$ref":"m.json#/m","name":"x"}]}`}, `o.json#/methods/0/name: a method given by $ref must have no other members, found "name"`},
		{"method ref to a non-method", map[string]string{"o.json": refRPC(`"m.json#/m"`), "m.json": `{"m":{"summary":"s"}}`}, "m.json#/m/name: missing or non-string name"},
		{"param ref missing", map[string]string{"o.json": `{"openrpc":"1.3.2","info":{"title":"t","version":"1"},"methods":[{"name":"m","params":[{"$ref":"#/components/contentDescriptors/p"}]}]}`}, `o.json#/methods/0/params/0/$ref: $ref "#/components/contentDescriptors/p": JSON pointer "/components/contentDescriptors/p" not found`},
		{"bad annotation", map[string]string{"o.json": goodRPC, "s.json": `{"type":"object","properties":{"a":{"type":"string","ucp_request":"sometimes"}}}`}, "s.json#/properties/a/ucp_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, s := range c.files {
				fsys[n] = &fstest.MapFile{Data: []byte(s)}
			}
			_, err := generator.Generate(generator.Config{FS: fsys, OpenRPC: "o.json", Package: "x"})
			if err == nil {
				t.Fatal("expected an error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

// TestMethodRef checks that a method given by $ref is read from the file it
// names and that its own references resolve against that file, as the draft
// tree's embedded checkout takes its fulfillment methods from
// schemas/shopping/fulfillment.json.
func TestMethodRef(t *testing.T) {
	fsys := fstest.MapFS{
		"o.json":     {Data: []byte(refRPC(`"sub/m.json#/methods/pick"`))},
		"sub/m.json": {Data: []byte(`{"methods":{"pick":{"name":"pick","params":[{"name":"choice","required":true,"schema":{"$ref":"s.json"}}]}}}`)},
		"sub/s.json": {Data: []byte(`{"title":"Choice","type":"object","properties":{"n":{"type":"integer"}}}`)},
	}
	m, _, err := generator.Model(generator.Config{FS: fsys, OpenRPC: "o.json", Package: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != 1 || m.Tools[0].Name != "pick" {
		t.Fatalf("methods %v, want the one referenced method pick", m.Tools)
	}
	p := m.Tools[0].Params[0]
	if p.Name != "choice" || p.Type.Name != "Choice" || p.Type.Loc.File != "sub/s.json" {
		t.Errorf("param %s of type %s from %s, want choice of type Choice from sub/s.json", p.Name, p.Type.Name, p.Type.Loc)
	}
}
