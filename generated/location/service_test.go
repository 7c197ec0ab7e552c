package location_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// sliceSource is a Source over a few Locations sorted by id, with aliases
// and an address service area per Location.
type sliceSource struct {
	locs     []location.Location
	aliases  map[string]string // alias -> id
	country  map[string]string // id -> served country
	resolves int
}

func (s *sliceSource) Capabilities() location.SourceCapabilities {
	return location.SourceCapabilities{Serves: []string{"address"}, Countries: []string{"DE", "US"}}
}

func (s *sliceSource) Candidates(_ context.Context, h location.Hints) ([]location.Candidate, error) {
	var out []location.Candidate
	for i := range s.locs {
		if h.After != nil && s.locs[i].ID <= h.After.ID {
			continue
		}
		if len(out) == h.Limit {
			break
		}
		out = append(out, location.Candidate{Location: &s.locs[i]})
	}
	return out, nil
}

func (s *sliceSource) Resolve(_ context.Context, keys []string) (map[string][]location.Candidate, error) {
	s.resolves++
	out := map[string][]location.Candidate{}
	for _, k := range keys {
		id := k
		if a, ok := s.aliases[k]; ok {
			id = a
		}
		for i := range s.locs {
			if s.locs[i].ID == id {
				out[k] = append(out[k], location.Candidate{Location: &s.locs[i]})
			}
		}
	}
	return out, nil
}

func (s *sliceSource) Serves(_ context.Context, t location.ServesTarget, cands []location.Candidate) ([]bool, error) {
	out := make([]bool, len(cands))
	for i, c := range cands {
		out[i] = s.country[c.Location.ID] == t.Address.Country
	}
	return out, nil
}

func (s *sliceSource) Items(_ context.Context, _ []string, cands []location.Candidate) ([]bool, error) {
	return make([]bool, len(cands)), nil // no stock tracked
}

