package load

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/schemas"
)

func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"minItem", "minItems", true},    // deletion
		{"minItemss", "minItems", true},  // insertion
		{"minItens", "minItems", true},   // substitution
		{"minlength", "minLength", true}, // case slip
		{"mniItems", "minItems", true},   // transposition
		{"minItems", "minItems", false},  // equal
		{"mintems", "maxItems", false},   // two edits
		{"imnItesm", "minItems", false},  // two swaps
		{"pattern", "patternX", true},    // appended byte
		{"", "a", true},                  // empty
		{"minimumm", "maximum", false},   // far
		{"requird", "required", true},    // a required list dropped silently otherwise
		{"additionalProperty", "additionalProperties", false},
	} {
		if got := oneEdit(tc.a, tc.b); got != tc.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func tree(schema string) fstest.MapFS {
	return fstest.MapFS{
		"services/common/mcp.openrpc.json": {Data: []byte(`{"openrpc":"1.3.2","info":{"title":"t","version":"2026-08-25"},
			"methods":[{"name":"m","params":[{"name":"p","schema":{"$ref":"../../s.json"}}]}]}`)},
		"s.json": {Data: []byte(schema)},
	}
}

func TestLintWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"misspelled minItems", `{"type":"array","minItem":2}`,
			[]string{`s.json#/minItem: unknown keyword "minItem" is ignored; did you mean minItems?`}},
		{"case slip in a nested property", `{"type":"object","properties":{"name":{"type":"string","maxlength":5}}}`,
			[]string{`s.json#/properties/name/maxlength: unknown keyword "maxlength" is ignored; did you mean maxLength?`}},
		{"several, sorted by location", `{"requird":["a"],"properties":{"a":{"patern":"x"}}}`,
			[]string{`s.json#/properties/a/patern: unknown keyword "patern" is ignored; did you mean pattern?`,
				`s.json#/requird: unknown keyword "requird" is ignored; did you mean required?`}},
		{"a property named like a typo is not a keyword", `{"type":"object","properties":{"minItem":{"type":"integer"}}}`, nil},
		{"a far-off annotation is left alone", `{"type":"string","x-internal-note":"n"}`, nil},
		{"short keywords are never suggested", `{"type":"string","id":"old draft"}`, nil},
		{"known keywords are quiet", `{"type":"array","minItems":1,"contentMediaType":"text/plain"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := OpenRPC(tree(tc.schema), "services/common/mcp.openrpc.json")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range Refused(spec.Warnings) { // the tree's missing REST binding is a notice
				got = append(got, w.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLintMissingInfoVersion(t *testing.T) {
	fsys := tree(`{"type":"string"}`)
	fsys["services/common/mcp.openrpc.json"] = &fstest.MapFile{Data: []byte(`{"openrpc":"1.3.2","info":{"title":"t"},
		"methods":[{"name":"m","params":[{"name":"p","schema":{"$ref":"../../s.json"}}]}]}`)}
	spec, err := OpenRPC(fsys, "services/common/mcp.openrpc.json")
	if err != nil {
		t.Fatal(err)
	}
	if w := Refused(spec.Warnings); len(w) != 1 || !strings.Contains(w[0].String(), "#/info: info.version is missing") {
		t.Fatalf("warnings: %v", spec.Warnings)
	}
}

// TestBundledSchemasHaveNoKeywordWarnings keeps the lint quiet on the real
// input: a suggestion there would be a false alarm on every generate.
func TestBundledSchemasHaveNoKeywordWarnings(t *testing.T) {
	spec, err := OpenRPC(schemas.FS, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range spec.Warnings {
		if strings.Contains(w.Msg, "keyword") {
			t.Errorf("unexpected lint warning: %s", w)
		}
	}
}
