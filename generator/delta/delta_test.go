package delta_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/schemas"
)

// base is a small surface: one capability with one method, a REST binding
// and a few types, for the cases below to change one thing at a time.
func base() *delta.Surface {
	return &delta.Surface{
		Format:       delta.Format,
		Version:      "2026-01-01",
		Capabilities: []delta.Capability{{Name: "dev.x.search", Methods: []string{"search"}}},
		Methods: []delta.Method{{
			Name: "search", Capability: "dev.x.search",
			Params: []delta.Param{{Name: "meta", Required: true, Type: "Meta"}, {Name: "query", Required: true, Type: "Query"}},
			Result: "Result", Types: []string{"Day", "Meta", "Place", "Query", "Result"},
		}},
		REST: &delta.REST{Operations: []delta.Operation{{Method: "POST", Path: "/search", ID: "search",
			Headers: []delta.Header{{Name: "Request-Id", Required: true}, {Name: "UCP-Agent", Required: true}}}}},
		Types: []delta.Type{
			{Name: "Day", Kind: "string", Enum: []string{"monday", "tuesday"}},
			{Name: "Meta", Kind: "struct", Members: []delta.Member{{Name: "profile", Required: true, Type: "string"}}},
			{Name: "Place", Kind: "struct", Members: []delta.Member{
				{Name: "id", Required: true, Type: "string"},
				{Name: "name", Required: false, Type: "string"},
				{Name: "days", Required: false, Type: "[]Day"},
			}},
			{Name: "Query", Kind: "struct", Members: []delta.Member{{Name: "text", Required: false, Type: "string"}}},
			{Name: "Result", Kind: "struct", Members: []delta.Member{{Name: "places", Required: true, Type: "[]Place"}}},
		},
	}
}

// member returns the member of type typ named name in s.
func member(s *delta.Surface, typ, name string) *delta.Member {
	for i := range s.Types {
		if s.Types[i].Name == typ {
			for j := range s.Types[i].Members {
				if s.Types[i].Members[j].Name == name {
					return &s.Types[i].Members[j]
				}
			}
		}
	}
	panic("no member " + typ + "." + name)
}