func newSliceSource(t *testing.T) *sliceSource {
	t.Helper()
	var locs []location.Location
	for _, doc := range []string{
		`{"id":"a","name":"Alpha","org.example.floor":3}`,
		`{"id":"b","name":"Bravo"}`,
		`{"id":"c","name":"Charlie"}`,
		`{"id":"d","name":"Delta"}`,
		`{"id":"e","name":"Echo"}`,
	} {
		l, err := location.DecodeLocation([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		locs = append(locs, *l)
	}
	return &sliceSource{locs: locs, aliases: map[string]string{"alias-c": "c"}, country: map[string]string{"a": "US", "c": "US", "d": "DE"}}
}

func TestNewServiceSearchPagesAndPrefixesErrors(t *testing.T) {
	src := newSliceSource(t)
	hooks, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got []string
	body := `{"pagination":{"limit":2}}`
	for range 10 {
		req, err := location.DecodeSearchRequest([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hooks.SearchLocations(ctx, nil, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range resp.Locations {
			got = append(got, l.ID)
		}
		p := resp.Pagination.V
		if !p.HasNextPage {
			break
		}
		body = `{"pagination":{"limit":2,"cursor":"` + p.Cursor.V + `"}}`
	}
	if !slices.Equal(got, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("walked %v", got)
	}

	req, _ := location.DecodeSearchRequest([]byte(`{"serves":{"address":{"address_country":"usa"}}}`))
	resp, err := hooks.SearchLocations(ctx, nil, req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(resp.Locations)
	if !strings.Contains(string(out), `"org.example.floor":3`) || len(resp.Locations) != 2 {
		t.Errorf("serves USA returned %s", out)
	}

	for body, ptr := range map[string]string{
		`{"serves":{"address":{"address_country":"FR"}}}`:          "/location/serves/address",
		`{"serves":{"point":{"latitude":1,"longitude":2}}}`:        "/location/serves/point",
		`{"pagination":{"cursor":"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}`: "/location/pagination/cursor",
	} {
		req, err := location.DecodeSearchRequest([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		_, err = hooks.SearchLocations(ctx, nil, req)
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok || ip.Violations[0].Pointer != ptr {
			t.Errorf("%s: error %v, want invalid params at %s", body, err, ptr)
		}
	}
}

func TestNewServiceLookup(t *testing.T) {
	src := newSliceSource(t)
	hooks, err := location.NewService(src, location.ServiceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := location.DecodeLookupRequest([]byte(`{"ids":["a","zz","a","d","alias-c"],"serves":{"address":{"address_country":"United States"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hooks.LookupLocations(context.Background(), nil, req)
	if err != nil {
		t.Fatal(err)
	}
	if src.resolves != 1 {
		t.Errorf("%d Resolve calls, want 1", src.resolves)
	}
	out, _ := json.Marshal(resp)
	for _, want := range []string{`"id":"a"`, `"inputs":[{"id":"a"}]`, `"org.example.floor":3`, `"code":"not_found"`, `"inputs":[{"id":"alias-c"}]`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("response %s lacks %s", out, want)
		}
	}
	if strings.Contains(string(out), `"id":"d"`) {
		t.Errorf("d serves DE, not US, but was returned: %s", out)
	}
	if _, err := location.DecodeLookupResponse(out); err != nil {
		t.Errorf("response does not validate: %v", err)
	}
}

// The digest covers every constraint member, and only those.
func TestSearchConstraintDigest(t *testing.T) {
	digest := func(body string) [32]byte {
		req, err := location.DecodeSearchRequest([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		d, err := req.ConstraintDigest()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(`{"query":"coffee"}`)
	for _, same := range []string{
		`{"query":"coffee","pagination":{"limit":3}}`,
		`{"query":"coffee","context":{"address_country":"US"}}`,
		`{"query":"coffee","signals":{"dev.ucp.buyer_ip":"127.0.0.1"}}`,
	} {
		if digest(same) != base {
			t.Errorf("%s changed the digest", same)
		}
	}
	for _, other := range []string{
		`{}`,
		`{"query":""}`,
		`{"query":"tea"}`,
		`{"query":"coffee","filters":{}}`,
		`{"query":"coffee","filters":{"org.example.vegan":true}}`,
		`{"query":"coffee","org.example.new_member":1}`,
		`{"query":"coffee","distance":{"center":{"latitude":1,"longitude":2},"max":3}}`,
	} {
		if digest(other) == base {
			t.Errorf("%s left the digest unchanged", other)
		}
	}
}

// marshalDigest is ConstraintDigest as it was computed before the
// generated encoders wrote it: each constraint member's name and its
// json.Marshal bytes, unknown members in name order.
func marshalDigest(t *testing.T, req *location.SearchRequest) [32]byte {
	t.Helper()
	var parts [][]byte
	add := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %s: %v", name, err)
		}
		parts = append(parts, []byte(name), b)
	}
	if req.Query.Set {
		add("query", req.Query.V)
	}
	if req.Distance.Set {
		add("distance", req.Distance.V)
	}
	if req.Serves.Set {
		add("serves", req.Serves.V)
	}
	if req.Filters.Set {
		add("filters", req.Filters.V)
	}
	for _, k := range slices.Sorted(maps.Keys(req.Unknown)) {
		add(k, req.Unknown[k])
	}
	return pagination.ConstraintDigest(parts...)
}

// The digest is the same hash of the same bytes as when json.Marshal wrote
// them, so cursors keep their binding: escapes, numbers in every format,
// unknown members (spaced, HTML characters) at every level.
func TestConstraintDigestMatchesMarshal(t *testing.T) {
	for _, body := range []string{
		`{}`,
		`{"query":""}`,
		`{"query":"coffee"}`,
		`{"query":"caf\u00e9 \"quoted\" back\\slash <b>&amp; \u2028 \u2029 tab\t \ud83d\ude00"}`,
		`{"distance":{"center":{"latitude":40.7831,"longitude":-73.9712},"max":5000}}`,
		`{"distance":{"center":{"latitude":-0.0,"longitude":1e-7},"max":1e21}}`,
		`{"distance":{"center":{"latitude":0.1,"longitude":179.99999999999997},"max":0.5,"org.example.unit":"m"}}`,
		`{"serves":{"point":{"latitude":51.5074,"longitude":-0.1278}}}`,
		`{"serves":{"address":{"address_country":"US","postal_code":"10001"}}}`,
		`{"filters":{}}`,
		`{"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking","dev.ucp.amenity.wifi"]}}`,
		`{"filters":{"amenities":[],"items":["sku-1","<sku&2>"]}}`,
		`{"filters":{"org.example.vegan":true,"org.example.z":{ "b" : [ 1 , 2.50 , "<&>" ] , "a" : null }}}`,
		`{"query":"tea","org.example.new_member":1,"org.example.a":{ "x" : "\u003c" },"pagination":{"limit":3},"context":{"address_country":"US"}}`,
		`{"query":"x","distance":{"center":{"latitude":1,"longitude":2},"max":3},"serves":{"point":{"latitude":1,"longitude":2}},"filters":{"items":["a"]}}`,
	} {
		req, err := location.DecodeSearchRequest([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		got, err := req.ConstraintDigest()
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if want := marshalDigest(t, req); got != want {
			t.Errorf("%s: digest %x, want %x (json.Marshal's bytes)", body, got[:8], want[:8])
		}
	}
}

// OwnUCP, written by the generated encoder, is the json.Marshal of the
// hook's ucp member, which the runtime merges the negotiated one into.
func TestOwnUCPMatchesMarshal(t *testing.T) {
	for _, body := range []string{
		`{"ucp":{"version":"2026-08-25"},"locations":[]}`,
		`{"ucp":{"version":"2026-08-25","status":"error","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}},"locations":[]}`,
		`{"ucp":{"version":"2026-08-25","map_order":{"b":["x"],"a":[]},"org.example.note":{ "k" : "<&>" }},"locations":[]}`,
	} {
		var resp location.SearchResponse
		if err := json.Unmarshal([]byte(body), &resp); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		got, err := resp.OwnUCP()
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		want, err := json.Marshal(&resp.UCP)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: OwnUCP = %s, want %s", body, got, want)
		}
	}
	var zero location.SearchResponse
	got, err := zero.OwnUCP()
	want, _ := json.Marshal(&zero.UCP)
	if err != nil || string(got) != string(want) {
		t.Errorf("zero response: OwnUCP = %s, %v; want %s", got, err, want)
	}
}
