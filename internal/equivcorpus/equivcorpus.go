// Package equivcorpus holds the randomized request corpus that proves two
// Location servers answer alike, and the comparison that walks it: the
// store finder's in-memory vs PostGIS tests and the install test's README
// programs use the same corpus, so both hold the same bar.
package equivcorpus

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// Caller makes one tool call with the location argument body and returns
// its structuredContent as JSON, or "tool error: " and the content for a
// tool error.
type Caller func(ctx context.Context, tool, body string) (string, error)

// Call is a Caller over an MCP session, sending meta as the call's meta.
func Call(ctx context.Context, cs *mcp.ClientSession, meta, tool, loc string) (string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(`{"meta":` + meta + `,"location":` + loc + `}`)})
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

// Request is one corpus entry: a search (walked to its end through
// cursors) or a lookup.
type Request struct {
	Tool string         // search_locations or lookup_locations
	Loc  map[string]any // the location argument
}

// Generate generates search and lookup requests over the dataset: distance
// circles (radii exactly at, just inside and just outside a store's Karney
// distance included), serves point and address targets, hours instants,
// amenities, items and page sizes that make walks span many pages.
func Generate(t testing.TB, recs []dataset.Record, n int, seed uint64) []Request {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
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
	var out []Request
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
			out = append(out, Request{Tool: "lookup_locations", Loc: loc})
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
			loc["query"] = texts[rng.IntN(len(texts))]
		}
		// Small pages where few Locations match, so walks cross many page
		// boundaries; large pages where thousands may, so a full walk of
		// every request stays affordable.
		limit := 1 + rng.IntN(20)
		if d, ok := loc["distance"].(map[string]any); !ok || d["max"].(float64) > 200000 {
			limit = 80 + rng.IntN(21)
		}
		loc["pagination"] = map[string]any{"limit": limit}
		out = append(out, Request{Tool: "search_locations", Loc: loc})
	}
	return out
}

// texts are the corpus's free-text queries: one word, several (in and
// out of name order, for the phrase bonus), prefixes that expand to many
// tokens, words only in addresses or amenity labels, CJK and full-width
// text, hyphenated compounds, and text that scores nothing.
var texts = []string{
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

// Stats says what a compared corpus exercised, so a test can require
// that it was not vacuous.
type Stats struct {
	Calls     int // tool calls made on each side
	Located   int // calls whose result held at least one Location
	Rejected  int // calls both sides rejected identically
	MultiPage int // searches walked over more than one page
	// ranked and rankedMultiPage count the calls and multi-page walks of
	// searches with free text.
	Ranked, RankedMultiPage int
	Cut                     int // walks stopped at the page cap with pages left
}

// Compare runs the corpus against want and every server of got in turn
// (page k of a walk goes to got[k % len(got)]), requiring byte-identical
// results, and returns what the walk exercised. Every walk goes to its
// last page.
func Compare(t testing.TB, corpus []Request, want Caller, got []Caller) Stats {
	t.Helper()
	return CompareUpTo(t, corpus, want, got, 0)
}

// CompareUpTo is Compare with each walk stopped after maxPages pages (0:
// no cap), for a test whose budget a walk of hundreds of pages would
// spend; the walks it cuts are counted in Stats.Cut.
func CompareUpTo(t testing.TB, corpus []Request, want Caller, got []Caller, maxPages int) Stats {
	t.Helper()
	ctx := context.Background()
	var st Stats
	fails := 0
	for i, r := range corpus {
		loc := r.Loc
		for page := 0; ; page++ {
			if maxPages > 0 && page == maxPages {
				st.Cut++
				break
			}
			body, err := json.Marshal(loc)
			if err != nil {
				t.Fatal(err)
			}
			w, werr := want(ctx, r.Tool, string(body))
			g, gerr := got[page%len(got)](ctx, r.Tool, string(body))
			st.Calls++
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || w != g {
				fails++
				t.Errorf("request %d page %d: %s %s\n in memory: %s %v\n postgis:   %s %v", i, page, r.Tool, body, clipDiff(w, g), werr, clipDiff(g, w), gerr)
				if fails > 5 {
					t.Fatal("too many differences")
				}
				break
			}
			if werr != nil || strings.HasPrefix(w, "tool error") {
				st.Rejected++
				break
			}
			if strings.Contains(w, `"locations":[{`) {
				st.Located++
			}
			_, text := loc["query"]
			if text {
				st.Ranked++
			}
			if page == 1 {
				st.MultiPage++
				if text {
					st.RankedMultiPage++
				}
			}
			if r.Tool != "search_locations" {
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
func clipDiff(s, other string) string {
	i := 0
	for i < len(s) && i < len(other) && s[i] == other[i] {
		i++
	}
	lo, hi := max(0, i-200), min(len(s), i+200)
	return fmt.Sprintf("...%s... (len %d, first difference at %d)", s[lo:hi], len(s), i)
}
