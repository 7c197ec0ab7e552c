package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// prevVersion is the older version the storefinder serves in these tests.
const prevVersion = "2026-08-21"

// startVersions runs the storefinder's HTTP server (newServers,
// httpServers and serveUntil, as run uses them) on 127.0.0.1 with c and
// returns its base URL.
func startVersions(t *testing.T, c config) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	var pools []*pgxpool.Pool
	c.pools = &pools
	t.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	s, _, err := newServers(c, logger)
	if err != nil {
		t.Fatalf("newServers: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	srv, err := httpServers(c, s, base, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveUntil(ctx, srv, ln, c.limits.shutdownGrace, logger) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return base
}

// draftCheck validates documents against the draft 2026-08-21 source tree
// in ../shared with santhosh-tekuri, an implementation independent of the
// generated validators.
type draftCheck map[string]*jsonschema.Schema

// draftSchemas compiles the draft's search and lookup responses and its
// Business profile.
func draftSchemas(t *testing.T) draftCheck {
	t.Helper()
	dir := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseRemote{})
	c.AssertFormat()
	err := fs.WalkDir(os.DirFS(dir), "schemas", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		raw, err := os.ReadFile(dir + "/" + p)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			id = "https://ucp.dev/" + p
		}
		return c.AddResource(id, doc)
	})
	if err != nil {
		t.Fatalf("load draft schemas: %v", err)
	}
	out := draftCheck{}
	for name, ref := range map[string]string{
		"search_locations": "https://ucp.dev/schemas/common/location_search.json#/$defs/search_response",
		"lookup_locations": "https://ucp.dev/schemas/common/location_lookup.json#/$defs/lookup_response",
		"business profile": "https://ucp.dev/schemas/profile.json#/$defs/business_schema",
	} {
		if out[name], err = c.Compile(ref); err != nil {
			t.Fatalf("compile %s: %v", ref, err)
		}
	}
	return out
}

// refuseRemote keeps the compiler inside the draft tree.
type refuseRemote struct{}

func (refuseRemote) Load(url string) (any, error) {
	return nil, errors.New("not in the draft tree: " + url)
}

// valid reports whether doc passes the named draft schema.
func (d draftCheck) valid(t *testing.T, name string, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", name, err)
	}
	if err := d[name].Validate(v); err != nil {
		t.Errorf("%s is not valid against the draft schema: %v\n%s", name, err, clip(doc))
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// getJSON fetches url and returns its body, failing unless it is a 200 JSON
// document.
func getJSON(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !json.Valid(body) {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, clip(body))
	}
	return body
}

// wireProfile is what the tests read of a Business profile.
type wireProfile struct {
	UCP struct {
		Version           string            `json:"version"`
		SupportedVersions map[string]string `json:"supported_versions"`
		Services          map[string][]struct {
			Version, Transport, Endpoint string
		} `json:"services"`
		Capabilities map[string][]struct{ Version string } `json:"capabilities"`
	} `json:"ucp"`
}

