package negotiation

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// benchSource serves the test profile with the given Cache-Control and an
// ETag, answering conditional requests with 304.
func benchSource(b *testing.B, cacheControl string) (*HTTPSource, string) {
	b.Helper()
	body := readTestdata(b, "platform_profile.json")
	ps := newProfileServer(b, nil)
	ps.handler = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", cacheControl)
		w.Header().Set("ETag", `"bench"`)
		if r.Header.Get("If-None-Match") == `"bench"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(body)
	}
	s, err := NewHTTPSource(HTTPOptions{AllowPrivateNetworks: true, TLSConfig: ps.trust()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.CloseIdleConnections)
	return s, ps.URL + "/profile"
}

func benchProfile(b *testing.B, cacheControl string) {
	s, url := benchSource(b, cacheControl)
	ctx := context.Background()
	if _, err := s.Profile(ctx, url); err != nil { // warm the connection and cache
		b.Fatal(errString(err))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Profile(ctx, url); err != nil {
			b.Fatal(errString(err))
		}
	}
}

// BenchmarkProfile compares the three ways HTTPSource.Profile can answer,
// against the baseline of downloading, parsing and schema-validating the
// profile over loopback TLS on every call (no-store).
func BenchmarkProfile(b *testing.B) {
	b.Run("baseline=fetch", func(b *testing.B) { benchProfile(b, "no-store") })
	b.Run("revalidate-304", func(b *testing.B) { benchProfile(b, "no-cache") })
	b.Run("cache-hit", func(b *testing.B) { benchProfile(b, "max-age=600") })
}

// BenchmarkParseProfile measures decoding plus platform schema validation
// against the baseline of a plain encoding/json decode of the same bytes.
func BenchmarkParseProfile(b *testing.B) {
	raw := readTestdata(b, "platform_profile.json")
	b.Run("baseline=json-decode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var w wireProfile
			if err := json.Unmarshal(raw, &w); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse-and-validate", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := ParseProfile(raw); err != nil {
				b.Fatal(errString(err))
			}
		}
	})
}

// BenchmarkIntersect measures the intersection of a 40-capability Business
// registry with a 30-capability Platform registry (three-level extension
// chains, several versions), against the baseline of step 1 alone: finding
// the names both sides list.
func BenchmarkIntersect(b *testing.B) {
	business, platform := caps{}, caps{}
	for i := 0; i < 10; i++ {
		root := fmt.Sprintf("com.example.cap%d", i)
		ext := root + ".ext"
		extExt := ext + ".ext"
		other := fmt.Sprintf("com.example.other%d", i)
		business[root] = []CapabilityVersion{cv("2026-01-01"), cv("2026-04-08"), cv("2026-08-25")}
		platform[root] = []CapabilityVersion{cv("2026-04-08"), cv("2026-08-25")}
		business[ext] = []CapabilityVersion{cv("2026-08-25", root)}
		platform[ext] = []CapabilityVersion{cv("2026-08-25", root)}
		business[extExt] = []CapabilityVersion{cv("2026-08-25", ext)}
		platform[extExt] = []CapabilityVersion{cv("2026-08-25", ext)}
		business[other] = []CapabilityVersion{cv("2026-08-25")}
	}
	b.Run("baseline=common-names", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			common := make(map[string]bool, len(business))
			for name := range business {
				if _, ok := platform[name]; ok {
					common[name] = true
				}
			}
			if len(common) != 30 {
				b.Fatalf("common = %d, want 30", len(common))
			}
		}
	})
	b.Run("intersect", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if got := Intersect(business, platform); len(got) != 30 {
				b.Fatalf("active = %d, want 30", len(got))
			}
		}
	})
}
