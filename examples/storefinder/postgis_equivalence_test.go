package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// pgCorpusSize is the number of requests in the equivalence corpus; walks
// make it about 1,300 tool calls.
const pgCorpusSize = 360

// pgEquivalenceSeed fixes the randomized corpus, so a failure reproduces.
const pgEquivalenceSeed = 20261130

// pgKeys writes a cursor key file with the given current id and keys
// (each key 32 bytes derived from its id) and returns its path.
func pgKeys(t *testing.T, current string, ids ...string) string {
	t.Helper()
	keys := map[string]string{}
	for _, id := range ids {
		keys[id] = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte(id+"#"), 32)[:32])
	}
	b, err := json.Marshal(map[string]any{"current": current, "keys": keys})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pgDataFile writes the embedded dataset to a file for --data.
func pgDataFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(p, sample.DefaultJSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pgClient builds a server from c and connects an in-process MCP client.
func pgClient(t *testing.T, c config) *mcp.ClientSession {
	t.Helper()
	var pools []*pgxpool.Pool
	c.pools = &pools
	server, _, err := newServer(c, nil)
	t.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	if err != nil {
		t.Fatalf("newServer(%+v): %v", c, err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pg-equivalence", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pgCall calls a tool and returns its structuredContent as JSON, or the
// error text when the call fails, so two servers can be compared byte for
// byte on both outcomes.
func pgCall(ctx context.Context, cs *mcp.ClientSession, tool, loc string) (string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(`{"meta":` + e2eMeta + `,"location":` + loc + `}`)})
	if err != nil {
		return "", err
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return "tool error: " + string(b), nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// pgRequest is one corpus entry: a search (walked to its end through
// cursors) or a lookup.
type pgRequest struct {
	tool string
	loc  map[string]any
}

// pgCorpus generates search and lookup requests over the dataset: distance
// circles (radii exactly at, just inside and just outside a store's Karney
// distance included), serves point and address targets, hours instants,
// amenities, items and page sizes that make walks span many pages.
func pgCorpus(t *testing.T, recs []dataset.Record, n int) []pgRequest {
	t.Helper()
	rng := rand.New(rand.NewPCG(pgEquivalenceSeed, 1))
	type store struct {
		rec dataset.Record
		geo *geodesic.Point
	}
	var stores []store
	var amenities, items []string
	seenA, seenI := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		l, err := location.DecodeLocation(r.Location)
		if err != nil {
			t.Fatal(err)
		}
		s := store{rec: r}
		if g, ok := l.Geo.Get(); ok {
			s.geo = &geodesic.Point{Lat: g.Latitude, Lon: g.Longitude}
		}
		stores = append(stores, s)
		if am, ok := l.Amenities.Get(); ok {
			for k := range am {
				if !seenA[string(k)] {
					seenA[string(k)] = true
					amenities = append(amenities, string(k))
				}
			}
		}
		for _, it := range r.Items {
			if !seenI[it] {
				seenI[it] = true
				items = append(items, it)
			}
		}
	}
	// Map iteration order must not leak into the corpus.
	sortStrings(amenities)
	sortStrings(items)
	withGeo := func() store {
		for {
			s := stores[rng.IntN(len(stores))]
			if s.geo != nil {
				return s
			}
		}
	}
	point := func() map[string]any {
		g := withGeo().geo
		return map[string]any{"latitude": round6(g.Lat + rng.Float64()*0.4 - 0.2), "longitude": round6(g.Lon + rng.Float64()*0.4 - 0.2)}
	}
	pick := func(list []string, k int) []string {
		out := []string{}
		for range k {
			v := list[rng.IntN(len(list))]
			if !containsString(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	countries := []string{"US", "GB", "JP", "de", "USA", "United Kingdom", "Australia", "NZ", "FR"}
	filters := func() map[string]any {
		f := map[string]any{}
		if rng.IntN(10) < 3 {
			at := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(45*24*60)) * time.Minute)
			f["hours"] = map[string]any{"open_at": at.Format(time.RFC3339)}
		}
		if rng.IntN(10) < 3 {
			f["amenities"] = pick(amenities, 1+rng.IntN(2))
		}
		if rng.IntN(10) < 2 {
			f["items"] = pick(items, 1+rng.IntN(2))
		}
		return f
	}
	serves := func() map[string]any {
		if rng.IntN(2) == 0 {
			return map[string]any{"point": point()}
		}
		a := map[string]any{}
		s := stores[rng.IntN(len(stores))]
		if sa := s.rec.ServiceArea; sa != nil {
			if len(sa.Regions) > 0 && rng.IntN(2) == 0 {
				a["address_region"] = sa.Regions[rng.IntN(len(sa.Regions))]
			}
			if len(sa.PostalCodes) > 0 && rng.IntN(2) == 0 {
				a["postal_code"] = sa.PostalCodes[rng.IntN(len(sa.PostalCodes))]
			}
			if len(sa.Countries) > 0 && rng.IntN(4) > 0 {
				a["address_country"] = sa.Countries[rng.IntN(len(sa.Countries))]
			}
		}
		if len(a) == 0 || rng.IntN(8) == 0 {
			a["address_country"] = countries[rng.IntN(len(countries))]
		}
		return map[string]any{"address": a}
	}
	var out []pgRequest
	for i := 0; i < n; i++ {
		if i%4 == 3 {
			ids := []any{}
			for range 1 + rng.IntN(50) {
				s := stores[rng.IntN(len(stores))]
				switch k := rng.IntN(10); {
				case k < 6:
					ids = append(ids, s.rec.ID)
				case k < 9 && len(s.rec.Aliases) > 0:
					ids = append(ids, s.rec.Aliases[rng.IntN(len(s.rec.Aliases))])
				default:
					ids = append(ids, fmt.Sprintf("unknown-%d", rng.IntN(5)))
				}
			}
			loc := map[string]any{"ids": ids}
			if rng.IntN(3) == 0 {
				loc["distance"] = map[string]any{"center": point(), "max": round6(math.Pow(10, 2+rng.Float64()*5))}
			}
			if rng.IntN(4) == 0 {
				loc["serves"] = serves()
			}
			if f := filters(); len(f) > 0 {
				loc["filters"] = f
			}
			out = append(out, pgRequest{tool: "lookup_locations", loc: loc})
			continue
		}
		loc := map[string]any{}
		if rng.IntN(20) < 19 {
			var center map[string]any
			var max float64
			switch k := rng.IntN(20); {
			case k < 7: // exactly at a nearby store's distance, or one ulp either side
				center = point()
				c := geodesic.Point{Lat: center["latitude"].(float64), Lon: center["longitude"].(float64)}
				var near []float64
				for _, s := range stores {
					if s.geo != nil {
						if d := geodesic.Distance(c, *s.geo); d < 60000 {
							near = append(near, d)
						}
					}
				}
				max = geodesic.Distance(c, *withGeo().geo)
				if len(near) > 0 {
					max = near[rng.IntN(len(near))]
				}
				switch rng.IntN(3) {
				case 1:
					max = math.Nextafter(max, 0)
				case 2:
					max = math.Nextafter(max, math.Inf(1))
				}
			case k < 9: // anywhere on Earth
				center = map[string]any{"latitude": round6(rng.Float64()*170 - 85), "longitude": round6(rng.Float64()*360 - 180)}
				max = round6(math.Pow(10, 3+rng.Float64()*2.5))
			case k < 10: // a continent or the whole Earth
				center = point()
				max = round6(math.Pow(10, 6+rng.Float64()*1.4))
			default:
				center = point()
				max = round6(math.Pow(10, 2+rng.Float64()*2.7))
			}
			loc["distance"] = map[string]any{"center": center, "max": max}
		}
		if rng.IntN(10) < 2 {
			loc["serves"] = serves()
		}
		if f := filters(); len(f) > 0 {
			loc["filters"] = f
		}
		if rng.IntN(10) < 4 {
			loc["query"] = pgTexts[rng.IntN(len(pgTexts))]
		}
		// Small pages where few Locations match, so walks cross many page
		// boundaries; large pages where thousands may, so a full walk of
		// every request stays affordable.
		limit := 1 + rng.IntN(20)
		if d, ok := loc["distance"].(map[string]any); !ok || d["max"].(float64) > 200000 {
			limit = 80 + rng.IntN(21)
		}
		loc["pagination"] = map[string]any{"limit": limit}
		out = append(out, pgRequest{tool: "search_locations", loc: loc})
	}
	return out
}

// pgTexts are the corpus's free-text queries: one word, several (in and
// out of name order, for the phrase bonus), prefixes that expand to many
// tokens, words only in addresses or amenity labels, CJK and full-width
// text, hyphenated compounds, and text that scores nothing.
var pgTexts = []string{
	"express", "electronics", "market", "Nightjar Express", "express nightjar", "harvest lane market",
	"elec", "exp", "str", "har", "market street", "Voltbay Yonkers", "lane lane", "home chicago",
	"parking", "駐車場", "修理カウンター", "Ｅｘｐｒｅｓｓ", "Gartenstraße", "gartenstrasse", "wi-fi", "wifi",
	"tokyo", "los angeles", "road 4", "zzzz-no-such-word", `"pickup" -wifi or`, "\"",
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func containsString(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// pgCompare runs the corpus against want and every server of got in turn
// (page k of a walk goes to got[k % len(got)]), requiring byte-identical
// results, and returns the number of tool calls made on the got side.
// pgStats says what a compared corpus exercised, so a test can require
// that it was not vacuous.
type pgStats struct {
	calls     int // tool calls made on each side
	located   int // calls whose result held at least one Location
	rejected  int // calls both sides rejected identically
	multiPage int // searches walked over more than one page
	// ranked and rankedMultiPage count the calls and multi-page walks of
	// searches with free text.
	ranked, rankedMultiPage int
}

func pgCompare(t *testing.T, corpus []pgRequest, want *mcp.ClientSession, got []*mcp.ClientSession) pgStats {
	t.Helper()
	ctx := context.Background()
	var st pgStats
	fails := 0
	for i, r := range corpus {
		loc := r.loc
		for page := 0; ; page++ {
			body, err := json.Marshal(loc)
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			w, werr := pgMemoCall(ctx, want, r.tool, string(body))
			t1 := time.Now()
			g, gerr := pgCall(ctx, got[page%len(got)], r.tool, string(body))
			pgSlow.want += t1.Sub(t0)
			pgSlow.got += time.Since(t1)
			st.calls++
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || w != g {
				fails++
				t.Errorf("request %d page %d: %s %s\n in memory: %s %v\n postgis:   %s %v", i, page, r.tool, body, clipDiff(w, g), werr, clipDiff(g, w), gerr)
				if fails > 5 {
					t.Fatal("too many differences")
				}
				break
			}
			if werr != nil || strings.HasPrefix(w, "tool error") {
				st.rejected++
				break
			}
			if strings.Contains(w, `"locations":[{`) {
				st.located++
			}
			_, text := loc["query"]
			if text {
				st.ranked++
			}
			if page == 1 {
				st.multiPage++
				if text {
					st.rankedMultiPage++
				}
			}
			if r.tool != "search_locations" {
				break
			}
			var res struct {
				Pagination struct {
					Cursor *string `json:"cursor"`
				} `json:"pagination"`
			}
			if err := json.Unmarshal([]byte(w), &res); err != nil || res.Pagination.Cursor == nil {
				break
			}
			next := map[string]any{}
			for k, v := range loc {
				next[k] = v
			}
			pg := map[string]any{"cursor": *res.Pagination.Cursor}
			if old, ok := loc["pagination"].(map[string]any); ok {
				pg["limit"] = old["limit"]
			}
			next["pagination"] = pg
			loc = next
		}
	}
	return st
}

// clipDiff shows s around the first byte where it differs from other.
var pgSlow struct{ want, got time.Duration }

// pgMemo remembers the in-memory server's answers: every test builds that
// server with the same dataset and key file, so its answer to a body is
// the same across tests, and the second corpus run costs only the PostGIS
// side.
var pgMemo sync.Map

type pgAnswer struct {
	res string
	err error
}

func pgMemoCall(ctx context.Context, cs *mcp.ClientSession, tool, body string) (string, error) {
	key := tool + "\x00" + body
	if a, ok := pgMemo.Load(key); ok {
		return a.(pgAnswer).res, a.(pgAnswer).err
	}
	res, err := pgCall(ctx, cs, tool, body)
	pgMemo.Store(key, pgAnswer{res, err})
	return res, err
}

func clipDiff(s, other string) string {
	i := 0
	for i < len(s) && i < len(other) && s[i] == other[i] {
		i++
	}
	lo, hi := max(0, i-200), min(len(s), i+200)
	return fmt.Sprintf("...%s... (len %d, first difference at %d)", s[lo:hi], len(s), i)
}

// TestPostGISEquivalence loads the embedded dataset into PostGIS through
// --postgres --data and requires the in-memory and PostGIS servers to
// return byte-identical structuredContent for a randomized corpus of
// searches (walked through every page) and lookups.
func TestPostGISEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: runs a 1,000-call corpus against PostGIS (not in -short mode)")
	}
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	keys := pgKeys(t, "k1", "k1")
	data := pgDataFile(t)
	mem := pgClient(t, config{cursorKeys: keys})
	pg := pgClient(t, config{cursorKeys: keys, postgres: dsn, data: data})
	// A replica that ranks every page through the posting lists, even where
	// the admitted set is small enough to score whole; walks alternate
	// between the two, so each continues the other's relevance cursors.
	lists := pgClient(t, config{cursorKeys: keys, postgres: dsn, postgresSmallSet: -1})
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	corpus := pgCorpus(t, recs, pgCorpusSize)
	start := time.Now()
	st := pgCompare(t, corpus, mem, []*mcp.ClientSession{pg, lists})
	t.Logf("compared in %s (in memory %s, postgis %s)", time.Since(start), pgSlow.want, pgSlow.got)
	t.Logf("%d requests, %d tool calls compared byte for byte: %d with Locations, %d rejected alike, %d walks over several pages",
		len(corpus), st.calls, st.located, st.rejected, st.multiPage)
	if st.calls < 1000 || st.located < st.calls/3 || st.multiPage < 50 || st.rejected == 0 || st.ranked < 300 || st.rankedMultiPage < 20 {
		t.Fatalf("corpus too thin: %+v; it must make at least 1,000 calls, a third of them with Locations, 50 multi-page walks (20 of them ranked), 300 ranked calls and some rejections", st)
	}
}

// TestPostGISPostgresFlagAlone serves what a previous --data load left in
// the database, and reloading the same file changes no row.
func TestPostGISPostgresFlagAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: runs a 1,000-call corpus against PostGIS (not in -short mode)")
	}
	dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	data := pgDataFile(t)
	keys := pgKeys(t, "k1", "k1")
	_ = pgClient(t, config{postgres: dsn, data: data})
	_ = pgClient(t, config{postgres: dsn, data: data}) // idempotent reload
	pg := pgClient(t, config{postgres: dsn, cursorKeys: keys})
	mem := pgClient(t, config{cursorKeys: keys})
	recs, err := sample.Default()
	if err != nil {
		t.Fatal(err)
	}
	pgCompare(t, pgCorpus(t, recs, 40), mem, []*mcp.ClientSession{pg})

	// Without a prior load the database has no schema: a clear start-up
	// error, not a failing first request.
	empty := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
	var pools []*pgxpool.Pool
	_, _, err = newServer(config{postgres: empty, pools: &pools}, nil)
	for _, p := range pools {
		p.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "--postgres") || !strings.Contains(err.Error(), "--data") {
		t.Fatalf("serving an empty database: err = %v, want a --postgres error that says to load with --data", err)
	}
}
