package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

const e2eMeta = `{"ucp-agent":{"profile":"https://platform.example/p.json"}}`

// e2eClient starts the example over real HTTP on 127.0.0.1 and connects the
// official Go SDK client to it.
func e2eClient(t *testing.T, c config) *mcp.ClientSession {
	t.Helper()
	server, _, err := newServer(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(mcpserver.Handler(server, nil))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-go", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// e2eContext is the hang guard of a whole end-to-end test: it ends a little
// before the test binary's -timeout would stop it, so a slow machine (the
// race detector on two busy cores) fails nothing that a hang would not,
// while a hung call still fails with its own error first.
func e2eContext(t *testing.T) context.Context {
	t.Helper()
	d, ok := t.Deadline()
	if !ok {
		return t.Context()
	}
	ctx, cancel := context.WithDeadline(t.Context(), d.Add(-e2eGrace))
	t.Cleanup(cancel)
	return ctx
}

// e2eGrace is how long before the binary's deadline e2eContext ends, time
// for the failing test to report and clean up.
const e2eGrace = 20 * time.Second

type e2eMessage struct {
	Type     string `json:"type"`
	Code     string `json:"code"`
	Content  string `json:"content"`
	Severity string `json:"severity"`
}

type e2eSearchPage struct {
	Locations []struct {
		ID string `json:"id"`
	} `json:"locations"`
	Pagination *struct {
		Cursor      *string `json:"cursor"`
		HasNextPage bool    `json:"has_next_page"`
		TotalCount  *int    `json:"total_count"`
	} `json:"pagination"`
	Messages []e2eMessage `json:"messages"`
}

type e2eLookup struct {
	Locations []struct {
		ID     string `json:"id"`
		Inputs []struct {
			ID string `json:"id"`
		} `json:"inputs"`
	} `json:"locations"`
	Messages []e2eMessage `json:"messages"`
}

// e2eCall calls a tool with the given location object and decodes the
// structured result into out.
func e2eCall(ctx context.Context, cs *mcp.ClientSession, tool, loc string, out any) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(`{"meta":` + e2eMeta + `,"location":` + loc + `}`)})
	if err != nil {
		return err
	}
	if res.IsError {
		b, _ := json.Marshal(res)
		return fmt.Errorf("tool error result: %s", b)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("decode %s: %w", b, err)
	}
	return nil
}

// e2eWalk follows cursors over HTTP to the end; it returns every id in
// response order and fails on a repeated id or a cursor/has_next_page mismatch.
func e2eWalk(t *testing.T, ctx context.Context, cs *mcp.ClientSession, loc string) []string {
	t.Helper()
	var base map[string]json.RawMessage
	if err := json.Unmarshal([]byte(loc), &base); err != nil {
		t.Fatalf("bad request %s: %v", loc, err)
	}
	var ids []string
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page > 500 {
			t.Fatalf("%s: pagination does not terminate", loc)
		}
		pg := map[string]any{"limit": 25}
		if cursor != "" {
			pg["cursor"] = cursor
		}
		pb, _ := json.Marshal(pg)
		base["pagination"] = pb
		req, _ := json.Marshal(base)
		var out e2eSearchPage
		if err := e2eCall(ctx, cs, "search_locations", string(req), &out); err != nil {
			t.Fatalf("search %s page %d: %v", req, page, err)
		}
		if len(out.Locations) > 25 {
			t.Fatalf("page %d has %d locations, limit 25", page, len(out.Locations))
		}
		for _, l := range out.Locations {
			if seen[l.ID] {
				t.Fatalf("%s: id %s returned twice (page %d)", loc, l.ID, page)
			}
			seen[l.ID] = true
			ids = append(ids, l.ID)
		}
		if out.Pagination == nil {
			t.Fatalf("%s page %d: no pagination object", loc, page)
		}
		p := out.Pagination
		hasCursor := p.Cursor != nil && *p.Cursor != ""
		if hasCursor != p.HasNextPage {
			t.Fatalf("%s page %d: cursor present=%v but has_next_page=%v", loc, page, hasCursor, p.HasNextPage)
		}
		if !p.HasNextPage {
			if p.TotalCount != nil && *p.TotalCount != len(ids) {
				t.Errorf("%s: total_count %d, walked %d", loc, *p.TotalCount, len(ids))
			}
			return ids
		}
		cursor = *p.Cursor
	}
}

