// Package conformance_test proves the generated validators and strict
// decoders agree with santhosh-tekuri/jsonschema/v6 (Draft 2020-12, format
// assertion on, ECMA-262 patterns through dlclark/regexp2) on the upstream
// examples, the seed's envelopes and a mutation corpus derived from them.
package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/schemas"
)

// target is one payload kind: the generated decoder and the reference schema.
type target struct {
	name   string
	decode func([]byte) error
	url    string // reference schema URL
	dir    string // request or response
	op     string
}

func errOf[T any](f func([]byte) (*T, error)) func([]byte) error {
	return func(b []byte) error { _, err := f(b); return err }
}

const base = "mem:///services/common/mcp.openrpc.json"

var targets = map[string]target{
	"common/location_search request":  {"SearchRequest", errOf(location.DecodeSearchRequest), "mem:///schemas/common/location_search.json#/$defs/search_request", "request", "search"},
	"common/location_search response": {"SearchResponse", errOf(location.DecodeSearchResponse), "mem:///schemas/common/location_search.json#/$defs/search_response", "response", "search"},
	"common/location_lookup request":  {"LookupRequest", errOf(location.DecodeLookupRequest), "mem:///schemas/common/location_lookup.json#/$defs/lookup_request", "request", "lookup"},
	"common/location_lookup response": {"LookupResponse", errOf(location.DecodeLookupResponse), "mem:///schemas/common/location_lookup.json#/$defs/lookup_response", "response", "lookup"},
	"common/types/location response":  {"Location", errOf(location.DecodeLocation), "mem:///schemas/common/types/location.json", "response", "search"},
	"meta request":                    {"Meta", errOf(location.DecodeMeta), base + "#/components/schemas/meta", "request", "search"},
}

// resolveDirection applies ucp_request/ucp_response to a schema document the
// same way the generator does: on each schema object with properties, an
// "omit" member is dropped from properties and required, "required" is added
// to required, "optional" is removed from it.
func resolveDirection(n any, dir, op string) any {
	switch x := n.(type) {
	case []any:
		for i := range x {
			x[i] = resolveDirection(x[i], dir, op)
		}
	case map[string]any:
		for k, v := range x {
			x[k] = resolveDirection(v, dir, op)
		}
		props, ok := x["properties"].(map[string]any)
		if !ok {
			return x
		}
		var req []string
		if r, ok := x["required"].([]any); ok {
			for _, s := range r {
				if s, ok := s.(string); ok {
					req = append(req, s)
				}
			}
		}
		changed := false
		for name, p := range props {
			pm, ok := p.(map[string]any)
			if !ok {
				continue
			}
			ann := pm["ucp_"+dir]
			if m, ok := ann.(map[string]any); ok {
				ann = m[op]
				if t, ok := ann.(map[string]any); ok {
					if w, ok := t["transition"].(map[string]any); ok && len(t) == 1 {
						t = w
					}
					ann = t["from"]
				}
			}
			if ann != nil {
				changed = true
			}
			switch ann {
			case "omit":
				delete(props, name)
				req = drop(req, name)
			case "optional":
				req = drop(req, name)
			case "required":
				req = append(drop(req, name), name)
			}
		}
		if changed {
			arr := make([]any, len(req))
			for i, s := range req {
				arr[i] = s
			}
			x["required"] = arr
		}
	}
	return n
}

func drop(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// fsLoader serves the embedded schema tree under mem:/// and under the
// https://ucp.dev/ ids the files declare, direction-resolved.
type fsLoader struct {
	fsys    fs.FS
	dir, op string
}

func (l fsLoader) Load(u string) (any, error) {
	p, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", u, err)
	}
	path := strings.TrimPrefix(p.Path, "/")
	b, err := fs.ReadFile(l.fsys, path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", u, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", u, err)
	}
	return resolveDirection(doc, l.dir, l.op), nil
}

func ecma(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return ecmaRegexp{re}, nil
}

type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}
func (r ecmaRegexp) String() string { return r.re.String() }

// reference compiles the santhosh-tekuri validator for a target of the
// embedded (release) schema tree.
func reference(t testing.TB, tg target) *jsonschema.Schema {
	t.Helper()
	return referenceIn(t, schemas.FS, tg)
}

