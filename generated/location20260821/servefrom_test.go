package location20260821_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	old "github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// newerHooks records the request ServeFrom hands to the newer version and
// answers with a fixed response or error.
type newerHooks struct {
	gotSearch *location.SearchRequest
	search    *location.SearchResponse
	err       error
}

func (h *newerHooks) SearchLocations(_ context.Context, _ *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	h.gotSearch = req
	return h.search, h.err
}

func (h *newerHooks) LookupLocations(context.Context, *location.Meta, *location.LookupRequest) (*location.LookupResponse, error) {
	return nil, errors.New("not used")
}

// testConversion implements the members the generator left to the Business,
// refusing an inventory entry whose id is "bad" to show where its error
// points.
type testConversion struct{}

func (testConversion) MetaIdempotencyKey(*old.Meta, *location.Meta) error { return nil }

func (testConversion) LocationFilterInventory(in *old.LocationFilter, out *location.LocationFilter) error {
	for i, f := range in.Inventory.V {
		if f.ID == "bad" {
			return rpcerr.Invalid("/inventory/"+strconv.Itoa(i)+"/id", "", "refused")
		}
		out.Items = opt.Some(append(out.Items.V, f.ID))
	}
	return nil
}

func (testConversion) LocationAmenities(in opt.Value[map[location.AmenityType]location.Amenity], out *opt.Value[[]old.AmenityType]) error {
	if in.Set {
		*out = opt.Some([]old.AmenityType{})
	}
	for k := range in.V {
		out.V = append(out.V, old.AmenityType(k))
	}
	slices.Sort(out.V)
	return nil
}

// TestServeFrom calls the older version's search through ServeFrom: members
// of unchanged shape reach the newer hook as they were sent, the changed
// ones go through the Conversion, and the answer is valid at 2026-08-21.
func TestServeFrom(t *testing.T) {
	meta, err := old.DecodeMeta([]byte(`{"ucp-agent":{"profile":"https://platform.example/profile"},"idempotency-key":"6f1c4f9e-0d7a-4b8e-9d8e-2b9a4d1c7e55"}`))
	if err != nil {
		t.Fatalf("decode meta: %v", err)
	}
	newer := &newerHooks{search: &location.SearchResponse{
		UCP: location.UCPLocationResponseSchema{Version: location.ProtocolVersion},
		Locations: []location.Location{{ID: "s1", Name: "One", Amenities: opt.Some(map[location.AmenityType]location.Amenity{
			"dev.ucp.amenity.wi_fi": {Description: "Wi-Fi"}, "dev.ucp.amenity.atm": {Description: "ATM"},
		})}},
	}}
	hooks := old.ServeFrom(newer, testConversion{}).(oldLocation)
	tests := []struct {
		name, request string
		wantPointer   string // "" for success
	}{
		{"inventory becomes items", `{"query":"coffee","distance":{"center":{"latitude":52.5,"longitude":13.4},"max":1500},"filters":{"amenities":["dev.ucp.amenity.wi_fi"],"inventory":[{"id":"sku-1"},{"id":"sku-2","availability_status":"in_stock"}],"x.example":true}}`, ""},
		{"items is not a member here", `{"filters":{"items":["sku-1"]}}`, "/location/filters/items"},
		{"conversion error points into the older request", `{"filters":{"inventory":[{"id":"ok"},{"id":"bad"}]}}`, "/location/filters/inventory/1/id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := old.DecodeSearchRequest([]byte(tc.request))
			if err != nil {
				t.Fatalf("decode request: %v", err)
			}
			resp, err := hooks.SearchLocations(context.Background(), meta, req)
			if tc.wantPointer != "" {
				ip, ok := rpcerr.AsInvalidParams(err)
				if !ok || len(ip.Violations) != 1 || ip.Violations[0].Pointer != tc.wantPointer {
					t.Fatalf("error = %v, want one -32602 violation at %s", err, tc.wantPointer)
				}
				return
			}
			if err != nil {
				t.Fatalf("search: %v", err)
			}
			got := newer.gotSearch
			f := got.Filters.V
			if q := got.Query.V; q != "coffee" || got.Distance.V.Max != 1500 || got.Distance.V.Center.Latitude != 52.5 {
				t.Errorf("query/distance not carried: %+v", got)
			}
			if !slices.Equal(f.Items.V, []string{"sku-1", "sku-2"}) || !slices.Equal(f.Amenities.V, []location.AmenityType{"dev.ucp.amenity.wi_fi"}) {
				t.Errorf("filters = items %v amenities %v", f.Items.V, f.Amenities.V)
			}
			if string(f.Unknown["x.example"]) != "true" {
				t.Errorf("extension filter not carried: %v", f.Unknown)
			}
			if a := resp.Locations[0].Amenities.V; !slices.Equal(a, []old.AmenityType{"dev.ucp.amenity.atm", "dev.ucp.amenity.wi_fi"}) {
				t.Errorf("amenities = %v, want the sorted keys", a)
			}
			body, err := json.Marshal(resp)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if _, err := old.DecodeSearchResponse(body); err != nil {
				t.Errorf("answer is not valid at %s: %v\n%s", old.ProtocolVersion, err, body)
			}
		})
	}
}