// typ returns the type named name in s.
func typ(s *delta.Surface, name string) *delta.Type {
	for i := range s.Types {
		if s.Types[i].Name == name {
			return &s.Types[i]
		}
	}
	panic("no type " + name)
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		change   func(s *delta.Surface)
		want     []string
		breaking bool
	}{
		{name: "no change", change: func(*delta.Surface) {}},
		{name: "member became required", change: func(s *delta.Surface) { member(s, "Place", "name").Required = true },
			want:     []string{"~ member Place.name: now required: string (was opt.Value[string]) [breaking]"},
			breaking: true},
		{name: "member became optional", change: func(s *delta.Surface) { member(s, "Place", "id").Required = false },
			want:     []string{"~ member Place.id: now optional: opt.Value[string] (was string) [breaking]"},
			breaking: true},
		{name: "member type changed", change: func(s *delta.Surface) { member(s, "Place", "days").Type = "map[string]Day" },
			want:     []string{"~ member Place.days: type changed: opt.Value[map[string]Day] (was opt.Value[[]Day]) [breaking]"},
			breaking: true},
		{name: "member type and required-ness changed", change: func(s *delta.Surface) {
			m := member(s, "Result", "places")
			m.Required, m.Type = false, "[]string"
		},
			want:     []string{"~ member Result.places: now optional, type changed: opt.Value[[]string] (was []Place) [breaking]"},
			breaking: true},
		{name: "member added", change: func(s *delta.Surface) {
			p := typ(s, "Place")
			p.Members = append(p.Members, delta.Member{Name: "timezone", Type: "string"})
		},
			want: []string{"+ member Place.timezone: optional string"}},
		{name: "member removed", change: func(s *delta.Surface) {
			p := typ(s, "Place")
			p.Members = p.Members[:2]
		},
			want:     []string{"- member Place.days: was optional []Day [breaking]"},
			breaking: true},
		{name: "enum value added", change: func(s *delta.Surface) {
			d := typ(s, "Day")
			d.Enum = append(d.Enum, "wednesday")
		},
			want: []string{`+ enum value Day "wednesday"`}},
		{name: "enum value removed", change: func(s *delta.Surface) { typ(s, "Day").Enum = []string{"tuesday"} },
			want:     []string{`- enum value Day "monday" [breaking]`},
			breaking: true},
		{name: "kind changed", change: func(s *delta.Surface) {
			d := typ(s, "Day")
			d.Kind, d.Enum = "integer", nil
		},
			want:     []string{`~ type Day: now integer (was string enum: "monday", "tuesday") [breaking]`},
			breaking: true},
		{name: "param became optional", change: func(s *delta.Surface) { s.Methods[0].Params[1].Required = false },
			want:     []string{"~ param search.query: optional Query (was required Query) [breaking]"},
			breaking: true},
		{name: "new method in a new capability brings its types", change: func(s *delta.Surface) {
			s.Capabilities = append(s.Capabilities, delta.Capability{Name: "dev.x.ask", Methods: []string{"ask"}})
			s.Methods = append(s.Methods, delta.Method{Name: "ask", Capability: "dev.x.ask",
				Params: []delta.Param{{Name: "meta", Required: true, Type: "Meta"}, {Name: "question", Required: true, Type: "AskRequest"}},
				Result: "AskResponse", Types: []string{"AskRequest", "AskResponse", "Meta"}})
			s.Types = append(s.Types,
				delta.Type{Name: "AskRequest", Kind: "struct", Members: []delta.Member{{Name: "q", Required: true, Type: "string"}}},
				delta.Type{Name: "AskResponse", Kind: "struct", Members: []delta.Member{{Name: "a", Required: true, Type: "string"}}})
			s.REST.Operations = append(s.REST.Operations, delta.Operation{Method: "POST", Path: "/ask", ID: "ask",
				Headers: []delta.Header{{Name: "Request-Id", Required: true}, {Name: "Idempotency-Key"}}})
		},
			want: []string{
				"+ capability dev.x.ask: methods ask; not served until implemented",
				"+ method ask: in dev.x.ask; not served until implemented; new types AskRequest, AskResponse",
				"+ REST operation POST /ask: binds ask; header Idempotency-Key (optional) besides those of the other operations",
			}},
		{name: "new method in a served capability stops it until implemented", change: func(s *delta.Surface) {
			s.Capabilities[0].Methods = append(s.Capabilities[0].Methods, "suggest")
			s.Methods = append(s.Methods, delta.Method{Name: "suggest", Capability: "dev.x.search",
				Params: []delta.Param{{Name: "meta", Required: true, Type: "Meta"}}, Result: "Result", Types: []string{"Day", "Meta", "Place", "Result"}})
		},
			want:     []string{"+ method suggest: in existing dev.x.search, which is not served until it is implemented [breaking]"},
			breaking: true},
		{name: "new type reached from a kept method is listed on its own", change: func(s *delta.Surface) {
			s.Methods[0].Types = append(s.Methods[0].Types, "Geo")
			p := typ(s, "Place")
			p.Members = append(p.Members, delta.Member{Name: "geo", Type: "Geo"})
			s.Types = append(s.Types, delta.Type{Name: "Geo", Kind: "struct", Members: []delta.Member{
				{Name: "lat", Required: true, Type: "float64"}, {Name: "lng", Required: true, Type: "float64"}}})
		},
			want: []string{
				"+ type Geo: struct: lat (required float64), lng (required float64)",
				"+ member Place.geo: optional Geo",
			}},
		{name: "method and capability removed", change: func(s *delta.Surface) {
			s.Capabilities, s.Methods, s.REST.Operations = []delta.Capability{}, []delta.Method{}, []delta.Operation{}
			s.Types = []delta.Type{}
		},
			want: []string{
				"- capability dev.x.search: methods search [breaking]",
				"- method search: was in dev.x.search; with types Day, Meta, Place, Query, Result [breaking]",
				"- REST operation POST /search: bound search [breaking]",
			},
			breaking: true},
		{name: "method moved to another capability", change: func(s *delta.Surface) {
			s.Capabilities[0].Name, s.Methods[0].Capability = "dev.x.find", "dev.x.find"
		},
			want: []string{
				"+ capability dev.x.find: methods search; not served until implemented",
				"- capability dev.x.search: methods search [breaking]",
				"~ method search: now in dev.x.find (was dev.x.search) [breaking]",
			},
			breaking: true},
		{name: "REST headers", change: func(s *delta.Surface) {
			op := &s.REST.Operations[0]
			op.Headers = []delta.Header{{Name: "request-id", Required: false}, {Name: "Idempotency-Key"}}
		},
			want: []string{
				"+ REST header POST /search Idempotency-Key: optional",
				"- REST header POST /search UCP-Agent: was required",
				"~ REST header POST /search request-id: now optional",
			}},
		{name: "REST binding gone", change: func(s *delta.Surface) { s.REST = nil },
			want:     []string{"- REST binding: not in 2026-02-02; the package loses its REST handler (1 operation) [breaking]"},
			breaking: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to := base(), base()
			to.Version = "2026-02-02"
			tc.change(to)
			d := delta.Compare(from, to)
			var got []string
			for _, c := range d.Changes {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			if d.Breaking() != tc.breaking {
				t.Errorf("Breaking() = %v, want %v", d.Breaking(), tc.breaking)
			}
			var text bytes.Buffer
			if err := d.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if len(tc.want) == 0 {
				if text.Len() != 0 {
					t.Errorf("an empty delta wrote:\n%s", text.String())
				}
				return
			}
			if !strings.HasPrefix(text.String(), "ucpgen: what UCP 2026-01-01 -> 2026-02-02 brings:\n  "+tc.want[0]+"\n") {
				t.Errorf("report does not start with the heading and the first change:\n%s", text.String())
			}
		})
	}
}

