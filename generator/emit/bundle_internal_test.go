package emit

import (
	"testing"

	"github.com/ucpgen/ucpgen/generator/load"
)

// TestInlineSingleUse pins which definitions move into place: only those
// referenced exactly once, by a schema holding nothing but the $ref, and
// never a recursive one or a $ref-shaped value of const, enum or default.
func TestInlineSingleUse(t *testing.T) {
	for _, c := range []struct {
		name, root, defs string
		wantRoot         string
		wantDefs         string
	}{
		{"used once moves",
			`{"properties":{"a":{"$ref":"#/$defs/x"}}}`, `{"x":{"type":"string"}}`,
			`{"properties":{"a":{"type":"string"}}}`, `{}`},
		{"used twice stays",
			`{"properties":{"a":{"$ref":"#/$defs/x"},"b":{"items":{"$ref":"#/$defs/x"}}}}`, `{"x":{"type":"string"}}`,
			`{"properties":{"a":{"$ref":"#/$defs/x"},"b":{"items":{"$ref":"#/$defs/x"}}}}`, `{"x":{"type":"string"}}`},
		{"a $ref beside other keywords stays",
			`{"properties":{"a":{"$ref":"#/$defs/x","description":"d"}}}`, `{"x":{"type":"string","description":"e"}}`,
			`{"properties":{"a":{"$ref":"#/$defs/x","description":"d"}}}`, `{"x":{"type":"string","description":"e"}}`},
		{"recursion keeps its $ref",
			`{"properties":{"a":{"$ref":"#/$defs/x"}}}`, `{"x":{"properties":{"next":{"$ref":"#/$defs/x"}}}}`,
			`{"properties":{"a":{"$ref":"#/$defs/x"}}}`, `{"x":{"properties":{"next":{"$ref":"#/$defs/x"}}}}`},
		{"a chain of single uses moves whole",
			`{"anyOf":[{"$ref":"#/$defs/x"}]}`, `{"x":{"not":{"$ref":"#/$defs/y"}},"y":{"const":1}}`,
			`{"anyOf":[{"not":{"const":1}}]}`, `{}`},
		{"values are not references",
			`{"properties":{"a":{"$ref":"#/$defs/x"},"b":{"const":{"$ref":"#/$defs/x"},"enum":[{"$ref":"#/$defs/x"}],"default":{"$ref":"#/$defs/x"}}}}`,
			`{"x":{"type":"null"}}`,
			`{"properties":{"a":{"type":"null"},"b":{"const":{"$ref":"#/$defs/x"},"enum":[{"$ref":"#/$defs/x"}],"default":{"$ref":"#/$defs/x"}}}}`, `{}`},
		{"a definition used once inside a kept one moves there",
			`{"properties":{"a":{"$ref":"#/$defs/x"},"b":{"$ref":"#/$defs/x"}}}`, `{"x":{"items":{"$ref":"#/$defs/y"}},"y":{"minimum":0}}`,
			`{"properties":{"a":{"$ref":"#/$defs/x"},"b":{"$ref":"#/$defs/x"}}}`, `{"x":{"items":{"minimum":0}}}`},
		{"an object root takes its definition's members",
			`{"$schema":"s","type":"object","$ref":"#/$defs/x"}`, `{"x":{"type":"object","required":["a"],"properties":{"a":{"$ref":"#/$defs/y"}}},"y":{"type":"string"}}`,
			`{"$schema":"s","type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, `{}`},
		{"a root whose definition declares another type keeps its $ref",
			`{"$schema":"s","type":"object","$ref":"#/$defs/x"}`, `{"x":{"type":"array"}}`,
			`{"$schema":"s","type":"object","$ref":"#/$defs/x"}`, `{"x":{"type":"array"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, err := load.Parse("root.json", []byte(c.root))
			if err != nil {
				t.Fatal(err)
			}
			defs, err := load.Parse("defs.json", []byte(c.defs))
			if err != nil {
				t.Fatal(err)
			}
			kept := inlineSingleUse(root, defs)
			if got := string(root.JSON()); got != c.wantRoot {
				t.Errorf("root = %s\nwant   %s", got, c.wantRoot)
			}
			if got := string(kept.JSON()); got != c.wantDefs {
				t.Errorf("defs = %s\nwant   %s", got, c.wantDefs)
			}
		})
	}
}

// TestFormDrops pins which keywords each form leaves out.
func TestFormDrops(t *testing.T) {
	for _, c := range []struct {
		keyword               string
		full, described, lean bool
	}{
		{"description", false, false, true},
		{"default", false, false, true},
		{"title", false, true, true},
		{"examples", false, true, true},
		{"ucp_request", false, true, true},
		{"format", false, false, false},
		{"type", false, false, false},
	} {
		for _, f := range []struct {
			form form
			want bool
		}{{formFull, c.full}, {formDescribed, c.described}, {formLean, c.lean}} {
			if got := f.form.drops(c.keyword); got != f.want {
				t.Errorf("form %d drops %s = %v, want %v", f.form, c.keyword, got, f.want)
			}
		}
	}
}
