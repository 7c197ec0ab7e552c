package location

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// TestViolationMessages pins the wording of each kind of violation: the
// pointer of the offending value, then the rule in plain words with what
// was expected and what was sent.
func TestViolationMessages(t *testing.T) {
	const center = `"center":{"latitude":1,"longitude":2}`
	for _, tc := range []struct {
		name, payload string
		want          []string
	}{
		{"minimum", `{"distance":{` + center + `,"max":-5}}`, []string{"/distance/max: must be >= 0, got -5"}},
		{"maximum", `{"distance":{"center":{"latitude":90.5,"longitude":2},"max":1}}`, []string{"/distance/center/latitude: must be <= 90, got 90.5"}},
		{"type", `{"query":7}`, []string{"/query: must be string, got number"}},
		{"type integer", `{"pagination":{"limit":1.5}}`, []string{"/pagination/limit: must be integer, got number 1.5"}},
		{"required", `{"distance":{"max":10}}`, []string{`/distance/center: required member "center" is missing`}},
		{"minProperties", `{"serves":{}}`, []string{"/serves: must have at least 1 member, got 0"}},
		{"maxProperties", `{"serves":{"point":{"latitude":1,"longitude":2},"address":{"address_country":"US"}}}`, []string{"/serves: must have at most 1 member, got 2"}},
		{"minItems", `{"filters":{"items":[]}}`, []string{"/filters/items: must have at least 1 item, got 0"}},
		{"uniqueItems", `{"filters":{"items":["a","b","a"]}}`, []string{"/filters/items/2: items must be unique, item 2 equals item 0"}},
		{"format", `{"filters":{"hours":{"open_at":"2026-02-30T10:00:00Z"}}}`, []string{"/filters/hours/open_at: must be a valid date-time"}},
		{"pattern", `{"filters":{"amenities":["Parking"]}}`, []string{"/filters/amenities/0: must match the pattern"}},
		// open_at has both a format and a pattern; the violation names the
		// format, once, not the regular expression.
		{"format with pattern", `{"filters":{"hours":{"open_at":"2026-09-01T10:00:00"}}}`, []string{"/filters/hours/open_at: must be a valid date-time"}},
		{"anyOf", `{"serves":{"address":{"locality":"Springfield"}}}`, []string{"/serves/address: must match at least one of 3 alternatives (alternative 1: /serves/address/address_country: required member"}},
		{"several at once", `{"query":7,"distance":{` + center + `,"max":-5},"pagination":{"limit":0}}`, []string{
			"/query: must be string, got number",
			"/distance/max: must be >= 0, got -5",
			"/pagination/limit: must be >= 1, got 0",
		}},
		{"syntax", `{"query":"a",}`, []string{"(root): invalid JSON at byte 13: expected a member name string"}},
		{"duplicate", `{"query":"a","query":"b"}`, []string{`/query: invalid JSON at byte 13: duplicate member name "query"`}},
		{"null object", `{"distance":null}`, []string{"/distance: must be object, got null"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSearchRequest([]byte(tc.payload))
			ip, ok := rpcerr.AsInvalidParams(err)
			if !ok {
				t.Fatalf("got %v, want *rpcerr.InvalidParams", err)
			}
			if len(ip.Violations) != len(tc.want) {
				t.Fatalf("got %d violations %v, want %d", len(ip.Violations), ip.Violations, len(tc.want))
			}
			for i, want := range tc.want {
				if got := ip.Violations[i].String(); !strings.HasPrefix(got, want) {
					t.Errorf("violation %d:\n got  %s\n want %s...", i, got, want)
				}
			}
		})
	}
}

// TestArgumentViolationsTogether proves that a call whose meta and location
// are both invalid gets one error listing the violations of both.
func TestArgumentViolationsTogether(t *testing.T) {
	bind := searchLocationsTool(nil).Bind
	_, err := bind([]json.RawMessage{json.RawMessage(`{"ucp-agent":{}}`), json.RawMessage(`{"query":7}`)})
	ip, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		t.Fatalf("got %v, want *rpcerr.InvalidParams", err)
	}
	want := []string{`/meta/ucp-agent/profile: required member "profile" is missing`, "/location/query: must be string, got number"}
	if len(ip.Violations) != len(want) {
		t.Fatalf("got %d violations %v, want %d", len(ip.Violations), ip.Violations, len(want))
	}
	for i, w := range want {
		if got := ip.Violations[i].String(); !strings.HasPrefix(got, w) {
			t.Errorf("violation %d:\n got  %s\n want %s...", i, got, w)
		}
	}
	if _, err := bind([]json.RawMessage{json.RawMessage(`{"ucp-agent":{"profile":"https://p.example/x"}}`), json.RawMessage(`{}`)}); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
}
