package ir

import (
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/schemas"
)

// TestGoNameKeepsInitialisms pins the one name mangler that both the types
// and the check functions use.
func TestGoNameKeepsInitialisms(t *testing.T) {
	for in, want := range map[string]string{
		"dev.ucp.buyer_ip":          "DevUCPBuyerIP",
		"signals#/properties/x_url": "SignalsPropertiesXURL",
		"mcp.openrpc":               "MCPOpenrpc",
		"lookup_locations":          "LookupLocations",
		"2fa":                       "X2fa",
		"":                          "X",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAnnotation covers every form of ucp_request/ucp_response.
func TestAnnotation(t *testing.T) {
	cases := []struct {
		name, json string
		dir        Direction
		op, want   string
		err        string
	}{
		{"plain string", `{"ucp_request": "omit"}`, Request, "search", "omit", ""},
		{"other direction", `{"ucp_request": "omit"}`, Response, "search", "", ""},
		{"per operation", `{"ucp_response": {"search": "required", "lookup": "omit"}}`, Response, "lookup", "omit", ""},
		{"operation not listed", `{"ucp_request": {"search": "required"}}`, Request, "lookup", "", ""},
		{"transition", `{"ucp_request": {"search": {"from": "optional", "to": "required"}}}`, Request, "search", "optional", ""},
		{"unknown value", `{"ucp_request": "sometimes"}`, Request, "search", "", "sometimes"},
		{"wrapped transition", `{"ucp_request": {"update": {"transition": {"from": "required", "to": "omit"}}}}`, Request, "update", "required", ""},
		{"wrapped transition without from", `{"ucp_request": {"update": {"transition": {"to": "omit"}}}}`, Request, "update", "", "from"},
		{"transition without from", `{"ucp_request": {"search": {"to": "required"}}}`, Request, "search", "", "from"},
		{"number", `{"ucp_request": 3}`, Request, "search", "", "annotation"},
	}
	for _, c := range cases {
		n, err := load.Parse("t.json", []byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		s := &load.Schema{Loc: n.Loc, UcpRequest: n.Get("ucp_request"), UcpResponse: n.Get("ucp_response"), Node: n}
		got, err := Annotation(s, c.dir, c.op)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want one mentioning %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case got != c.want:
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPublishedURL places files of the bundled tree under the release.
func TestPublishedURL(t *testing.T) {
	spec, err := load.OpenRPC(schemas.FS, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"schemas/common/location_search.json": "https://ucp.dev/" + m.Version + "/schemas/common/location_search.json",
		schemas.OpenRPCPath:                   "https://ucp.dev/" + m.Version + "/services/common/mcp.openrpc.json",
	} {
		got, err := m.PublishedURL(file)
		if err != nil || got != want {
			t.Errorf("PublishedURL(%s) = %q, %v; want %q", file, got, err, want)
		}
	}
	m.Version = "1.0"
	if _, err := m.PublishedURL(schemas.OpenRPCPath); err == nil {
		t.Error("a version that is not a release gave a URL")
	}
}
