package schemas

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// upstreamRelease is the UCP release this tree is rewritten from.
const upstreamRelease = "2026-08-25"

// copiedProseLimit is the length above which an identical description counts
// as copied prose rather than an unavoidable short phrase.
const copiedProseLimit = 40

// upstreamTree opens the release's source tree from ../shared (skipping or
// failing per the testshared rule when it is absent).
func upstreamTree(t *testing.T) fs.FS {
	t.Helper()
	return os.DirFS(testshared.Path(t, "ucp-upstream", upstreamRelease, "source"))
}

// treeFiles lists every regular file of a tree, sorted.
func treeFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("list files: %v", err)
	}
	sort.Strings(files)
	return files
}

// readTree parses one file of a tree with member order preserved.
func readTree(t *testing.T, fsys fs.FS, rel string) *jnode {
	t.Helper()
	data, err := fs.ReadFile(fsys, rel)
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	doc, err := parseOrdered(data)
	if err != nil {
		t.Fatalf("parse %s: %v", rel, err)
	}
	return doc
}

// pair is one file of the tree in both versions.
type pair struct {
	rel      string
	upstream *jnode
	ours     *jnode
}

// pairs loads every upstream file together with our file of the same path;
// a file missing on our side is reported by TestFileSetMatchesUpstream.
func pairs(t *testing.T) []pair {
	t.Helper()
	up := upstreamTree(t)
	var out []pair
	for _, rel := range treeFiles(t, up) {
		if _, err := fs.Stat(FS, rel); err != nil {
			continue
		}
		out = append(out, pair{rel: rel, upstream: readTree(t, up, rel), ours: readTree(t, FS, rel)})
	}
	if len(out) == 0 {
		t.Fatal("no file of the upstream tree exists in ours")
	}
	return out
}

// TestFileSetMatchesUpstream proves (a): the embedded tree has exactly the
// files of the release tree, no more and no fewer.
func TestFileSetMatchesUpstream(t *testing.T) {
	upstream := treeFiles(t, upstreamTree(t))
	ours := treeFiles(t, FS)
	if len(upstream) == 0 {
		t.Fatal("upstream tree is empty")
	}
	for _, f := range upstream {
		if _, found := slices.BinarySearch(ours, f); !found {
			t.Errorf("%s: present upstream, missing in schemas/", f)
		}
	}
	for _, f := range ours {
		if f == restPath {
			// The release's source tree lacks it: TestRESTBindingMatchesRelease
			// holds it to the published document.
			continue
		}
		if _, found := slices.BinarySearch(upstream, f); !found {
			t.Errorf("%s: present in schemas/, not in the upstream release", f)
		}
	}
}

// TestStructureMatchesUpstream proves (b): after dropping description,
// examples and $comment where they are annotations, every file is the same
// JSON document as upstream; the first difference is reported by pointer.
func TestStructureMatchesUpstream(t *testing.T) {
	for _, p := range pairs(t) {
		t.Run(p.rel, func(t *testing.T) {
			want := stripAnnotations(p.upstream, annotationSites(p.rel, p.upstream))
			got := stripAnnotations(p.ours, annotationSites(p.rel, p.ours))
			if at, why, ok := firstDifference(want, got, ""); !ok {
				t.Errorf("%s#%s: %s", p.rel, at, why)
			}
		})
	}
}

// TestPropertyOrderMatchesUpstream proves (c): every `properties` object
// lists its members in the upstream order, which generated code follows.
func TestPropertyOrderMatchesUpstream(t *testing.T) {
	for _, p := range pairs(t) {
		t.Run(p.rel, func(t *testing.T) {
			want := propertyOrders(p.rel, p.upstream)
			got := propertyOrders(p.rel, p.ours)
			for _, ptr := range slices.Sorted(maps.Keys(want)) {
				if g, ok := got[ptr]; !ok {
					t.Errorf("%s#%s: properties object missing in ours", p.rel, ptr)
				} else if !slices.Equal(want[ptr], g) {
					t.Errorf("%s#%s: member order %v, upstream %v", p.rel, ptr, g, want[ptr])
				}
			}
			for _, ptr := range slices.Sorted(maps.Keys(got)) {
				if _, ok := want[ptr]; !ok {
					t.Errorf("%s#%s: properties object not present upstream", p.rel, ptr)
				}
			}
		})
	}
}