// referenceIn compiles the santhosh-tekuri validator for a target of the
// schema tree rooted at fsys (the folder holding schemas/ and services/).
func referenceIn(t testing.TB, fsys fs.FS, tg target) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(ecma)
	l := fsLoader{fsys: fsys, dir: tg.dir, op: tg.op}
	c.UseLoader(jsonschema.SchemeURLLoader{"mem": l, "https": l})
	s, err := c.Compile(tg.url)
	if err != nil {
		t.Fatalf("compile reference %s: %v", tg.url, err)
	}
	return s
}

// referenceVerdict decodes like the reference (encoding/json, last duplicate
// wins) and validates.
func referenceVerdict(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

type testCase struct {
	name   string
	target string
	data   []byte
}

func extract(v any, path string) (any, bool) {
	path = strings.TrimPrefix(path, "$")
	for _, k := range strings.Split(strings.Trim(path, "."), ".") {
		if k == "" {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok = m[k]
		if !ok {
			return nil, false
		}
	}
	return v, true
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// readExample reads one upstream example file.
func readExample(t testing.TB, name string) ([]byte, error) {
	root := testshared.Root(t)
	return os.ReadFile(filepath.Join(root, "ucp-upstream", "2026-08-25", "examples", name))
}

// seedCases reads the upstream release examples and the seed's envelopes.
func seedCases(t *testing.T) []testCase {
	dir := testshared.Path(t, "ucp-upstream", "2026-08-25", "examples")
	return append(exampleCases(t, dir, targets), envelopeCases(t)...)
}

// exampleCases reads the {annotation, payload} example files in dir and
// keeps those whose schema and direction name one of known's keys; a
// tools/call example also yields its meta argument.
func exampleCases(t testing.TB, dir string, known map[string]target) []testCase {
	var out []testCase
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found in %s: %v", dir, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		var ex struct {
			Annotation struct{ Schema, Direction, Extract string }
			Payload    any
		}
		if err := json.Unmarshal(b, &ex); err != nil {
			t.Fatalf("decode %s: %v", f, err)
		}
		key := ex.Annotation.Schema + " " + ex.Annotation.Direction
		if _, ok := known[key]; !ok {
			t.Logf("skip %s: %q is not a tool payload of this service", filepath.Base(f), ex.Annotation.Schema)
			continue
		}
		payload := ex.Payload
		if ex.Annotation.Extract != "" {
			p, ok := extract(payload, ex.Annotation.Extract)
			if !ok {
				t.Fatalf("%s: extract %s found nothing", f, ex.Annotation.Extract)
			}
			if strings.Contains(ex.Annotation.Extract, "arguments") {
				if meta, ok := extract(ex.Payload, "$.params.arguments.meta"); ok {
					out = append(out, testCase{filepath.Base(f) + " meta", "meta request", mustJSON(t, meta)})
				}
			}
			payload = p
		}
		out = append(out, testCase{filepath.Base(f), key, mustJSON(t, payload)})
	}
	return out
}

// envelopeCases reads the MCP envelopes in the seed's binding text: the
// location and meta arguments of tools/call requests and the structured
// content of results.
func envelopeCases(t *testing.T) []testCase {
	root := testshared.Root(t)
	var out []testCase
	seeds, _ := filepath.Glob(filepath.Join(root, "seed", "*.txt"))
	for _, f := range seeds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for i, block := range jsonBlocks(string(b)) {
			var env map[string]any
			if json.Unmarshal([]byte(block), &env) != nil {
				continue
			}
			name := fmt.Sprintf("%s block %d", filepath.Base(f), i)
			if loc, ok := extract(env, "$.params.arguments.location"); ok {
				tool, _ := extract(env, "$.params.name")
				key := "common/location_search request"
				if tool == "lookup_locations" {
					key = "common/location_lookup request"
				}
				out = append(out, testCase{name, key, mustJSON(t, loc)})
				if meta, ok := extract(env, "$.params.arguments.meta"); ok {
					out = append(out, testCase{name + " meta", "meta request", mustJSON(t, meta)})
				}
			}
			if sc, ok := extract(env, "$.result.structuredContent"); ok {
				key := "common/location_search response"
				if _, ok := extract(sc, "$.pagination"); !ok {
					if m, ok := sc.(map[string]any); ok {
						if u, ok := m["ucp"].(map[string]any); ok {
							if caps, ok := u["capabilities"].(map[string]any); ok {
								if _, ok := caps["dev.ucp.common.location.lookup"]; ok {
									key = "common/location_lookup response"
								}
							}
						}
					}
				}
				out = append(out, testCase{name, key, mustJSON(t, sc)})
			}
		}
	}
	return out
}