func TestCompareFromNoRESTBinding(t *testing.T) {
	from, to := base(), base()
	from.REST = nil
	d := delta.Compare(from, to)
	want := "ucpgen: what UCP 2026-01-01 -> 2026-01-01 brings:\n" +
		"  + REST binding: not in 2026-01-01; only the operations of new methods are listed\n" +
		"  1 change, none breaking\n"
	var b bytes.Buffer
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestUnversionedLabel(t *testing.T) {
	from, to := base(), base()
	from.Version, to.Version = "", ""
	member(to, "Place", "id").Required = false
	if got := delta.Compare(from, to).Heading(); got != "ucpgen: what UCP (unversioned) -> (unversioned) brings:" {
		t.Errorf("heading %q", got)
	}
}

func TestWriteJSON(t *testing.T) {
	from, to := base(), base()
	member(to, "Place", "id").Required = false
	var b bytes.Buffer
	if err := delta.Compare(from, to).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Breaking bool
		Changes  []delta.Change
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	want := delta.Change{Op: delta.Changed, Kind: delta.KindMember, Subject: "Place.id", Detail: "now optional: opt.Value[string] (was string)", Breaking: true}
	if !got.Breaking || len(got.Changes) != 1 || got.Changes[0] != want {
		t.Errorf("JSON report:\n%s", b.String())
	}
}

// bundled is the surface of the UCP tree shipped with ucpgen.
func bundled(t *testing.T) *delta.Surface {
	t.Helper()
	m, _, err := generator.Model(generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath})
	if err != nil {
		t.Fatal(err)
	}
	return delta.FromModel(m)
}

// TestManifestRoundTrip checks that the manifest of a real tree is the same
// bytes on every build and reads back into the same Surface, so a
// regenerated package's manifest only changes when its surface does.
func TestManifestRoundTrip(t *testing.T) {
	s := bundled(t)
	a, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundled(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same tree encode differently")
	}
	if !json.Valid(a) || !delta.IsManifest(a) {
		t.Fatalf("the manifest is not a valid, recognisable JSON document:\n%.400s", a)
	}
	back, err := delta.Decode(delta.ManifestName, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Error("the decoded manifest differs from the surface it was encoded from")
	}
	if !delta.Compare(s, back).Empty() {
		t.Error("a surface differs from its own manifest")
	}
	for _, want := range []string{`"ucp_version": "2026-08-25"`, `{"name": "timezone", "required": false, "type": "string"}`, `"operation_id": "search_locations"`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("the manifest lacks %s", want)
		}
	}
	for i, l := range strings.Split(string(a), "\n") {
		// Only a line holding a single long value may be wider.
		if len(l) > 100 && strings.Contains(l, `, "`) {
			t.Errorf("line %d is %d columns wide: %s", i+1, len(l), l)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"not JSON", `{"ucpgen_surface": 1,`, "not a ucpgen surface manifest"},
		{"no format", `{"ucp_version": "2026-08-25"}`, "ucpgen_surface: missing"},
		{"newer format", `{"ucpgen_surface": 9}`, "ucpgen_surface: format 9 is newer than this ucpgen reads (1)"},
		{"unknown member", `{"ucpgen_surface": 1, "tools": []}`, `unknown field "tools"`},
		{"trailing data", `{"ucpgen_surface": 1} {}`, "data after the JSON object"},
		{"method without a name", `{"ucpgen_surface": 1, "methods": [{"name": ""}]}`, "methods/0/name: empty name"},
		{"method twice", `{"ucpgen_surface": 1, "methods": [{"name": "a"}, {"name": "a"}]}`, `methods/1/name: "a" is listed twice`},
		{"header twice", `{"ucpgen_surface": 1, "rest": {"operations": [{"method": "POST", "path": "/a", "headers": [{"name": "X-A"}, {"name": "x-a"}]}]}}`,
			`rest/operations/0/headers/1/name: "x-a" is listed twice`},
		{"operation without a path", `{"ucpgen_surface": 1, "rest": {"operations": [{"method": "POST"}]}}`, "rest/operations/0: method and path are required"},
		{"unknown kind", `{"ucpgen_surface": 1, "types": [{"name": "A", "kind": "object"}]}`, `types/0/kind: "object" is not one of struct,`},
		{"enum value twice", `{"ucpgen_surface": 1, "types": [{"name": "A", "kind": "string", "enum": ["x", "x"]}]}`, `types/0/enum/1: "x" is listed twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := delta.Decode("m.json", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), "m.json: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming m.json and containing %q", err, tc.want)
			}
		})
	}
}

func TestIsManifest(t *testing.T) {
	for data, want := range map[string]bool{
		"{\n  \"ucpgen_surface\": 1\n}\n": true,
		`{"name": "ucpgen_surface"}`:      false,
		`["ucpgen_surface"]`:              false,
		``:                                false,
	} {
		if got := delta.IsManifest([]byte(data)); got != want {
			t.Errorf("IsManifest(%q) = %v, want %v", data, got, want)
		}
	}
}