// TestDescriptionsAreOwnWords proves (d): no description longer than
// copiedProseLimit characters repeats upstream text, neither at the same
// position nor anywhere else in the release (compared case- and
// punctuation-insensitively); it also requires a description wherever
// upstream documents something, since the generator turns them into doc
// comments.
func TestDescriptionsAreOwnWords(t *testing.T) {
	all := pairs(t)
	upstreamText := map[string]string{} // normalised text -> file#pointer
	for _, p := range all {
		for ptr, d := range descriptions(p.rel, p.upstream) {
			if utf8.RuneCountInString(d) > copiedProseLimit {
				upstreamText[normaliseProse(d)] = p.rel + "#" + ptr
			}
		}
	}
	for _, p := range all {
		theirs := descriptions(p.rel, p.upstream)
		ours := descriptions(p.rel, p.ours)
		for _, ptr := range slices.Sorted(maps.Keys(ours)) {
			d := ours[ptr]
			if utf8.RuneCountInString(d) <= copiedProseLimit {
				continue
			}
			if d == theirs[ptr] {
				t.Errorf("%s#%s: description is upstream's text verbatim: %q", p.rel, ptr, d)
				continue
			}
			if where, ok := upstreamText[normaliseProse(d)]; ok {
				t.Errorf("%s#%s: description repeats upstream text of %s: %q", p.rel, ptr, where, d)
			}
		}
		for _, ptr := range slices.Sorted(maps.Keys(theirs)) {
			if strings.TrimSpace(ours[ptr]) == "" {
				t.Errorf("%s#%s: upstream documents this position, ours has no description", p.rel, ptr)
			}
		}
	}
}

// normaliseProse lower-cases text and keeps only letters and digits, one
// space apart, so trivial punctuation or spacing edits do not hide a copy.
func normaliseProse(s string) string {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(fields, " ")
}