// jsonBlocks returns the text blocks that start with '{' at the beginning of
// a line and end at the next '}' at the beginning of a line.
func jsonBlocks(text string) []string {
	var out []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "{") {
			continue
		}
		for j := i; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], "}") {
				out = append(out, strings.Join(lines[i:j+1], "\n"))
				i = j
				break
			}
		}
	}
	return out
}

func TestDifferential(t *testing.T) {
	seeds := seedCases(t)
	if len(seeds) < 10 {
		t.Fatalf("only %d seed payloads found", len(seeds))
	}
	refs := map[string]*jsonschema.Schema{}
	for k, tg := range targets {
		refs[k] = reference(t, tg)
	}
	cases := corpus(t, seeds)
	disagree, accepted, compared := 0, 0, 0
	for i, c := range cases {
		if testshared.Race && i%3 != 0 {
			continue // one goroutine: the race pass checks a third, the plain pass all
		}
		compared++
		tg := targets[c.target]
		ours := tg.decode(c.data)
		theirs := referenceVerdict(refs[c.target], c.data)
		if ours == nil {
			accepted++
		}
		if (ours == nil) != (theirs == nil) {
			disagree++
			if disagree <= 20 {
				t.Errorf("%s (%s): ours=%v reference=%v\npayload: %s", c.name, tg.name, ours, firstLine(theirs), c.data)
			}
		}
		if ours != nil {
			if _, ok := rpcerr.AsInvalidParams(ours); !ok {
				t.Errorf("%s: error is %T, want *rpcerr.InvalidParams", c.name, ours)
			}
		}
	}
	t.Logf("differential: %d of %d cases (%d seeds), %d accepted, %d rejected, %d disagreements", compared, len(cases), len(seeds), accepted, compared-accepted, disagree)
	for _, s := range seeds {
		if err := targets[s.target].decode(s.data); err != nil {
			t.Errorf("seed %s rejected: %v", s.name, err)
		}
	}
}

// corpus is the differential corpus: the seeds, every mutant of each seed,
// and the hand-written serves and bounds cases.
func corpus(t *testing.T, seeds []testCase) []testCase {
	cases := append([]testCase{}, seeds...)
	for _, s := range seeds {
		cases = append(cases, mutants(t, s)...)
	}
	return append(cases, servesCases()...)
}