// e2eRule is an independent brute-force statement of the dataset rules.
type e2eRule struct {
	center  *geodesic.Point
	max     float64
	point   *geodesic.Point
	address *struct{ country, region, postal string }
	openAt  *time.Time
	amen    []string
	items   []string
}

func e2eGeo(t *testing.T, r dataset.Record) (location.Location, *geodesic.Point) {
	t.Helper()
	var l location.Location
	if err := json.Unmarshal(r.Location, &l); err != nil {
		t.Fatal(err)
	}
	c := l.PredicateCandidate()
	if c.Geo == nil {
		return l, nil
	}
	return l, &geodesic.Point{Lat: c.Geo.Lat, Lon: c.Geo.Lon}
}

func e2eContainsFold(list []string, v string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, v) })
}

func (b e2eRule) match(t *testing.T, r dataset.Record) bool {
	if r.Private {
		return false
	}
	l, g := e2eGeo(t, r)
	c := l.PredicateCandidate()
	if b.center != nil && (g == nil || !geodesic.Within(*b.center, *g, b.max)) {
		return false
	}
	sa := r.ServiceArea
	if b.point != nil && (sa == nil || sa.RadiusM == nil || g == nil || !geodesic.Within(*g, *b.point, *sa.RadiusM)) {
		return false
	}
	if a := b.address; a != nil {
		if sa == nil {
			return false
		}
		if a.country != "" && !e2eContainsFold(sa.Countries, a.country) {
			return false
		}
		if a.region != "" && !e2eContainsFold(sa.Regions, a.region) {
			return false
		}
		if a.postal != "" && !slices.Contains(sa.PostalCodes, a.postal) {
			return false
		}
	}
	for _, a := range b.amen {
		if !slices.Contains(c.Amenities, a) {
			return false
		}
	}
	for _, it := range b.items {
		if !slices.Contains(r.Items, it) {
			return false
		}
	}
	if b.openAt != nil && !c.Schedule.OpenAt(*b.openAt) {
		return false
	}
	return true
}

// e2eInvalidParams asserts err is a JSON-RPC -32602 whose data names pointer.
func e2eInvalidParams(t *testing.T, err error, pointer string) {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("err = %v (%T), want *jsonrpc.Error", err, err)
	}
	if je.Code != -32602 {
		t.Errorf("code %d, want -32602 (%v)", je.Code, je)
	}
	if !strings.Contains(string(je.Data), `"pointer":"`+pointer) {
		t.Errorf("error data %s does not name pointer %s", je.Data, pointer)
	}
}