// discoverPrevious reads /.well-known/ucp like a Platform on prevVersion
// would and returns that version's leaf profile and its MCP endpoint.
func discoverPrevious(t *testing.T, base string, draft draftCheck) (leaf []byte, endpoint string) {
	t.Helper()
	var cur wireProfile
	if err := json.Unmarshal(getJSON(t, base+"/.well-known/ucp"), &cur); err != nil {
		t.Fatal(err)
	}
	if cur.UCP.Version != location.ProtocolVersion {
		t.Errorf("current profile at %q, want %s", cur.UCP.Version, location.ProtocolVersion)
	}
	uri, ok := cur.UCP.SupportedVersions[prevVersion]
	if !ok || len(cur.UCP.SupportedVersions) != 1 {
		t.Fatalf("supported_versions = %v, want exactly %s", cur.UCP.SupportedVersions, prevVersion)
	}
	leaf = getJSON(t, uri)
	draft.valid(t, "business profile", leaf)
	var lp wireProfile
	if err := json.Unmarshal(leaf, &lp); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		UCP map[string]json.RawMessage `json:"ucp"`
	}
	json.Unmarshal(leaf, &raw)
	if _, has := raw.UCP["supported_versions"]; has {
		t.Errorf("the %s profile lists supported_versions; it must be a leaf", prevVersion)
	}
	if lp.UCP.Version != prevVersion {
		t.Errorf("leaf profile at %q, want %s", lp.UCP.Version, prevVersion)
	}
	for name, entries := range lp.UCP.Capabilities {
		for _, e := range entries {
			if e.Version != prevVersion {
				t.Errorf("leaf capability %s at %s", name, e.Version)
			}
		}
	}
	if len(lp.UCP.Capabilities) == 0 {
		t.Error("leaf profile has no capabilities")
	}
	svc := lp.UCP.Services["dev.ucp.common"]
	curSvc := cur.UCP.Services["dev.ucp.common"]
	for _, s := range svc {
		if s.Transport == "mcp" {
			endpoint = s.Endpoint
		}
	}
	if endpoint == "" || len(curSvc) == 0 || slices.ContainsFunc(curSvc, func(s struct{ Version, Transport, Endpoint string }) bool { return s.Endpoint == endpoint }) {
		t.Fatalf("leaf MCP endpoint %q, want its own (current services %+v)", endpoint, curSvc)
	}
	return leaf, endpoint
}

// connectHTTP connects the Go SDK client to an MCP endpoint.
func connectHTTP(t *testing.T, endpoint string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-versions", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callRaw calls a tool and returns its structuredContent as JSON.
func callRaw(t *testing.T, cs *mcp.ClientSession, tool, loc string) ([]byte, error) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(`{"meta":` + e2eMeta + `,"location":` + loc + `}`)})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		b, _ := json.Marshal(res)
		return nil, fmt.Errorf("tool error result: %s", b)
	}
	return json.Marshal(res.StructuredContent)
}

// answer is what the tests read of a search or lookup answer.
type answer struct {
	UCP struct {
		Version string `json:"version"`
	} `json:"ucp"`
	Locations []struct {
		ID        string          `json:"id"`
		Amenities json.RawMessage `json:"amenities"`
	} `json:"locations"`
}

func (a answer) ids() []string {
	var out []string
	for _, l := range a.Locations {
		out = append(out, l.ID)
	}
	return out
}

// decodeAnswer decodes body and checks its version and the JSON type of
// every Location's amenities ('[' for a list, '{' for a map).
func decodeAnswer(t *testing.T, what string, body []byte, version string, amenities byte) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if a.UCP.Version != version {
		t.Errorf("%s: ucp.version %q, want %s", what, a.UCP.Version, version)
	}
	with := 0
	for _, l := range a.Locations {
		if len(l.Amenities) == 0 {
			continue
		}
		with++
		if l.Amenities[0] != amenities {
			t.Errorf("%s: %s amenities %s, want a JSON %q", what, l.ID, clip(l.Amenities), amenities)
		}
	}
	if len(a.Locations) > 0 && with == 0 {
		t.Errorf("%s: no Location carries amenities, so their shape is untested", what)
	}
	return a
}

// schemaAt walks an input schema along properties, following local $refs.
func schemaAt(t *testing.T, schema json.RawMessage, names ...string) map[string]json.RawMessage {
	t.Helper()
	var root map[string]json.RawMessage
	if err := json.Unmarshal(schema, &root); err != nil {
		t.Fatal(err)
	}
	var defs map[string]json.RawMessage
	json.Unmarshal(root["$defs"], &defs)
	cur := root
	for _, n := range names {
		var props map[string]json.RawMessage
		json.Unmarshal(cur["properties"], &props)
		next, ok := props[n]
		if !ok {
			return nil
		}
		cur = nil
		json.Unmarshal(next, &cur)
		var ref string
		if json.Unmarshal(cur["$ref"], &ref) == nil && strings.HasPrefix(ref, "#/$defs/") {
			cur = nil
			json.Unmarshal(defs[strings.TrimPrefix(ref, "#/$defs/")], &cur)
		}
	}
	return cur
}