// TestAnnotationStrippingIsPositional checks the stripping walker itself: a
// property that is literally named "description" (as the amenity has) is
// structure and must survive, while description texts, examples and
// $comment at schema and OpenRPC positions go.
func TestAnnotationStrippingIsPositional(t *testing.T) {
	tests := []struct {
		name string
		rel  string
		in   string
		want string
	}{
		{
			name: "property named description is kept",
			rel:  "schemas/x.json",
			in:   `{"description":"d","properties":{"description":{"type":"string","description":"d2"}}}`,
			want: `{"properties":{"description":{"type":"string"}}}`,
		},
		{
			name: "required list naming description is kept",
			rel:  "schemas/x.json",
			in:   `{"required":["description"],"examples":[1],"$comment":"c"}`,
			want: `{"required":["description"]}`,
		},
		{
			name: "nested subschema positions",
			rel:  "schemas/x.json",
			in:   `{"$defs":{"a":{"allOf":[{"description":"x"}],"items":{"description":"y","type":"string"},"propertyNames":{"description":"z"},"if":{"description":"i"},"additionalProperties":{"description":"w"}}}}`,
			want: `{"$defs":{"a":{"allOf":[{}],"items":{"type":"string"},"propertyNames":{},"if":{},"additionalProperties":{}}}}`,
		},
		{
			name: "values of const, enum and default are data",
			rel:  "schemas/x.json",
			in:   `{"const":{"description":"v"},"default":{"examples":1},"enum":[{"description":"e"}]}`,
			want: `{"const":{"description":"v"},"default":{"examples":1},"enum":[{"description":"e"}]}`,
		},
		{
			name: "openrpc prose positions",
			rel:  "services/x.openrpc.json",
			in:   `{"info":{"title":"T","description":"d"},"servers":[{"name":"s","description":"d","variables":{"v":{"default":"x","description":"d"}}}],"components":{"schemas":{"m":{"type":"object","description":"d","properties":{"description":{"description":"d"}}}}},"methods":[{"name":"m","summary":"S","description":"d","params":[{"name":"p","description":"d","schema":{"description":"d","$ref":"#/x"}}],"result":{"name":"r","schema":{"description":"d"}}}]}`,
			want: `{"info":{"title":"T"},"servers":[{"name":"s","variables":{"v":{"default":"x"}}}],"components":{"schemas":{"m":{"type":"object","properties":{"description":{}}}}},"methods":[{"name":"m","summary":"S","params":[{"name":"p","schema":{"$ref":"#/x"}}],"result":{"name":"r","schema":{}}}]}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := parseOrdered([]byte(tc.in))
			if err != nil {
				t.Fatalf("parse input: %v", err)
			}
			want, err := parseOrdered([]byte(tc.want))
			if err != nil {
				t.Fatalf("parse want: %v", err)
			}
			got := stripAnnotations(in, annotationSites(tc.rel, in))
			if at, why, ok := firstDifference(want, got, ""); !ok {
				t.Errorf("#%s: %s", at, why)
			}
		})
	}
}

// TestFirstDifferencePointsAtTheChange checks that the comparison names the
// exact pointer of the first difference, which is what makes a failure of
// TestStructureMatchesUpstream actionable.
func TestFirstDifferencePointsAtTheChange(t *testing.T) {
	base := `{"type":"object","required":["a","b"],"properties":{"a/b":{"type":"string","pattern":"^x$"},"n":{"type":"number","minimum":0}}}`
	tests := []struct {
		name    string
		got     string
		wantAt  string
		wantWhy string
	}{
		{name: "equal", got: base, wantAt: ""},
		{name: "number spelled differently", got: strings.Replace(base, `"minimum":0`, `"minimum":0.0`, 1), wantAt: ""},
		{name: "pattern changed", got: strings.Replace(base, `^x$`, `^y$`, 1), wantAt: "/properties/a~1b/pattern", wantWhy: "upstream value"},
		{name: "member missing", got: strings.Replace(base, `"minimum":0`, `"maximum":0`, 1), wantAt: "/properties/n/minimum", wantWhy: "missing in ours"},
		{name: "required shorter", got: strings.Replace(base, `["a","b"]`, `["a"]`, 1), wantAt: "/required", wantWhy: "has 2 elements, ours has 1"},
		{name: "kind changed", got: strings.Replace(base, `"type":"object"`, `"type":["object"]`, 1), wantAt: "/type", wantWhy: "ours has an array"},
		{name: "extra member", got: strings.Replace(base, `"type":"object",`, `"type":"object","additionalProperties":false,`, 1), wantAt: "/additionalProperties", wantWhy: "does not exist upstream"},
		{name: "number changed", got: strings.Replace(base, `"minimum":0`, `"minimum":1`, 1), wantAt: "/properties/n/minimum", wantWhy: "number 1"},
	}
	want, err := parseOrdered([]byte(base))
	if err != nil {
		t.Fatalf("parse base: %v", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseOrdered([]byte(tc.got))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			at, why, ok := firstDifference(want, got, "")
			if tc.wantAt == "" {
				if !ok {
					t.Fatalf("expected no difference, got #%s: %s", at, why)
				}
				return
			}
			if ok {
				t.Fatalf("expected a difference at #%s, found none", tc.wantAt)
			}
			if at != tc.wantAt || !strings.Contains(why, tc.wantWhy) {
				t.Errorf("difference reported at #%s (%s), want #%s containing %q", at, why, tc.wantAt, tc.wantWhy)
			}
		})
	}
}

// TestParseOrderedRejectsBadJSON checks that duplicate members, which would
// make member order ambiguous, and trailing data are errors.
func TestParseOrderedRejectsBadJSON(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"duplicate member", `{"a":1,"b":{"c":1,"c":2}}`, `#/b: duplicate member "c"`},
		{"trailing data", `{} {}`, "trailing data"},
		{"truncated", `{"a":[1,`, "#/a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseOrdered([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("parseOrdered(%s) error = %v, want it to contain %q", tc.in, err, tc.wantErr)
			}
		})
	}
}

