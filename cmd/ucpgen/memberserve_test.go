package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// memberServeTest is the test written into the package generated from the
// drifted tree: it serves the package with NewService over an empty Source
// and sends tools/call requests through an in-memory MCP session.
const memberServeTest = `package loc_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"IMPORT"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
)

// emptySource is a Source with no Locations; filters is what it evaluates.
type emptySource struct{ filters map[string]predicate.ExtensionFilter }

func (s emptySource) Capabilities() loc.SourceCapabilities {
	return loc.SourceCapabilities{Serves: []string{"point", "address"}, Countries: []string{"DE"}, Filters: s.filters}
}
func (emptySource) Candidates(context.Context, loc.Hints) ([]loc.Candidate, error) { return nil, nil }
func (emptySource) Resolve(context.Context, []string) (map[string][]loc.Candidate, error) {
	return map[string][]loc.Candidate{}, nil
}
func (emptySource) Serves(_ context.Context, _ loc.ServesTarget, c []loc.Candidate) ([]bool, error) {
	return make([]bool, len(c)), nil
}
func (emptySource) Items(_ context.Context, _ []string, c []loc.Candidate) ([]bool, error) {
	return make([]bool, len(c)), nil
}

func session(t *testing.T, src emptySource) *mcp.ClientSession {
	t.Helper()
	hooks, err := loc.NewService(src, loc.ServiceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "drift", Version: "1"}, nil)
	if err := loc.Register(server, hooks, nil); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(cs *mcp.ClientSession, tool, location string) error {
	args := json.RawMessage(` + "`" + `{"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"}},"location":` + "`" + ` + location + "}")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err == nil && res.IsError {
		return errors.New("tool error")
	}
	return err
}

func TestDeclaredMembersAreRefused(t *testing.T) {
	cs := session(t, emptySource{})
	for _, tc := range []struct{ tool, location, pointer string }{
		{"search_locations", ` + "`" + `{"filters":{"accessible":true}}` + "`" + `, "/location/filters/accessible"},
		{"lookup_locations", ` + "`" + `{"ids":["a"],"filters":{"accessible":false}}` + "`" + `, "/location/filters/accessible"},
		{"search_locations", ` + "`" + `{"filters":{"hours":{"open_at":"2026-09-01T08:30:00Z","open_for":"PT1H"}}}` + "`" + `, "/location/filters/hours/open_for"},
		{"search_locations", ` + "`" + `{"distance":{"center":{"latitude":52.5,"longitude":13.4},"max":10,"unit":"km"}}` + "`" + `, "/location/distance/unit"},
		{"search_locations", ` + "`" + `{"distance":{"center":{"latitude":52.5,"longitude":13.4,"altitude":30},"max":10}}` + "`" + `, "/location/distance/center/altitude"},
		{"lookup_locations", ` + "`" + `{"ids":["a"],"serves":{"point":{"latitude":52.5,"longitude":13.4,"altitude":30}}}` + "`" + `, "/location/serves/point/altitude"},
		{"search_locations", ` + "`" + `{"serves":{"address":{"address_country":"DE","address_locality":"Berlin"}}}` + "`" + `, "/location/serves/address/address_locality"},
	} {
		err := call(cs, tc.tool, tc.location)
		var je *jsonrpc.Error
		if !errors.As(err, &je) {
			t.Errorf("%s %s: %v, want a JSON-RPC error", tc.tool, tc.location, err)
			continue
		}
		var data struct{ Violations []struct{ Pointer, Keyword string } }
		_ = json.Unmarshal(je.Data, &data)
		if je.Code != -32602 || len(data.Violations) != 1 || data.Violations[0].Pointer != tc.pointer || data.Violations[0].Keyword != "unsupported" {
			t.Errorf("%s %s: error %d %s %s, want -32602 unsupported at %s", tc.tool, tc.location, je.Code, je.Message, je.Data, tc.pointer)
		}
	}
	// Members the binding maps, and the same requests without the new
	// members, are served.
	for _, location := range []string{
		` + "`" + `{"filters":{"amenities":[]}}` + "`" + `,
		` + "`" + `{"distance":{"center":{"latitude":52.5,"longitude":13.4},"max":10},"filters":{"hours":{"open_at":"2026-09-01T08:30:00Z"}}}` + "`" + `,
		` + "`" + `{"serves":{"address":{"address_country":"DE"}}}` + "`" + `,
	} {
		if err := call(cs, "search_locations", location); err != nil {
			t.Errorf("%s: %v, want a result", location, err)
		}
	}
	// A Business that evaluates the new filter registers a handler for it,
	// and the request is accepted.
	cs = session(t, emptySource{filters: map[string]predicate.ExtensionFilter{
		"accessible": func(context.Context, *predicate.Candidate, json.RawMessage) (bool, error) { return true, nil },
	}})
	if err := call(cs, "lookup_locations", ` + "`" + `{"ids":["a"],"filters":{"accessible":true}}` + "`" + `); err != nil {
		t.Errorf("with a handler for accessible: %v", err)
	}
}
`