func firstLine(err error) string {
	if err == nil {
		return "<nil>"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// servesCases are the serves shapes the issue calls out.
func servesCases() []testCase {
	var out []testCase
	for i, s := range []string{
		`{"serves":{}}`,
		`{"serves":{"point":{"latitude":1,"longitude":2},"address":{"address_country":"US"}}}`,
		`{"serves":{"address":{}}}`,
		`{"serves":{"address":{"address_country":""}}}`,
		`{"serves":{"address":{"address_country":"","postal_code":""}}}`,
		`{"serves":{"address":{"locality":"Springfield"}}}`,
		`{"serves":{"address":{"postal_code":"12345"}}}`,
		`{"serves":{"com.example.zone":{"id":"z1"}}}`,
		`{"serves":{"Point":{"latitude":1,"longitude":2}}}`,
		`{"serves":{"point":{"latitude":91,"longitude":2}}}`,
		`{"serves":{"point":{"latitude":1.0,"longitude":-180}}}`,
		`{"distance":{"center":{"latitude":1,"longitude":2},"max":-5}}`,
		`{"distance":{"center":{"latitude":1,"longitude":2},"max":1e308}}`,
		`{"distance":{"center":{"latitude":1,"longitude":2},"max":0}}`,
		`{"filters":{"hours":{"open_at":"2026-12-31T23:59:60Z"}}}`,
		`{"filters":{"hours":{"open_at":"2026-12-31t23:59:59z"}}}`,
		`{"filters":{"hours":{"open_at":"2026-12-31T23:59:59"}}}`,
		`{"filters":{"hours":{"open_at":"2026-02-30T10:00:00Z"}}}`,
		`{"filters":{"hours":{"open_at":"2026-06-30T12:00:60+00:00"}}}`,
		`{"filters":{"items":["a","a"]}}`,
		`{"filters":{"items":[]}}`,
		`{"filters":{"amenities":["dev.ucp.amenity.parking","dev.ucp.amenity.parking"]}}`,
		`{"filters":{"amenities":["Dev.ucp.amenity"]}}`,
		`{"pagination":{"limit":1.0}}`,
		`{"pagination":{"limit":1.5}}`,
		`{"pagination":{"limit":0}}`,
		`{"pagination":{"limit":"10"}}`,
		`{"query":null}`,
		`null`,
		`[]`,
		`{"QUERY":"x"}`,
	} {
		out = append(out, testCase{fmt.Sprintf("serves/bounds case %d", i), "common/location_search request", []byte(s)})
	}
	return out
}

// mutants derives invalid and edge-case payloads from a valid one: every
// member dropped, every value swapped for other JSON types and edge values,
// arrays duplicated and emptied, objects grown by unknown and case-folded
// keys and emptied.
func mutants(t *testing.T, c testCase) []testCase {
	var root any
	if err := json.Unmarshal(c.data, &root); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	var out []testCase
	add := func(desc string, v any) {
		out = append(out, testCase{c.name + " " + desc, c.target, mustJSON(t, v)})
	}
	swaps := []any{nil, true, 0.0, -1.0, 1.5, json.Number("1.0"), json.Number("1e308"), 1e9, 91.0, -181.0, "", "x", "ZZZ", "dev.ucp", "12:30", "12:30\n", "24:00",
		"2026-08-25", "2026-13-45", "2026-12-31T23:59:60Z", "2026-08-25t10:00:00z", "2026-08-25T10:00:00", "https://example.com/x", "not a uri", "urn:x",
		"123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", []any{}, map[string]any{}}
	var walk func(path []string, v any)
	walk = func(path []string, v any) {
		for _, s := range swaps {
			add(fmt.Sprintf("%s=%v", strings.Join(path, "/"), s), replaceAt(root, path, s))
		}
		switch x := v.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(x))
			for _, k := range keys {
				add("drop "+strings.Join(append(path, k), "/"), dropAt(root, append(path, k)))
			}
			grown := cloneMap(x)
			grown["x_unknown"] = "y"
			add("add key at /"+strings.Join(path, "/"), replaceAt(root, path, grown))
			if len(keys) > 0 {
				folded := cloneMap(x)
				folded[strings.ToUpper(keys[0])] = x[keys[0]]
				delete(folded, keys[0])
				add("case-folded key at /"+strings.Join(path, "/"), replaceAt(root, path, folded))
			}
			for _, k := range keys {
				walk(append(append([]string{}, path...), k), x[k])
			}
		case []any:
			if len(x) > 0 {
				dup := append(append([]any{}, x...), x[0])
				add("duplicate item at /"+strings.Join(path, "/"), replaceAt(root, path, dup))
			}
			for i, it := range x {
				if i > 2 {
					break
				}
				walk(append(append([]string{}, path...), fmt.Sprint(i)), it)
			}
		}
	}
	walk(nil, root)
	return out
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = deepCopy(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = deepCopy(v)
		}
		return out
	}
	return v
}

func replaceAt(root any, path []string, nv any) any {
	if len(path) == 0 {
		return nv
	}
	r := deepCopy(root)
	parent := at(r, path[:len(path)-1])
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = nv
	case []any:
		var i int
		fmt.Sscan(last, &i)
		p[i] = nv
	}
	return r
}

func dropAt(root any, path []string) any {
	r := deepCopy(root)
	if m, ok := at(r, path[:len(path)-1]).(map[string]any); ok {
		delete(m, path[len(path)-1])
	}
	return r
}

func at(v any, path []string) any {
	for _, k := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			v = x[i]
		}
	}
	return v
}