// itemAndAmenity picks an item id and an amenity that some stores of the
// embedded dataset have, for filters that match something.
func itemAndAmenity(t *testing.T) (item, amenity string) {
	t.Helper()
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if item == "" && len(r.Items) > 0 && !r.Private {
			item = r.Items[0]
		}
	}
	var probe struct {
		Amenities map[string]json.RawMessage `json:"amenities"`
	}
	for _, r := range recs {
		if !r.Private && json.Unmarshal(r.Location, &probe) == nil {
			for a := range probe.Amenities {
				if amenity == "" || a < amenity {
					amenity = a
				}
			}
		}
		if amenity != "" {
			break
		}
	}
	if item == "" || amenity == "" {
		t.Fatalf("the dataset has no item (%q) or amenity (%q) to filter by", item, amenity)
	}
	return item, amenity
}

// checkPreviousVersion serves the older version over the Go SDK client,
// against a storefinder started with c: discovery, the old request shape,
// answers valid at the draft, filters.items refused there, and the current
// endpoint unchanged. Every old-version answer must name the same Locations
// as the current endpoint's answer to the same question.
func checkPreviousVersion(t *testing.T, c config) {
	draft := draftSchemas(t)
	base := startVersions(t, c)
	leaf, endpoint := discoverPrevious(t, base, draft)
	old := connectHTTP(t, endpoint)
	cur := connectHTTP(t, base+mcpPath(location.ProtocolVersion))

	tools, err := old.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "search_locations" {
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		if schemaAt(t, raw, "location", "filters", "inventory") == nil || schemaAt(t, raw, "location", "filters", "items") != nil {
			t.Errorf("the %s search_locations input schema has no filters.inventory, or still has filters.items", prevVersion)
		}
	}

	item, amenity := itemAndAmenity(t)
	near := `"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":30000}`
	searches := []struct{ name, old, cur string }{
		{"near", `{` + near + `,"pagination":{"limit":8}}`, `{` + near + `,"pagination":{"limit":8}}`},
		{"amenity", `{"filters":{"amenities":["` + amenity + `"]},"pagination":{"limit":8}}`, `{"filters":{"amenities":["` + amenity + `"]},"pagination":{"limit":8}}`},
		{"inventory", `{"filters":{"inventory":[{"id":"` + item + `","availability_status":"in_stock"}]},"pagination":{"limit":8}}`, `{"filters":{"items":["` + item + `"]},"pagination":{"limit":8}}`},
	}
	var seen []string
	for _, s := range searches {
		body, err := callRaw(t, old, "search_locations", s.old)
		if err != nil {
			t.Fatalf("%s search at %s: %v", s.name, prevVersion, err)
		}
		draft.valid(t, "search_locations", body)
		a := decodeAnswer(t, s.name+" search at "+prevVersion, body, prevVersion, '[')
		curBody, err := callRaw(t, cur, "search_locations", s.cur)
		if err != nil {
			t.Fatalf("%s search at %s: %v", s.name, location.ProtocolVersion, err)
		}
		b := decodeAnswer(t, s.name+" search at "+location.ProtocolVersion, curBody, location.ProtocolVersion, '{')
		if len(a.Locations) == 0 || !slices.Equal(a.ids(), b.ids()) {
			t.Errorf("%s search: %s answers %v, %s answers %v; want the same non-empty page", s.name, prevVersion, a.ids(), location.ProtocolVersion, b.ids())
		}
		seen = append(seen, a.ids()...)
	}

	// Cursors issued at the older endpoint walk the same Locations, in the
	// same order, as the current endpoint's.
	walk := `{` + near + `}`
	if a, b := e2eWalk(t, context.Background(), old, walk), e2eWalk(t, context.Background(), cur, walk); len(a) <= 25 || !slices.Equal(a, b) {
		t.Errorf("walk: %d Locations at %s, %d at %s; want the same list over several pages", len(a), prevVersion, len(b), location.ProtocolVersion)
	}

	lookupReq := `{"ids":["` + seen[0] + `","` + seen[len(seen)-1] + `","no-such-store"]}`
	body, err := callRaw(t, old, "lookup_locations", lookupReq)
	if err != nil {
		t.Fatalf("lookup at %s: %v", prevVersion, err)
	}
	draft.valid(t, "lookup_locations", body)
	a := decodeAnswer(t, "lookup at "+prevVersion, body, prevVersion, '[')
	if len(a.Locations) == 0 {
		t.Errorf("lookup at %s found nothing: %s", prevVersion, clip(body))
	}

	_, err = callRaw(t, old, "search_locations", `{"filters":{"items":["`+item+`"]}}`)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 || !strings.Contains(rpcErr.Message, "items") {
		t.Errorf("filters.items at %s: err = %v, want -32602 naming items", prevVersion, err)
	}
	_, err = callRaw(t, cur, "search_locations", `{"filters":{"inventory":[{"id":"`+item+`"}]}}`)
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
		t.Errorf("filters.inventory at %s: err = %v, want -32602", location.ProtocolVersion, err)
	}

	checkPreviousOverREST(t, leaf, draft, old, searches[2].old, lookupReq, item)
}