// TestPropertyOrderDetectsSwaps checks that the order comparison sees a swap
// that deep equality cannot.
func TestPropertyOrderDetectsSwaps(t *testing.T) {
	a, err := parseOrdered([]byte(`{"properties":{"x":{"properties":{"p":{},"q":{}}},"y":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseOrdered([]byte(`{"properties":{"x":{"properties":{"q":{},"p":{}}},"y":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := firstDifference(a, b, ""); !ok {
		t.Fatal("swap must not change deep equality")
	}
	oa, ob := propertyOrders("s.json", a), propertyOrders("s.json", b)
	if !slices.Equal(oa["/properties"], ob["/properties"]) {
		t.Errorf("outer order differs unexpectedly: %v vs %v", oa["/properties"], ob["/properties"])
	}
	if slices.Equal(oa["/properties/x/properties"], ob["/properties/x/properties"]) {
		t.Errorf("inner swap not detected: %v vs %v", oa["/properties/x/properties"], ob["/properties/x/properties"])
	}
}

// TestTreeFormatting keeps every file in the house layout: two-space
// indentation, LF line ends, one trailing newline, no duplicate members.
func TestTreeFormatting(t *testing.T) {
	for _, rel := range treeFiles(t, FS) {
		t.Run(rel, func(t *testing.T) {
			if path.Ext(rel) != ".json" {
				t.Fatalf("%s: only .json files belong in the tree", rel)
			}
			data, err := fs.ReadFile(FS, rel)
			if err != nil {
				t.Fatalf("read %s: %v", rel, err)
			}
			if _, err := parseOrdered(data); err != nil {
				t.Fatalf("parse %s: %v", rel, err)
			}
			text := string(data)
			if !strings.HasSuffix(text, "}\n") || strings.HasSuffix(text, "\n\n") {
				t.Errorf("%s: must end with exactly one newline after the closing brace", rel)
			}
			if strings.ContainsAny(text, "\t\r") {
				t.Errorf("%s: tabs or carriage returns found", rel)
			}
			prevIndent, prevOpens := 0, false
			for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				indent := len(line) - len(strings.TrimLeft(line, " "))
				if prevOpens && indent != prevIndent+2 {
					t.Errorf("%s:%d: indented %d spaces after an opening bracket at %d", rel, i+1, indent, prevIndent)
					return
				}
				if indent%2 != 0 {
					t.Errorf("%s:%d: odd indentation %d", rel, i+1, indent)
					return
				}
				trimmed := strings.TrimSpace(line)
				prevIndent, prevOpens = indent, strings.HasSuffix(trimmed, "{") || strings.HasSuffix(trimmed, "[")
			}
		})
	}
}

// baseURL is the prefix of every $id in the tree; the rest of an $id is the
// file's path inside FS.
const baseURL = "https://ucp.dev/"

// embeddedLoader serves https://ucp.dev/ URLs from the embedded tree so that
// compiling never touches the network, and refuses every other URL.
type embeddedLoader struct{ fsys fs.FS }

// Load implements jsonschema.URLLoader.
func (l embeddedLoader) Load(url string) (any, error) {
	rel, ok := strings.CutPrefix(url, baseURL)
	if !ok {
		return nil, fmt.Errorf("load %s: only %s URLs are served from the embedded tree", url, baseURL)
	}
	f, err := l.fsys.Open(rel)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", url, err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", url, err)
	}
	return doc, nil
}

// newCompiler returns a Draft 2020-12 compiler reading only the embedded
// tree, with format assertions on so examples are checked strictly.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(embeddedLoader{fsys: FS})
	return c
}

// schemaURL joins a tree path and an optional JSON Pointer into the URL the
// compiler resolves.
func schemaURL(rel, ptr string) string {
	if ptr == "" {
		return baseURL + rel
	}
	return baseURL + rel + "#" + ptr
}

// TestSchemasCompile proves (e) for the schema files: each one has the $id
// that maps back to its own path, and it and every one of its $defs compile
// under Draft 2020-12 with all $refs resolved inside the embedded tree.
func TestSchemasCompile(t *testing.T) {
	files := treeFiles(t, FS)
	compiled := 0
	for _, rel := range files {
		if !strings.HasPrefix(rel, "schemas/") {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			doc := readTree(t, FS, rel)
			if got, _ := doc.field("$schema").str(); got != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("%s: $schema is %q, want Draft 2020-12", rel, got)
			}
			if id, _ := doc.field("$id").str(); id != baseURL+rel {
				t.Fatalf("%s: $id is %q, want %q so the loader can find it", rel, id, baseURL+rel)
			}
			c := newCompiler()
			if _, err := c.Compile(schemaURL(rel, "")); err != nil {
				t.Fatalf("compile %s: %v", rel, err)
			}
			if defs := doc.field("$defs"); defs != nil {
				for _, name := range defs.keys {
					if _, err := c.Compile(schemaURL(rel, "/$defs/"+escapePointer(name))); err != nil {
						t.Errorf("compile %s#/$defs/%s: %v", rel, name, err)
					}
				}
			}
		})
		compiled++
	}
	if compiled == 0 {
		t.Fatal("no schema file found under schemas/")
	}
}

