package memory

import (
	"context"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
)

// benchSearches are the requests of the search benchmark: one first page
// (default limit) each on the default dataset.
var benchSearches = []struct{ name, req string }{
	{"browse", `{}`},
	{"distance", `{"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000}}`},
	{"query", `{"query":"electronics"}`},
	{"serves_amenity", `{"serves":{"address":{"address_country":"US"}},"filters":{"amenities":["dev.ucp.amenity.wi_fi"]}}`},
	// Worst case for keyset paging: ranked, and so selective that the
	// source is read to its end in growing batches.
	{"selective_query", `{"query":"market","filters":{"amenities":["com.example-nestwell.amenity.key_cutting"],"hours":{"open_at":"2026-09-07T07:30:00Z"}}}`},
	// Ranked with a filter only the engine evaluates (hours), so the whole
	// dataset is ranked before any match.
	{"query_hours", `{"query":"market","filters":{"hours":{"open_at":"2026-09-07T03:30:00Z"}}}`},
	{"all", `{"query":"market","distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":50000},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"}}}`},
}

// BenchmarkSearch compares the generated NewService path over Source with
// the earlier hand-wired path (baseline_test.go) on the same records, in
// the same run; docs/benchmarks.md records the ratios.
func BenchmarkSearch(b *testing.B) {
	recs, err := loadDefault()
	if err != nil {
		b.Fatal(err)
	}
	src, err := New(recs, Options{})
	if err != nil {
		b.Fatal(err)
	}
	svc, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		b.Fatal(err)
	}
	old, err := newBaseline(src)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, bs := range benchSearches {
		req, err := location.DecodeSearchRequest([]byte(bs.req))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bs.name+"/old", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := old.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bs.name+"/new", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				// Cold: every iteration is a first page of a query never
				// seen, so the text ranking is computed each time.
				src.rankings.clear()
				if _, err := svc.SearchLocations(ctx, nil, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