// checkPreviousOverREST finds the REST entry of the older version's leaf
// profile and asks it one search and one lookup in the older shapes: the
// answers must be valid at the draft, carry its version and name the same
// Locations as its MCP endpoint; filters.items must get 400 naming
// /filters/items.
func checkPreviousOverREST(t *testing.T, leaf []byte, draft draftCheck, old *mcp.ClientSession, search, lookup, item string) {
	t.Helper()
	var lp wireProfile
	if err := json.Unmarshal(leaf, &lp); err != nil {
		t.Fatal(err)
	}
	var rest, mcpEndpoint string
	for _, s := range lp.UCP.Services["dev.ucp.common"] {
		switch s.Transport {
		case "rest":
			rest = s.Endpoint
		case "mcp":
			mcpEndpoint = s.Endpoint
		}
		if s.Version != prevVersion {
			t.Errorf("leaf %s entry at %s, want %s", s.Transport, s.Version, prevVersion)
		}
	}
	if rest == "" || mcpEndpoint == "" || !strings.HasSuffix(rest, "/ucp/"+prevVersion) {
		t.Fatalf("leaf profile services %+v, want an MCP entry and a REST entry at /ucp/%s", lp.UCP.Services, prevVersion)
	}
	for _, q := range []struct{ tool, op, req string }{
		{"search_locations", "/locations/search", search},
		{"lookup_locations", "/locations/lookup", lookup},
	} {
		r := restPost(t, rest+q.op, q.req)
		if r.status != http.StatusOK {
			t.Fatalf("%s over REST at %s: status %d: %s", q.tool, prevVersion, r.status, clip(r.body))
		}
		draft.valid(t, q.tool, r.body)
		a := decodeAnswer(t, q.tool+" over REST at "+prevVersion, r.body, prevVersion, '[')
		viaMCP, err := callRaw(t, old, q.tool, q.req)
		if err != nil {
			t.Fatalf("%s at %s over MCP: %v", q.tool, prevVersion, err)
		}
		if b := decodeAnswer(t, q.tool+" over MCP at "+prevVersion, viaMCP, prevVersion, '['); len(a.Locations) == 0 || !slices.Equal(a.ids(), b.ids()) {
			t.Errorf("%s at %s: REST answers %v, MCP answers %v; want the same non-empty list", q.tool, prevVersion, a.ids(), b.ids())
		}
	}
	r := restPost(t, rest+"/locations/search", `{"filters":{"items":["`+item+`"]}}`)
	ref := restRefused(t, r, http.StatusBadRequest, "invalid_params")
	if !slices.ContainsFunc(ref.Violations, func(v struct {
		Pointer string `json:"pointer"`
	}) bool {
		return v.Pointer == "/filters/items"
	}) {
		t.Errorf("filters.items over REST at %s: violations %+v, want one at /filters/items: %s", prevVersion, ref.Violations, clip(r.body))
	}
}

func TestPreviousVersionServed(t *testing.T) {
	checkPreviousVersion(t, config{supported: prevVersion})
}