// openRPCDocument is the part of the OpenRPC file the generator relies on.
type openRPCDocument struct {
	OpenRPC string `json:"openrpc"`
	Info    struct {
		Title string `json:"title"`
	} `json:"info"`
	Servers []struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"servers"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
	Methods []struct {
		Name    string `json:"name"`
		Summary string `json:"summary"`
		Params  []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
			Schema   struct {
				Ref string `json:"$ref"`
			} `json:"schema"`
		} `json:"params"`
		Result struct {
			Name   string `json:"name"`
			Schema struct {
				Ref string `json:"$ref"`
			} `json:"schema"`
		} `json:"result"`
	} `json:"methods"`
}

// TestOpenRPCDocument proves (e) for the OpenRPC file: it is valid JSON with
// the two Location tools, each taking required meta and location params, and
// every param and result schema compiles from the embedded tree.
func TestOpenRPCDocument(t *testing.T) {
	data, err := fs.ReadFile(FS, OpenRPCPath)
	if err != nil {
		t.Fatalf("read %s: %v", OpenRPCPath, err)
	}
	var doc openRPCDocument
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("decode %s: %v", OpenRPCPath, err)
	}
	if doc.OpenRPC != "1.3.2" {
		t.Errorf("openrpc version %q, want 1.3.2", doc.OpenRPC)
	}
	if doc.Info.Title != "UCP Common Service" {
		t.Errorf("info.title %q, want %q", doc.Info.Title, "UCP Common Service")
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "{endpoint}" {
		t.Errorf("servers = %+v, want one templated {endpoint} server", doc.Servers)
	}
	if _, ok := doc.Components.Schemas["meta"]; !ok {
		t.Error("components.schemas.meta is missing")
	}
	want := []struct {
		name, request, response string
	}{
		{"search_locations", "../../schemas/common/location_search.json#/$defs/search_request", "../../schemas/common/location_search.json#/$defs/search_response"},
		{"lookup_locations", "../../schemas/common/location_lookup.json#/$defs/lookup_request", "../../schemas/common/location_lookup.json#/$defs/lookup_response"},
	}
	if len(doc.Methods) != len(want) {
		t.Fatalf("%d methods, want %d", len(doc.Methods), len(want))
	}
	c := newCompiler()
	for i, w := range want {
		m := doc.Methods[i]
		if m.Name != w.name {
			t.Errorf("methods/%d: name %q, want %q", i, m.Name, w.name)
		}
		if m.Summary == "" {
			t.Errorf("methods/%d: summary is empty", i)
		}
		if len(m.Params) != 2 {
			t.Errorf("methods/%d: %d params, want meta and location", i, len(m.Params))
			continue
		}
		wantParams := []struct{ name, ref string }{{"meta", "#/components/schemas/meta"}, {"location", w.request}}
		for j, wp := range wantParams {
			p := m.Params[j]
			if p.Name != wp.name || !p.Required || p.Schema.Ref != wp.ref {
				t.Errorf("methods/%d/params/%d: got {%s required=%v %s}, want {%s required=true %s}", i, j, p.Name, p.Required, p.Schema.Ref, wp.name, wp.ref)
			}
			ptr := fmt.Sprintf("/methods/%d/params/%d/schema", i, j)
			if _, err := c.Compile(schemaURL(OpenRPCPath, ptr)); err != nil {
				t.Errorf("compile %s#%s: %v", OpenRPCPath, ptr, err)
			}
		}
		if m.Result.Name != "response" || m.Result.Schema.Ref != w.response {
			t.Errorf("methods/%d/result: got {%s %s}, want {response %s}", i, m.Result.Name, m.Result.Schema.Ref, w.response)
		}
		ptr := fmt.Sprintf("/methods/%d/result/schema", i)
		sch, err := c.Compile(schemaURL(OpenRPCPath, ptr))
		if err != nil {
			t.Errorf("compile %s#%s: %v", OpenRPCPath, ptr, err)
			continue
		}
		// The result must reach the real response schema, not an empty one.
		var ve *jsonschema.ValidationError
		if err := sch.Validate(map[string]any{}); !errors.As(err, &ve) {
			t.Errorf("%s#%s accepts {}; want it to require ucp and locations (err=%v)", OpenRPCPath, ptr, err)
		}
	}
}