// TestServeFromPaymentHandlers answers with payment handlers in the ucp
// member, which the runtime keeps from the hook's answer: their instrument
// constraints, a Constraint Expression in the newer version and any object
// here, reach the older answer member for member without a Conversion
// method, and an empty expression, which this version refuses, fails the
// answer at its pointer instead of being sent.
func TestServeFromPaymentHandlers(t *testing.T) {
	const handlers = `{"com.example.pay":[{"version":"2026-08-25","id":"pay-1","config":{"merchant":"m-1"},` +
		`"available_instruments":[{"type":"card","constraints":{"required":["brand"],"properties":{"brand":{"enum":["visa","mastercard"]}},` +
		`"anyOf":[{"required":["brand"]}]}},{"type":"wallet"}]}]}`
	answer := func(t *testing.T, handlers string) *location.SearchResponse {
		t.Helper()
		resp, err := location.DecodeSearchResponse([]byte(`{"ucp":{"version":"2026-08-25","payment_handlers":` + handlers + `},"locations":[]}`))
		if err != nil {
			t.Fatalf("decode the newer answer: %v", err)
		}
		return resp
	}
	hooks := old.ServeFrom(&newerHooks{search: answer(t, handlers)}, testConversion{}).(oldLocation)
	resp, err := hooks.SearchLocations(context.Background(), &old.Meta{}, &old.SearchRequest{})
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if _, err := old.DecodeSearchResponse(body); err != nil {
		t.Errorf("answer is not valid at %s: %v\n%s", old.ProtocolVersion, err, body)
	}
	got, err := json.Marshal(resp.UCP.PaymentHandlers)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, got, []byte(handlers)) {
		t.Errorf("payment_handlers = %s, want the newer answer's %s", got, handlers)
	}

	empty := strings.Replace(handlers, `{"type":"wallet"}`, `{"type":"wallet","constraints":{}}`, 1)
	hooks = old.ServeFrom(&newerHooks{search: answer(t, empty)}, testConversion{}).(oldLocation)
	_, err = hooks.SearchLocations(context.Background(), &old.Meta{}, &old.SearchRequest{})
	const at = "/ucp/payment_handlers/com.example.pay/0/available_instruments/1/constraints"
	if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), "at least 1") {
		t.Errorf("empty constraints: error = %v, want one naming %s and the minimum", err, at)
	}
}

// sameJSON reports whether a and b are the same JSON value, whatever the
// order of their members.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// TestServeFromPassesNewerErrors checks that an error of the newer hook
// reaches the runtime as it is, so its JSON-RPC code is kept.
func TestServeFromPassesNewerErrors(t *testing.T) {
	want := rpcerr.Invalid("/location/distance/max", "maximum", "too far")
	hooks := old.ServeFrom(&newerHooks{err: want}, testConversion{}).(oldLocation)
	_, err := hooks.SearchLocations(context.Background(), &old.Meta{}, &old.SearchRequest{})
	if !errors.Is(err, want) {
		t.Fatalf("error = %v, want the newer hook's error", err)
	}
}

// source is a newer-package Source over a few Locations in id order, with no
// serves, countries or items.
type source []location.Location

func (source) Capabilities() location.SourceCapabilities { return location.SourceCapabilities{} }

func (s source) Candidates(_ context.Context, h location.Hints) ([]location.Candidate, error) {
	var out []location.Candidate
	for i := range s {
		if (h.After == nil || s[i].ID > h.After.ID) && len(out) < h.Limit {
			out = append(out, location.Candidate{Location: &s[i]})
		}
	}
	return out, nil
}

func (s source) Resolve(_ context.Context, keys []string) (map[string][]location.Candidate, error) {
	out := map[string][]location.Candidate{}
	for i := range s {
		if slices.Contains(keys, s[i].ID) {
			out[s[i].ID] = []location.Candidate{{Location: &s[i]}}
		}
	}
	return out, nil
}

func (source) Serves(context.Context, location.ServesTarget, []location.Candidate) ([]bool, error) {
	return nil, errors.New("no serves")
}

func (source) Items(context.Context, []string, []location.Candidate) ([]bool, error) {
	return nil, errors.New("no items")
}

// TestNewServiceFrom serves the older version's lookup from a Source of the
// newer package, so one data source answers both versions.
func TestNewServiceFrom(t *testing.T) {
	src := source{
		{ID: "a", Name: "A", Amenities: opt.Some(map[location.AmenityType]location.Amenity{"dev.ucp.amenity.atm": {Description: "ATM"}})},
		{ID: "b", Name: "B"},
	}
	served, err := old.NewServiceFrom(src, location.ServiceOptions{}, testConversion{})
	hooks, _ := served.(oldLocation)
	if err != nil {
		t.Fatalf("new service: %v", err)
	}
	req, err := old.DecodeLookupRequest([]byte(`{"ids":["a","b","c"],"filters":{"amenities":["dev.ucp.amenity.atm"]}}`))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	resp, err := hooks.LookupLocations(context.Background(), &old.Meta{}, req)
	if err != nil {
		t.Fatalf("lookup: %v", err)
	}
	if len(resp.Locations) != 1 || resp.Locations[0].ID != "a" || !slices.Equal(resp.Locations[0].Amenities.V, []old.AmenityType{"dev.ucp.amenity.atm"}) {
		t.Fatalf("locations = %+v, want only a with its amenity as a list", resp.Locations)
	}
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if _, err := old.DecodeLookupResponse(body); err != nil {
		t.Errorf("answer is not valid at %s: %v\n%s", old.ProtocolVersion, err, body)
	}
	if _, err := old.NewServiceFrom(src, location.ServiceOptions{}, nil); err == nil {
		t.Error("NewServiceFrom accepted a nil Conversion")
	}
}

// oldLocation is what ServeFrom's result implements: every hook of the
// older version.
type oldLocation interface {
	old.LocationSearchHooks
	old.LocationLookupHooks
}