func TestPreviousVersionServedFromPostGIS(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: loads the dataset into PostGIS (not in -short mode)")
	}
	t.Parallel() // its own schema; waits on the database more than on the CPU
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	checkPreviousVersion(t, config{supported: prevVersion, postgres: dsn, data: pgDataFile(t)})
}

// Without --supported-versions the storefinder advertises and serves the
// current version only: a Business must not advertise a pre-release.
func TestPreviousVersionOffByDefault(t *testing.T) {
	c, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	base := startVersions(t, c)
	var cur wireProfile
	if err := json.Unmarshal(getJSON(t, base+"/.well-known/ucp"), &cur); err != nil {
		t.Fatal(err)
	}
	if cur.UCP.SupportedVersions != nil {
		t.Errorf("supported_versions = %v, want none by default", cur.UCP.SupportedVersions)
	}
	for _, p := range []string{profilePath(prevVersion), mcpPath(prevVersion)} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 when the version is off", p, resp.StatusCode)
		}
	}
	if _, err := parseFlags([]string{"--supported-versions", "2026-01-11"}); err == nil || !strings.Contains(err.Error(), "2026-01-11") {
		t.Errorf("an unknown version: err = %v, want one naming it", err)
	}
	if _, err := parseFlags([]string{"--stdio", "--supported-versions", prevVersion}); err == nil || !strings.Contains(err.Error(), "--stdio") {
		t.Errorf("--stdio with --supported-versions: err = %v, want one naming --stdio", err)
	}
	c, err = parseFlags([]string{"--supported-versions", prevVersion})
	if err != nil || c.supported.versions()[0] != prevVersion {
		t.Errorf("--supported-versions %s: %v %+v", prevVersion, err, c.supported)
	}
}

// --items-rate covers inventory probing at every version.
func TestSearchesItemsAtEveryVersion(t *testing.T) {
	for loc, want := range map[string]bool{
		`{"filters":{"items":["sku-1"]}}`:             true,
		`{"filters":{"inventory":[{"id":"sku-1"}]}}`:  true,
		`{"filters":{"items":null,"inventory":null}}`: false,
		`{"filters":{"amenities":["dev.ucp.x"]}}`:     false,
		`{}`: false,
		// Escaped names are the names they decode to.
		`{"filters":{"it\u0065ms":["sku-1"]}}`:        true,
		`{"filters":{"\u0069nventory":[{"id":"s"}]}}`: true,
		`{"query":"caf\u00e9","filters":{}}`:          false,
		// A value that says "items" is no filter.
		`{"query":"items","filters":{"amenities":["dev.ucp.x"]}}`: false,
	} {
		if got := searchesItems("search_locations", json.RawMessage(`{"location":`+loc+`}`)); got != want {
			t.Errorf("searchesItems(%s) = %v, want %v", loc, got, want)
		}
	}
	if searchesItems("lookup_locations", json.RawMessage(`{"location":{"filters":{"items":["sku-1"]}}}`)) {
		t.Error("a lookup counted as an items search")
	}
}

// Every version's endpoint draws on one budget: a caller that spent its
// burst at one version is limited at the other too.
func TestVersionsShareOneBudget(t *testing.T) {
	c, err := parseFlags([]string{"--supported-versions", prevVersion, "--rate", "0.001", "--rate-burst", "1"})
	if err != nil {
		t.Fatal(err)
	}
	base := startVersions(t, c)
	const profile = "https://platform.example/p.json"
	status, _, r := rpc(t, http.DefaultClient, base+mcpPath(location.ProtocolVersion), toolCall(1, "lookup_locations", profile, `{"ids":["x"]}`))
	if status != http.StatusOK || r.Error != nil {
		t.Fatalf("first call: %d %s", status, r.raw)
	}
	status, _, r = rpc(t, http.DefaultClient, base+mcpPath(prevVersion), toolCall(2, "lookup_locations", profile, `{"ids":["x"]}`))
	if status != http.StatusTooManyRequests || r.Error == nil || r.Error.Code != -32000 {
		t.Fatalf("second call at the other version: %d %s, want 429 with -32000", status, r.raw)
	}
}
