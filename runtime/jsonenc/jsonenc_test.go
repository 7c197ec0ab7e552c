package jsonenc

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return b
}

var tricky = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\b\f\x00\x01\x1f\x7f",
	"<script>&amp;</script>", "\u2028\u2029", "caf\u00e9 \U0001F600", "bad \xff utf8 \xc3", "\xed\xa0\x80",
	"ends with \xe2\x82",
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range tricky {
		if got, want := AppendString(nil, s), marshal(t, s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 40.7128, -74.006, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789e15,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 1.0000000000000002, 0.1 + 0.2} {
		got, err := AppendFloat(nil, f)
		if err != nil {
			t.Fatalf("AppendFloat(%v): %v", f, err)
		}
		if want := marshal(t, f); !bytes.Equal(got, want) {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := AppendFloat(nil, f); err == nil {
			t.Errorf("AppendFloat(%v): want an error", f)
		}
	}
}

func TestAppendRawMatchesEncodingJSON(t *testing.T) {
	for _, raw := range []string{`{ "a" : [1, 2 ,3], "b":"<&>" }`, `"\u2028 x"`, "\"\u2028\"", `null`, ` 12.50 `, `{}`} {
		got, err := AppendRaw(nil, json.RawMessage(raw))
		if err != nil {
			t.Fatalf("AppendRaw(%s): %v", raw, err)
		}
		if want := marshal(t, json.RawMessage(raw)); !bytes.Equal(got, want) {
			t.Errorf("AppendRaw(%s) = %s, want %s", raw, got, want)
		}
	}
	if got, _ := AppendRaw(nil, nil); string(got) != "null" {
		t.Errorf("AppendRaw(nil) = %s, want null", got)
	}
	if _, err := AppendRaw(nil, json.RawMessage(`{"a":`)); err == nil {
		t.Error("AppendRaw of truncated JSON: want an error")
	}
}

func TestObjectAndMembers(t *testing.T) {
	b, obj := Open([]byte("x"))
	b = obj.Close(b)
	if string(b) != "x{}" {
		t.Fatalf("empty object = %s", b)
	}
	b, obj = Open(nil)
	b = Key(b, `"id"`)
	b = AppendString(b, "1")
	b, err := AppendMembers(b, map[string]json.RawMessage{"z": json.RawMessage(`[ 1 ]`), "a<": json.RawMessage(`"&"`)}, func(n string) bool { return n == "id" })
	if err != nil {
		t.Fatal(err)
	}
	b = obj.Close(b)
	if want := `{"id":"1","a\u003c":"\u0026","z":[1]}`; string(b) != want {
		t.Fatalf("object = %s, want %s", b, want)
	}
	if _, err := AppendMembers(nil, map[string]json.RawMessage{"id": json.RawMessage(`1`)}, func(n string) bool { return n == "id" }); err == nil {
		t.Fatal("duplicate of a typed member: want an error")
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), marshal(t, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	f.Add(uint64(0))
	f.Add(math.Float64bits(1e-7))
	f.Add(math.Float64bits(1e21))
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		got, err := AppendFloat(nil, v)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if err == nil {
				t.Fatalf("AppendFloat(%v): want an error", v)
			}
			return
		}
		if want := marshal(t, v); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendFloat(%v) = %s, %v; want %s", v, got, err, want)
		}
	})
}

// FuzzAppendJSONAsString holds the one-pass text block to AppendString for
// canonical JSON (encoding/json's own output for the fuzzed string, as a
// value and inside an object) and for arbitrary bytes.
func FuzzAppendJSONAsString(f *testing.F) {
	for _, s := range []string{"", `plain`, `"quoted" \ back`, "<&>", "Café \u2028 \u2029", "\x00\x1f\x7f", "\xff\xfe", "\xe2\x80", `{"a":[1,"b"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		value, _ := json.Marshal(s)
		object, _ := json.Marshal(map[string]any{"k" + s: []any{s, 1.5, nil}})
		for _, in := range [][]byte{value, object, []byte(s)} {
			want := AppendString([]byte("x"), string(in))
			if got := AppendJSONAsString([]byte("x"), in); !bytes.Equal(got, want) {
				t.Fatalf("AppendJSONAsString(%q) = %q, want %q", in, got, want)
			}
		}
	})
}

// BenchmarkTextBlock compares the one-pass text block with AppendString on
// a 17 KB response-like JSON text (short keys and values, many quotes).
func BenchmarkTextBlock(b *testing.B) {
	var locs []any
	for i := 0; i < 60; i++ {
		locs = append(locs, map[string]any{"id": "loc_123", "name": "Corner Shop Café", "geo": map[string]any{"latitude": 51.5, "longitude": -0.12}, "hours": []any{map[string]any{"day": "monday", "open": "08:00", "close": "20:00"}}, "amenities": map[string]any{"dev.ucp.amenity.parking": true}})
	}
	body, _ := json.Marshal(map[string]any{"locations": locs})
	buf := make([]byte, 0, 2*len(body))
	b.Run("AppendString", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			buf = AppendString(buf[:0], string(body))
		}
	})
	b.Run("AppendJSONAsString", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			buf = AppendJSONAsString(buf[:0], body)
		}
	})
}
