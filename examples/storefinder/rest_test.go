package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/openapicheck"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

const restProfile = "https://platform.example/p.json"

// restIDs makes a fresh UUID for each request's Request-Id.
var restIDs atomic.Int64

func nextRequestID() string { return fmt.Sprintf("8ef9b0c2-78d1-4e4b-91c2-%012x", restIDs.Add(1)) }

// restReply is one REST answer.
type restReply struct {
	status int
	header http.Header
	body   []byte
	// asDocument is the request as the published OpenAPI document sees
	// it (its path relative to the binding's base); nil when the checker
	// is off (see openapicheck.Usable).
	asDocument *http.Request
	// refused is what the document refuses in the request.
	refused error
}

// restPost posts body to url with the binding's headers; header pairs
// override them (an empty value deletes one, a name written "+Name" adds
// one more line).
func restPost(t *testing.T, url, body string, header ...string) restReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("UCP-Agent", `profile="`+restProfile+`"`)
	req.Header.Set("Request-Id", nextRequestID())
	for i := 0; i+1 < len(header); i += 2 {
		switch name, more := strings.CutPrefix(header[i], "+"); {
		case more:
			req.Header.Add(name, header[i+1])
		case header[i+1] == "":
			req.Header.Del(name)
		default:
			req.Header.Set(name, header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("post %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := restReply{status: resp.StatusCode, header: resp.Header, body: raw}
	if openapicheck.Usable {
		c := publishedOpenAPI(t)
		_, op, _ := strings.Cut(req.URL.Path, "/locations/")
		r.asDocument, _ = http.NewRequest(req.Method, "https://business.example/locations/"+op, strings.NewReader(body))
		r.asDocument.Header = req.Header.Clone()
		r.refused = c.Request(r.asDocument)
	}
	return r
}

// mcpStructured calls tool over MCP and returns structuredContent.
func mcpStructured(t *testing.T, base, tool, loc string) []byte {
	t.Helper()
	status, _, r := rpc(t, http.DefaultClient, base+"/ucp/mcp", toolCall(1, tool, restProfile, loc))
	if status != 200 || r.Result == nil {
		t.Fatalf("MCP %s %s: status %d: %s", tool, loc, status, r.raw)
	}
	return r.Result.StructuredContent
}

// releaseCheck validates REST bodies against the release's own schemas
// (../shared, the 2026-08-25 source tree) with santhosh-tekuri, which
// shares no code with the generated validators.
type releaseCheck map[string]*jsonschema.Schema

func releaseSchemas(t *testing.T) releaseCheck {
	t.Helper()
	dir := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
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
		return c.AddResource("https://ucp.dev/"+p, doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := releaseCheck{}
	for name, ref := range map[string]string{
		"search_locations": "https://ucp.dev/schemas/common/location_search.json#/$defs/search_response",
		"lookup_locations": "https://ucp.dev/schemas/common/location_lookup.json#/$defs/lookup_response",
		"search_request":   "https://ucp.dev/schemas/common/location_search.json#/$defs/search_request",
		"lookup_request":   "https://ucp.dev/schemas/common/location_lookup.json#/$defs/lookup_request",
	} {
		s, err := c.Compile(ref)
		if err != nil {
			t.Fatalf("compile %s: %v", ref, err)
		}
		out[name] = s
	}
	return out
}

// check validates one document against the named schema.
func (c releaseCheck) check(t *testing.T, name string, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := c[name].Validate(v); err != nil {
		t.Errorf("%s fails the release schema: %v\n%s", name, err, doc)
	}
}

// restOK requires a 200 whose Content-Digest is the body's and whose body
// the release schema accepts, and returns the body.
func restOK(t *testing.T, check releaseCheck, tool string, r restReply) []byte {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	r.heldToDocument(t, true)
	if got, want := r.header.Get("Content-Digest"), restDigest(r.body); got != want {
		t.Errorf("Content-Digest %q, want %q", got, want)
	}
	check.check(t, tool, r.body)
	return r.body
}

// heldToDocument checks r against the published OpenAPI document. A
// request meant to be valid (wantValid) must be accepted by the document
// too, and its status must be one the operation declares; the document
// declares only the 200 answer, so a refusal is held to the request side
// alone (the server's refusals are LOCATION.md section 13's, checked by
// restRefused).
func (r restReply) heldToDocument(t *testing.T, wantValid bool) {
	t.Helper()
	if r.asDocument == nil || !wantValid {
		return
	}
	if r.refused != nil {
		t.Errorf("the published OpenAPI document refuses a request the server accepted: %v", r.refused)
	}
	if err := publishedOpenAPI(t).Response(r.asDocument, r.status); err != nil {
		t.Errorf("response against the published OpenAPI document: %v", err)
	}
}

// restRefused requires status and a refusal body with code.
func restRefused(t *testing.T, r restReply, status int, code string) refusal {
	t.Helper()
	var ref refusal
	if err := json.Unmarshal(r.body, &ref); err != nil {
		t.Fatalf("status %d, body not a refusal: %s", r.status, r.body)
	}
	if r.status != status || ref.Code != code {
		t.Fatalf("status %d code %q, want %d %q: %s", r.status, ref.Code, status, code, r.body)
	}
	return ref
}

type refusal struct {
	Code       string `json:"code"`
	Content    string `json:"content"`
	Header     string `json:"header"`
	Violations []struct {
		Pointer string `json:"pointer"`
	} `json:"violations"`
}

// TestRESTAcceptance is the black-box list against a running
// storefinder: discovery, the five kinds of search, a chained walk, a
// lookup with not_found, and every refusal.
func TestRESTAcceptance(t *testing.T) {
	check := releaseSchemas(t)
	base := startVersions(t, config{limits: defaultLimits(t)})
	rest := base + restBase

	t.Run("profile lists both transports", func(t *testing.T) {
		resp, err := http.Get(base + "/.well-known/ucp")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var p struct {
			UCP struct {
				Services map[string][]map[string]string `json:"services"`
			} `json:"ucp"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			t.Fatal(err)
		}
		byTransport := map[string]map[string]string{}
		for _, s := range p.UCP.Services["dev.ucp.common"] {
			byTransport[s["transport"]] = s
		}
		r, m := byTransport["rest"], byTransport["mcp"]
		if r == nil || m == nil {
			t.Fatalf("services %v", p.UCP.Services)
		}
		if r["schema"] != "https://ucp.dev/2026-08-25/services/common/rest.openapi.json" || r["endpoint"] != rest || r["version"] != location.ProtocolVersion {
			t.Errorf("REST entry %v", r)
		}
		if m["endpoint"] != base+"/ucp/mcp" {
			t.Errorf("MCP entry %v", m)
		}
	})

	t.Run("five kinds of search equal MCP", func(t *testing.T) {
		for name, req := range map[string]string{
			"browse":   `{}`,
			"text":     `{"query":"coffee"}`,
			"distance": nearNewYork,
			"hours":    `{"filters":{"hours":{"open_at":"2026-12-02T15:00:00Z"}}}`,
			"serves":   `{"serves":{"point":{"latitude":40.7128,"longitude":-74.006}}}`,
		} {
			t.Run(name, func(t *testing.T) {
				check.check(t, "search_request", []byte(req))
				got := restOK(t, check, "search_locations", restPost(t, rest+"/locations/search", req))
				if want := mcpStructured(t, base, "search_locations", req); !bytes.Equal(got, want) {
					t.Errorf("REST body differs from MCP structuredContent\nREST %s\nMCP  %s", got, want)
				}
			})
		}
	})

	t.Run("chained pagination walk", func(t *testing.T) {
		req := `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":3000},"pagination":{"limit":2}}`
		var ids []string
		for page := 0; ; page++ {
			body := restOK(t, check, "search_locations", restPost(t, rest+"/locations/search", req))
			var p e2eSearchPage
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatal(err)
			}
			for _, l := range p.Locations {
				ids = append(ids, l.ID)
			}
			if p.Pagination == nil || !p.Pagination.HasNextPage {
				break
			}
			if page > 100 {
				t.Fatal("the walk does not end")
			}
			req = `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":3000},"pagination":{"limit":2,"cursor":"` + *p.Pagination.Cursor + `"}}`
		}
		if len(ids) < 3 {
			t.Fatalf("walk of %d Locations proves no chaining", len(ids))
		}
		sorted := slices.Clone(ids)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(ids) {
			t.Errorf("the walk repeats Locations: %v", ids)
		}
	})

	t.Run("lookup equals MCP, with not_found", func(t *testing.T) {
		recs, err := sample.Default()
		if err != nil {
			t.Fatal(err)
		}
		var id string
		for _, r := range recs {
			if !r.Private {
				id = r.ID
				break
			}
		}
		req := `{"ids":["` + id + `","no-such-store"]}`
		got := restOK(t, check, "lookup_locations", restPost(t, rest+"/locations/lookup", req))
		if want := mcpStructured(t, base, "lookup_locations", req); !bytes.Equal(got, want) {
			t.Errorf("REST %s\nMCP  %s", got, want)
		}
		var l e2eLookup
		json.Unmarshal(got, &l)
		if len(l.Locations) != 1 || l.Locations[0].ID != id || !slices.ContainsFunc(l.Messages, func(m e2eMessage) bool { return m.Code == "not_found" }) {
			t.Errorf("lookup %s", got)
		}
	})

	url := rest + "/locations/search"
	cases := []struct {
		name   string
		do     func() restReply
		status int
		code   string
		at     string
	}{
		{"negative radius", func() restReply {
			return restPost(t, url, `{"distance":{"center":{"latitude":1,"longitude":1},"max":-5}}`)
		}, 400, "invalid_params", "/distance/max"},
		{"malformed JSON", func() restReply { return restPost(t, url, `{"query":`) }, 400, "invalid_json", ""},
		{"missing UCP-Agent", func() restReply { return restPost(t, url, `{}`, "UCP-Agent", "") }, 400, "invalid_header", "UCP-Agent"},
		{"UCP-Agent not a dictionary", func() restReply { return restPost(t, url, `{}`, "UCP-Agent", restProfile) }, 400, "invalid_header", "UCP-Agent"},
		{"missing Request-Id", func() restReply { return restPost(t, url, `{}`, "Request-Id", "") }, 400, "invalid_header", "Request-Id"},
		{"text/plain", func() restReply { return restPost(t, url, `{}`, "Content-Type", "text/plain") }, 415, "unsupported_media_type", "Content-Type"},
		{"2 MiB body", func() restReply {
			return restPost(t, url, `{"query":"`+strings.Repeat("a", 2<<20)+`"}`)
		}, 413, "body_too_large", ""},
		{"unevaluable serves", func() restReply {
			return restPost(t, url, `{"serves":{"address":{"address_region":"NY"}}}`)
		}, 400, "invalid_params", "/serves"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := restRefused(t, c.do(), c.status, c.code)
			switch {
			case strings.HasPrefix(c.at, "/"):
				if !slices.ContainsFunc(ref.Violations, func(v struct {
					Pointer string `json:"pointer"`
				}) bool {
					return v.Pointer == c.at || strings.HasPrefix(v.Pointer, c.at+"/")
				}) {
					t.Errorf("violations %+v name no %s", ref.Violations, c.at)
				}
			case c.at != "" && ref.Header != c.at:
				t.Errorf("header %q, want %q", ref.Header, c.at)
			}
		})
	}

	t.Run("GET is 405 with Allow", func(t *testing.T) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
			t.Fatalf("status %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
		}
	})

	t.Run("burst gets 429 with Retry-After", func(t *testing.T) {
		l := defaultLimits(t)
		l.rate, l.rateBurst = 1, 3
		burst := startVersions(t, config{limits: l}) + restBase + "/locations/search"
		var last restReply
		for i := 0; i < 5; i++ {
			if last = restPost(t, burst, `{}`); last.status == 429 {
				break
			}
		}
		restRefused(t, last, 429, "rate_limited")
		if last.header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})
}

// TestRESTMatchesMCP sends the searches of the end-to-end suite and
// lookups over both transports, walking every page: each REST body equals
// MCP's structuredContent byte for byte, and each page's cursor is sent on
// by the other transport. It runs in memory and on PostGIS. In -short mode
// (the race pass) each walk stops after shortWalkPages pages, so every
// search and cursor hand-over is still compared; the plain pass walks all.
func TestRESTMatchesMCP(t *testing.T) {
	t.Parallel() // its own schema; waits on the database more than on the CPU
	check := releaseSchemas(t)
	// Whole walks are many calls from one Platform: no rate limit here.
	l := defaultLimits(t)
	l.rate, l.itemsRate = 0, 0
	t.Run("memory", func(t *testing.T) { restMatchesMCP(t, check, config{limits: l}) })
	t.Run("postgis", func(t *testing.T) {
		dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
		restMatchesMCP(t, check, config{limits: l, postgres: dsn, data: pgDataFile(t)})
	})
}

// shortWalkPages is how many pages of each search TestRESTMatchesMCP
// compares in -short mode.
const shortWalkPages = 8

func restMatchesMCP(t *testing.T, check releaseCheck, c config) {
	base := startVersions(t, c)
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	var item, public []string
	for _, r := range recs {
		if !r.Private {
			public = append(public, r.ID)
			if item == nil && len(r.Items) > 0 {
				item = r.Items[:1]
			}
		}
	}
	distance := `"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":15000}`
	searches := []string{
		`{}`,
		`{"query":"coffee"}`,
		`{` + distance + `}`,
		`{"serves":{"point":{"latitude":40.7128,"longitude":-74.006}}}`,
		`{"serves":{"address":{"address_country":"us","address_region":"ny"}}}`,
		`{"filters":{"hours":{"open_at":"2026-12-02T15:00:00Z"}}}`,
		`{"filters":{"amenities":["dev.ucp.amenity.wi_fi"]}}`,
		`{"filters":{"items":["` + item[0] + `"]}}`,
		`{` + distance + `,"serves":{"address":{"address_country":"us","address_region":"ny"}},"filters":{"hours":{"open_at":"2026-12-02T15:00:00Z"},"amenities":["dev.ucp.amenity.wi_fi"]}}`,
		`{"query":"market",` + distance + `,"pagination":{"limit":3}}`,
	}
	// Under the race detector each page (two calls, a schema check) costs
	// ten times as much; a cursor's round trip shows in three.
	walkPages := testshared.RaceCases([]int{shortWalkPages}, []int{3})[0]
	pages, locations := 0, 0
	for _, req := range searches {
		t.Run(req, func(t *testing.T) {
			var q map[string]any
			if err := json.Unmarshal([]byte(req), &q); err != nil {
				t.Fatal(err)
			}
			for i := 0; ; i++ {
				body, err := json.Marshal(q)
				if err != nil {
					t.Fatal(err)
				}
				got := restOK(t, check, "search_locations", restPost(t, base+restBase+"/locations/search", string(body)))
				want := mcpStructured(t, base, "search_locations", string(body))
				if !bytes.Equal(got, want) {
					t.Fatalf("page %d: REST body differs from MCP\nREST %s\nMCP  %s", i, got, want)
				}
				pages++
				var p e2eSearchPage
				json.Unmarshal(got, &p)
				locations += len(p.Locations)
				if p.Pagination == nil || !p.Pagination.HasNextPage {
					return
				}
				if testing.Short() && i == walkPages-1 {
					return
				}
				// The cursor of this page goes on in the next request to
				// both transports, so each carries on the other's walk.
				pg, _ := q["pagination"].(map[string]any)
				if pg == nil {
					pg = map[string]any{}
				}
				pg["cursor"] = *p.Pagination.Cursor
				q["pagination"] = pg
				if i > 1000 {
					t.Fatal("the walk does not end")
				}
			}
		})
	}
	lookups := []string{
		`{"ids":["` + public[0] + `"]}`,
		`{"ids":["` + strings.Join(public[:min(12, len(public))], `","`) + `"]}`,
		`{"ids":["` + public[1] + `","no-such-store"],` + distance + `}`,
		`{"ids":["no-such-store"]}`,
	}
	for _, req := range lookups {
		got := restOK(t, check, "lookup_locations", restPost(t, base+restBase+"/locations/lookup", req))
		if want := mcpStructured(t, base, "lookup_locations", req); !bytes.Equal(got, want) {
			t.Errorf("lookup %s: REST %s\nMCP  %s", req, got, want)
		}
	}
	if pages < len(searches) || locations == 0 {
		t.Fatalf("%d pages, %d Locations: the comparison proves nothing", pages, locations)
	}
	t.Logf("%d searches over %d pages (%d Locations) and %d lookups, byte-identical over both transports", len(searches), pages, locations, len(lookups))
}
