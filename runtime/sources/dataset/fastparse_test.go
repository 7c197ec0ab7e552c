package dataset

import (
	"bytes"
	"reflect"
	"testing"
)

// TestFastPathAgreesWithStrict proves the fast path returns exactly the
// records of the strict path wherever it accepts an input, and that it
// declines the inputs it is not meant to decode, leaving them (and their
// errors) to the strict path.
func TestFastPathAgreesWithStrict(t *testing.T) {
	cases := []struct {
		name string
		data string
		fast bool // whether the fast path should accept it
	}{
		{"sample dataset", string(sampleJSON(t)), true},
		{"empty", " [ ] \n", true},
		{"full record", `[{"location":{"id":"b","name":"B","geo":{"latitude":1.5e1,"longitude":-0.25}},"aliases":["b-1"],"items":["sku-1","sku-2"],
			"service_area":{"countries":["US"],"regions":["NY"],"postal_codes":["10001"],"radius_m":0},"private":true}]`, true},
		{"empty lists and area", `[{"location":{"id":"c"},"aliases":[],"items":[],"service_area":{},"private":false}]`, true},
		{"unicode kept", `[{"location":{"id":"m","name":"München \u00fc"},"aliases":["größe"]}]`, true},
		{"escaped alias", `[{"location":{"id":"a"},"aliases":["a\"b"]}]`, false},
		{"escaped id", `[{"location":{"id":"\u0061"}}]`, false},
		{"invalid utf-8 alias", "[{\"location\":{\"id\":\"a\"},\"aliases\":[\"\xff\"]}]", false},
		{"duplicate location member", `[{"location":{"id":"a","name":"x","name":"y"}}]`, false},
		{"duplicate record member", `[{"location":{"id":"a"},"items":[],"items":[]}]`, false},
		{"null private", `[{"location":{"id":"a"},"private":null}]`, false},
		{"huge radius", `[{"location":{"id":"a"},"service_area":{"radius_m":1e999}}]`, false},
		{"negative radius", `[{"location":{"id":"a"},"service_area":{"radius_m":-1}}]`, false},
		{"repeated item", `[{"location":{"id":"a"},"items":["x","x"]}]`, false},
		{"unknown member", `[{"location":{"id":"a"},"stock":1}]`, false},
		{"missing comma", `[{"location":{"id":"a"}} {"location":{"id":"b"}}]`, false},
		{"trailing data", `[] x`, false},
		{"bad number", `[{"location":{"id":"a","x":01}}]`, false},
		{"control character", "[{\"location\":{\"id\":\"a\",\"x\":\"\x01\"}}]", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fast, ok := parseFast([]byte(tc.data))
			if ok != tc.fast {
				t.Fatalf("fast path accepted = %v, want %v", ok, tc.fast)
			}
			strict, err := parseStrict([]byte(tc.data))
			if !ok {
				return
			}
			if err != nil {
				t.Fatalf("fast path accepted what the strict path rejects: %v", err)
			}
			if !reflect.DeepEqual(normalized(fast), normalized(strict)) {
				t.Errorf("records differ:\nfast   %+v\nstrict %+v", fast, strict)
			}
		})
	}
}

// normalized compacts each Location's raw text, which both paths keep
// byte-for-byte but in differently sized slices.
func normalized(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		r.Location = bytes.Clone(r.Location)
		out[i] = r
	}
	return out
}
