package generator_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator"
)

const goodRPC = `{"openrpc":"1.3.2","info":{"title":"t","version":"1"},"methods":[{"name":"m","params":[{"name":"p","required":true,"schema":{"$ref":"s.json"}}]}]}`

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