// TestDriftedMembersRefusedWhenServed generates the Location package from
// a copy of the bundled tree that declares members the runtime does not
// read (filters.accessible, filters.hours.open_for, distance.unit,
// geo.altitude, locality.address_locality) into a folder of this module,
// and serves it: each request setting one of them is refused with -32602,
// keyword unsupported, at its pointer; none is ignored. A declared filter
// goes the way of every unknown filter, refused by the engine unless the
// Business registers a handler for it, which the test also shows.
func TestDriftedMembersRefusedWhenServed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a generated package; skipped with -short")
	}
	tree := t.TempDir()
	if err := os.CopyFS(tree, schemas.FS); err != nil {
		t.Fatal(err)
	}
	for _, e := range [][3]string{
		{"schemas/common/types/location_filter.json", `"amenities": {`, `"accessible": {"type": "boolean"}, "amenities": {`},
		{"schemas/common/types/location_filter.json", `"open_at": {`, `"open_for": {"type": "string"}, "open_at": {`},
		{"schemas/common/types/location_distance.json", `"max": {`, `"unit": {"type": "string"}, "max": {`},
		{"schemas/common/types/geo.json", `"longitude": {`, `"altitude": {"type": "number"}, "longitude": {`},
		{"schemas/common/types/locality.json", `"postal_code": {`, `"address_locality": {"type": "string"}, "postal_code": {`},
	} {
		editFile(t, tree, e[0], "", e[1], e[2])
	}
	scratch := testshared.ScratchDir(t, "_memberdrift")
	out := filepath.Join(scratch, "loc")
	code, _, errs := ucpgen(t, "generate", "--schemas", tree, "--out", out, "--package", "loc")
	if code != exitOK {
		t.Fatalf("generate: exit %d\n%s", code, errs)
	}
	for _, m := range []string{"accessible", "open_for", "unit", "altitude", "address_locality"} {
		if !strings.Contains(errs, `member "`+m+`" is not interpreted by the runtime package`) {
			t.Errorf("no drift warning for %s:\n%s", m, errs)
		}
	}
	test := strings.Replace(memberServeTest, "IMPORT", "github.com/ucpgen/ucpgen/cmd/ucpgen/"+filepath.Base(scratch)+"/loc", 1)
	if err := os.WriteFile(filepath.Join(out, "serve_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "./"+filepath.Base(scratch)+"/loc")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generated package does not refuse the drifted members: %v\n%s", err, b)
	}
}

// TestRequiredDriftedMemberStopsGeneration: a member the runtime does not
// read that the schema makes required would be in every request, so no
// request could be served; generate stops with an error naming it
// instead of writing a package that refuses everything.
func TestRequiredDriftedMemberStopsGeneration(t *testing.T) {
	tree := t.TempDir()
	if err := os.CopyFS(tree, schemas.FS); err != nil {
		t.Fatal(err)
	}
	editFile(t, tree, "schemas/common/types/location_distance.json", "",
		`"required": ["center", "max"]`, `"required": ["center", "max", "unit"]`,
		`"max": {`, `"unit": {"type": "string"}, "max": {`)
	code, _, errs := ucpgen(t, "generate", "--schemas", tree, "--out", filepath.Join(t.TempDir(), "loc"))
	const want = `distance: member "unit" is required by the schema, but the predicate engine does not interpret it (it reads only center, max)`
	if code != exitBadInput || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, errs, want)
	}
}
