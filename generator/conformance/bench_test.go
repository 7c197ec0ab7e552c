package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/schemas"
)

// fullSearchRequest uses every member of the search request.
const fullSearchRequest = `{
  "query": "grocery store open late",
  "context": {"address_country": "US", "address_region": "NY", "postal_code": "10005", "language": "en-US", "currency": "USD"},
  "signals": {"dev.ucp.buyer_ip": "203.0.113.7", "dev.ucp.user_agent": "Mozilla/5.0"},
  "distance": {"center": {"latitude": 40.707, "longitude": -74.011}, "max": 5000},
  "serves": {"address": {"address_country": "US", "postal_code": "10005"}},
  "filters": {
    "hours": {"open_at": "2026-08-25T18:30:00-04:00"},
    "amenities": ["dev.ucp.amenity.parking", "dev.ucp.amenity.shopping.curbside_pickup"],
    "items": ["sku-123", "sku-456"]
  },
  "pagination": {"cursor": "abc", "limit": 20}
}`

// lookupResponse20 is the upstream lookup response example's Location
// repeated 20 times with distinct ids: hours, exception hours and amenities.
func lookupResponse20(t testing.TB) []byte {
	var ex struct{ Payload map[string]any }
	b := mustRead(t, "lookup-07-common_location_lookup-lookup-response.json")
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatalf("decode example: %v", err)
	}
	locs := ex.Payload["locations"].([]any)
	first := locs[0].(map[string]any)
	var out []any
	for i := 0; i < 20; i++ {
		l := deepCopy(first).(map[string]any)
		id := fmt.Sprintf("loc_%02d", i)
		l["id"] = id
		l["inputs"] = []any{map[string]any{"id": id}}
		out = append(out, l)
	}
	ex.Payload["locations"] = out
	return mustJSON(t, ex.Payload)
}

func mustRead(t testing.TB, name string) []byte {
	b, err := readExample(t, name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

// googleResolved compiles the same direction-resolved tree with
// google/jsonschema-go.
func googleResolved(t testing.TB, tg target) *gjs.Resolved {
	l := fsLoader{fsys: schemas.FS, dir: tg.dir, op: tg.op}
	load := func(u *url.URL) (*gjs.Schema, error) {
		doc, err := l.Load(u.String())
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		var s gjs.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("google schema %s: %w", u, err)
		}
		return &s, nil
	}
	root := &gjs.Schema{Ref: strings.Replace(tg.url, "mem:///", "https://ucp.dev/", 1)}
	rs, err := root.Resolve(&gjs.ResolveOptions{BaseURI: "https://ucp.dev/root.json", Loader: load, ValidateDefaults: false})
	if err != nil {
		t.Skipf("google/jsonschema-go cannot resolve the tree: %v", err)
	}
	return rs
}

func benchPayloads(b *testing.B) []struct {
	name, target string
	data         []byte
} {
	return []struct {
		name, target string
		data         []byte
	}{
		{"SearchRequestFull", "common/location_search request", []byte(fullSearchRequest)},
		{"LookupResponse20", "common/location_lookup response", lookupResponse20(b)},
	}
}

// BenchmarkDecodeValidate compares, per payload and in one run, the
// generated decode+validate, santhosh-tekuri decode-to-any+validate and
// google/jsonschema-go decode-to-any+validate.
func BenchmarkDecodeValidate(b *testing.B) {
	for _, p := range benchPayloads(b) {
		tg := targets[p.target]
		ref := reference(b, tg)
		if err := tg.decode(p.data); err != nil {
			b.Fatalf("%s: ours rejects: %v", p.name, err)
		}
		if err := referenceVerdict(ref, p.data); err != nil {
			b.Fatalf("%s: reference rejects: %v", p.name, err)
		}
		b.Run(p.name+"/ucpgen", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(p.data)))
			for i := 0; i < b.N; i++ {
				if err := tg.decode(p.data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(p.name+"/santhosh", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(p.data)))
			for i := 0; i < b.N; i++ {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(p.data))
				if err != nil {
					b.Fatal(err)
				}
				if err := ref.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(p.name+"/google", func(b *testing.B) {
			rs := googleResolved(b, tg)
			b.ReportAllocs()
			b.SetBytes(int64(len(p.data)))
			for i := 0; i < b.N; i++ {
				var v any
				if err := json.Unmarshal(p.data, &v); err != nil {
					b.Fatal(err)
				}
				if err := rs.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