func TestEndToEndOverHTTP(t *testing.T) {
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	ctx := e2eContext(t)
	cs := e2eClient(t, config{})

	t.Run("search vs brute force", func(t *testing.T) {
		nyc := geodesic.Point{Lat: 40.7128, Lon: -74.006}
		const openAtStr = "2026-12-02T15:00:00Z"
		at, err := hours.ParseInstant(openAtStr)
		if err != nil {
			t.Fatal(err)
		}
		const wifi = "dev.ucp.amenity.wi_fi"
		var item string
		for _, r := range recs {
			if !r.Private && len(r.Items) > 0 {
				item = r.Items[0]
				break
			}
		}
		if item == "" {
			t.Fatal("no public record with items")
		}
		usNY := &struct{ country, region, postal string }{"us", "ny", ""}
		usPostal := &struct{ country, region, postal string }{"US", "", ""}
		for _, r := range recs {
			if !r.Private && r.ServiceArea != nil && len(r.ServiceArea.PostalCodes) > 0 && e2eContainsFold(r.ServiceArea.Countries, "US") {
				usPostal.postal = r.ServiceArea.PostalCodes[0]
				break
			}
		}
		distance := `"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":15000}`
		cases := []struct {
			name string
			req  string
			rule e2eRule
		}{
			// serves is one-of (point or address), so "all together" uses address.
			{"distance", `{` + distance + `}`, e2eRule{center: &nyc, max: 15000}},
			{"serves point", `{"serves":{"point":{"latitude":40.7128,"longitude":-74.006}}}`, e2eRule{point: &nyc}},
			{"serves address country+region (case-insensitive)", `{"serves":{"address":{"address_country":"us","address_region":"ny"}}}`, e2eRule{address: usNY}},
			{"hours open_at", `{"filters":{"hours":{"open_at":"` + openAtStr + `"}}}`, e2eRule{openAt: &at}},
			{"amenities", `{"filters":{"amenities":["` + wifi + `"]}}`, e2eRule{amen: []string{wifi}}},
			{"items", `{"filters":{"items":["` + item + `"]}}`, e2eRule{items: []string{item}}},
			{"all together", `{` + distance + `,"serves":{"address":{"address_country":"us","address_region":"ny"}},"filters":{"hours":{"open_at":"` + openAtStr + `"},"amenities":["` + wifi + `"],"items":["` + item + `"]}}`,
				e2eRule{center: &nyc, max: 15000, address: usNY, openAt: &at, amen: []string{wifi}, items: []string{item}}},
			{"all together (serves point)", `{` + distance + `,"serves":{"point":{"latitude":40.7128,"longitude":-74.006}},"filters":{"hours":{"open_at":"` + openAtStr + `"},"amenities":["` + wifi + `"]}}`,
				e2eRule{center: &nyc, max: 15000, point: &nyc, openAt: &at, amen: []string{wifi}}},
		}
		if usPostal.postal != "" {
			cases = append(cases, struct {
				name string
				req  string
				rule e2eRule
			}{"serves address postal code", `{"serves":{"address":{"address_country":"US","postal_code":"` + usPostal.postal + `"}}}`, e2eRule{address: usPostal}})
		}
		if testshared.Race {
			// Every page walk is the same concurrent path through the
			// server; the race pass walks two selections, the plain pass
			// every one.
			kept := cases[:0]
			for _, c := range cases {
				if c.name == "distance" || c.name == "all together" {
					kept = append(kept, c)
				}
			}
			cases = kept
		}
		total := 0
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				var want []string
				for _, r := range recs {
					if tc.rule.match(t, r) {
						want = append(want, r.ID)
					}
				}
				got := e2eWalk(t, ctx, cs, tc.req)
				total += len(got)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					var extra, missing []string
					for _, id := range got {
						if _, ok := slices.BinarySearch(want, id); !ok {
							extra = append(extra, id)
						}
					}
					for _, id := range want {
						if _, ok := slices.BinarySearch(got, id); !ok {
							missing = append(missing, id)
						}
					}
					t.Errorf("server returned %d ids, brute force %d; extra %v; missing %v", len(got), len(want), extra, missing)
				}
				if len(want) == 0 {
					t.Errorf("case selects no records; it checks nothing")
				}
				t.Logf("%d ids compared", len(want))
			})
		}
		t.Logf("%d cases, %d ids returned in total", len(cases), total)
	})

	t.Run("lookup with aliases", func(t *testing.T) {
		var a dataset.Record
		for _, r := range recs {
			if !r.Private && len(r.Aliases) > 0 {
				a = r
				break
			}
		}
		if a.ID == "" {
			t.Fatal("no public record with an alias")
		}
		ids, _ := json.Marshal([]string{a.ID, a.Aliases[0], "loc_does_not_exist", a.ID})
		var out e2eLookup
		if err := e2eCall(ctx, cs, "lookup_locations", `{"ids":`+string(ids)+`}`, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Locations) != 1 || out.Locations[0].ID != a.ID {
			t.Fatalf("locations %+v, want only %s", out.Locations, a.ID)
		}
		var inputs []string
		for _, in := range out.Locations[0].Inputs {
			inputs = append(inputs, in.ID)
		}
		if !slices.Equal(inputs, []string{a.ID, a.Aliases[0]}) {
			t.Errorf("inputs %v, want [%s %s]", inputs, a.ID, a.Aliases[0])
		}
		if len(out.Messages) != 1 || out.Messages[0].Type != "info" || out.Messages[0].Code != "not_found" || !strings.Contains(out.Messages[0].Content, "loc_does_not_exist") {
			t.Errorf("messages %+v, want one not_found info for loc_does_not_exist", out.Messages)
		}
	})

	t.Run("batch limit", func(t *testing.T) {
		cs10 := e2eClient(t, config{batchMax: 10})
		var ids []string
		for _, r := range recs {
			if !r.Private {
				ids = append(ids, r.ID)
			}
			if len(ids) == 12 {
				break
			}
		}
		b, _ := json.Marshal(ids)
		var out e2eLookup
		if err := e2eCall(ctx, cs10, "lookup_locations", `{"ids":`+string(b)+`}`, &out); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range out.Messages {
			if m.Code == "batch_limit_applied" && m.Type == "info" {
				found = true
			}
		}
		if !found {
			t.Errorf("messages %+v, want batch_limit_applied info", out.Messages)
		}
		// All 12 ids are public and distinct, so exactly the first 10 resolve.
		if len(out.Locations) != 10 {
			t.Errorf("%d locations, want 10", len(out.Locations))
		}
		for _, l := range out.Locations {
			if !slices.Contains(ids[:10], l.ID) {
				t.Errorf("resolved %s, which is beyond the first 10 ids", l.ID)
			}
		}
	})

	t.Run("private stores never appear", func(t *testing.T) {
		hidden := map[string]bool{}
		var priv []dataset.Record
		for _, r := range recs {
			if r.Private {
				priv = append(priv, r)
				hidden[r.ID] = true
				for _, a := range r.Aliases {
					hidden[a] = true
				}
			}
		}
		if len(priv) == 0 {
			t.Fatal("dataset has no private records")
		}
		check := func(what string, ids []string) {
			for _, id := range ids {
				if hidden[id] {
					t.Errorf("%s returned private %s", what, id)
				}
			}
		}
		browse := e2eWalk(t, ctx, cs, `{}`)
		public := len(recs) - len(priv)
		if len(browse) != public {
			t.Errorf("browse walked %d locations, want the %d public records", len(browse), public)
		}
		check("browse", browse)
		// Each private store's neighbourhood is the same path through the
		// server: the race pass walks five of them, the plain pass all.
		for _, p := range testshared.RaceCases(priv, priv[:min(5, len(priv))]) {
			_, g := e2eGeo(t, p)
			if g == nil {
				continue
			}
			req := fmt.Sprintf(`{"distance":{"center":{"latitude":%v,"longitude":%v},"max":1000}}`, g.Lat, g.Lon)
			check(req, e2eWalk(t, ctx, cs, req))
		}
		var keys []string
		for k := range hidden {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for chunk := range slices.Chunk(keys, 10) {
			b, _ := json.Marshal(chunk)
			var out e2eLookup
			if err := e2eCall(ctx, cs, "lookup_locations", `{"ids":`+string(b)+`}`, &out); err != nil {
				t.Fatal(err)
			}
			if len(out.Locations) != 0 {
				t.Errorf("lookup %v returned %+v", chunk, out.Locations)
			}
		}
		t.Logf("%d private records, %d private ids/aliases checked", len(priv), len(keys))
	})

	t.Run("bad inputs", func(t *testing.T) {
		cases := []struct{ name, req, pointer string }{
			{"negative distance", `{"distance":{"center":{"latitude":40.7,"longitude":-74},"max":-1}}`, "/location/distance/max"},
			{"unknown filter", `{"filters":{"com.example.vegan":true}}`, "/location/filters/com.example.vegan"},
			{"forged cursor", `{"pagination":{"cursor":"AAAA"}}`, "/location/pagination/cursor"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				var out e2eSearchPage
				err := e2eCall(ctx, cs, "search_locations", tc.req, &out)
				if err == nil {
					t.Fatalf("accepted: %+v", out)
				}
				e2eInvalidParams(t, err, tc.pointer)
			})
		}
	})
}
