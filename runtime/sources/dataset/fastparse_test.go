package dataset

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestScannerStrEveryOffset holds the eight-bytes-a-step string scan and
// its plain flag to a byte-at-a-time reading: each special byte (quote, backslash escape,
// control character) and a multi-byte character at every offset of a
// string longer than two steps, with text after the string, and strings
// cut off at every length.
func TestScannerStrEveryOffset(t *testing.T) {
	// want is the byte-at-a-time answer for the string starting at b[0].
	want := func(b []byte) (body []byte, plain, ok bool, end int) {
		plain = true
		for i := 1; i < len(b); i++ {
			switch c := b[i]; {
			case c == '"':
				return b[1:i], plain, true, i + 1
			case c == '\\':
				if i+1 >= len(b) || !bytes.ContainsRune([]byte(`"\/bfnrt`), rune(b[i+1])) {
					return nil, false, false, 0
				}
				plain = false
				i++
			case c < 0x20:
				return nil, false, false, 0
			}
		}
		return nil, false, false, 0
	}
	specials := []string{`"`, `\"`, `\\`, `\n`, "\x01", "\x1f", "\x00", `\x`, "é", "\x7f", " ", "\xff"}
	for _, sp := range specials {
		for at := 0; at < 20; at++ {
			text := bytes.Repeat([]byte("a"), 20)
			in := append([]byte(`"`), text[:at]...)
			in = append(in, sp...)
			in = append(in, text[at:]...)
			in = append(in, `",1]`...)
			for cut := len(in); cut >= len(in)-4 && cut > 0; cut-- {
				b := in[:cut]
				s := &scanner{b: b}
				body, plain, ok := s.str()
				wb, wp, wok, wend := want(b)
				if ok != wok || plain != wp || !bytes.Equal(body, wb) || ok && s.i != wend {
					t.Errorf("str(%q) = %q, plain %v, ok %v, at %d; want %q, %v, %v, at %d", b, body, plain, ok, s.i, wb, wp, wok, wend)
				}
			}
		}
	}
}

func TestValidUTF8EveryOffset(t *testing.T) {
	for _, sp := range []string{"é", "\xff", "\xc3", "€", "\xe2\x82", "\U0001F600", "a"} {
		for at := 0; at <= 20; at++ {
			for n := at; n <= 24; n += 3 {
				b := []byte(strings.Repeat("a", at) + sp + strings.Repeat("b", n-at))
				if got, want := validUTF8(b), utf8.Valid(b); got != want {
					t.Errorf("validUTF8(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}

// valueRecursive is value as it was written first, one call per nested
// value through members and elements: the reading the loop is held to.
func (s *scanner) valueRecursive(depth int) ([]byte, bool) {
	if depth > maxDepth {
		return nil, false
	}
	c := s.peek()
	start := s.i
	ok := false
	switch c {
	case '{':
		s.i++
		ok = s.members(func([]byte) bool {
			_, ok := s.valueRecursive(depth + 1)
			return ok
		})
	case '[':
		s.i++
		ok = s.elements(func() bool {
			_, ok := s.valueRecursive(depth + 1)
			return ok
		})
	case '"':
		_, _, ok = s.str()
	case 't':
		ok = s.literal("true")
	case 'f':
		ok = s.literal("false")
	case 'n':
		ok = s.literal("null")
	default:
		_, ok = s.number()
	}
	if !ok {
		return nil, false
	}
	return s.b[start:s.i], true
}

// valueCases are JSON texts (and near misses) with every kind of value,
// whitespace around every token, names the fast path declines (escaped,
// invalid UTF-8) and the grammar's edges (trailing commas, missing colons,
// empty containers, numbers cut short, mismatched brackets).
var valueCases = []string{
	`{}`, `[]`, ` { } `, `[ ]`, `"s"`, `-0.5e+3`, `true`, `false`, `null`, `0`, `01`, `-`, `1.`, `1e`, `1e+`, `-01.5E-2`,
	`{"a":1}`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{,}`, `{"a":1 "b":2}`, `[1,]`, `[,1]`, `[1 2]`, `[1}`, `{"a":1]`,
	`{"a":{"b":[1,{"c":"d"},[]],"e":{}},"f":[[["x"]]]}`,
	" {\n\t\"a\" :\r [ 1 , true , null , \"x\\\"y\" ] , \"b\" : { } } ",
	`{"\u0061":1}`, `{"a\"":1}`, "{\"\xff\":1}", "{\"é\":\"\xff\"}", `{"a":"\q"}`, `{"a":"\u12"}`, `{"a":"\u12G4"}`,
	"{\"a\":\"\x01\"}", `{"a":tru}`, `{"a":nul}`, `{"a":falsey}`, `[{"a":[{"b":[]}]}]`, `{"a":"x"`, `["a",`,
	`{"a":1}}`, `[1]]`, `{"a":[1}`, `[{"a":1]`, `truex`, `nullnull`, `"a"b`, `{"a":-}`, `[-.5]`, `[.5]`,
}

// TestValueLoopMatchesRecursive holds value to valueRecursive: the same
// verdict and, when it accepts, the same text and end, for every case, at
// depths on both sides of the limit, and for every prefix of each case (a
// record cut off by the read window).
func TestValueLoopMatchesRecursive(t *testing.T) {
	deep := strings.Repeat(`[{"a":`, 40) + `1` + strings.Repeat(`}]`, 40)
	compared := 0
	for _, in := range append(valueCases, deep, deep[:len(deep)-1]) {
		for n := 0; n <= len(in); n++ {
			for _, depth := range []int{1, 2, maxDepth - 81, maxDepth - 80, maxDepth - 79, maxDepth, maxDepth + 1} {
				b := []byte(in[:n])
				got, want := &scanner{b: b}, &scanner{b: b}
				gt, gok := got.value(depth)
				wt, wok := want.valueRecursive(depth)
				if gok != wok || gok && (!bytes.Equal(gt, wt) || got.i != want.i) {
					t.Fatalf("value(%q, depth %d) = %q, %v, end %d; recursive %q, %v, end %d", b, depth, gt, gok, got.i, wt, wok, want.i)
				}
				compared++
			}
		}
	}
	t.Logf("%d inputs compared", compared)
}

// FuzzValue holds value to valueRecursive on any input.
func FuzzValue(f *testing.F) {
	for _, in := range valueCases {
		f.Add([]byte(in), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, depth int) {
		if depth < 0 || depth > maxDepth+1 {
			return
		}
		got, want := &scanner{b: b}, &scanner{b: b}
		gt, gok := got.value(depth)
		wt, wok := want.valueRecursive(depth)
		if gok != wok || gok && (!bytes.Equal(gt, wt) || got.i != want.i) {
			t.Fatalf("value(%q, depth %d) = %q, %v, end %d; recursive %q, %v, end %d", b, depth, gt, gok, got.i, wt, wok, want.i)
		}
	})
}

// TestDelimitEndMatchesValue holds delimitEnd to value where value
// accepts: the same end, for every case and every prefix of it (a value
// cut off by the read window), so a LocationParser's section splits each
// Location at the same byte as a checked scan.
func TestDelimitEndMatchesValue(t *testing.T) {
	deep := strings.Repeat(`[{"a":`, 40) + `1` + strings.Repeat(`}]`, 40)
	compared := 0
	for _, in := range append(valueCases, deep, deep[:len(deep)-1], `"a\"b"`, `{"a":"}]"}`, `[" ,]"]`) {
		// As a member's value is followed: by a separator or a closer.
		for _, v := range []string{in, in + ",", in + " }", in + "]"} {
			for n := 0; n <= len(v); n++ {
				if checkDelimit(t, []byte(v[:n])) {
					compared++
				}
			}
		}
	}
	t.Logf("%d inputs compared", compared)
	if compared < 150 {
		t.Fatalf("only %d accepted inputs compared", compared)
	}
}

// checkDelimit fails t when value accepts b, followed by nothing or by a
// byte that may follow a value, and delimitEnd does not end where it does,
// or when delimitEnd ends outside b; it reports whether it compared.
func checkDelimit(t *testing.T, b []byte) bool {
	t.Helper()
	start := skipSpace(b, 0)
	end, ok := delimitEnd(b, start)
	if end < start || end > len(b) {
		t.Fatalf("delimitEnd(%q) = %d, outside %d..%d", b, end, start, len(b))
	}
	s := &scanner{b: b}
	_, vok := s.value(1)
	// Only a value followed by what may follow one in an object or array
	// (or by nothing) can be a member's value; after any other byte the
	// scan fails whatever delimitEnd says.
	followed := vok && (s.i == len(b) || endsScalar(b[s.i]))
	if followed && (!ok || end != s.i) {
		t.Fatalf("delimitEnd(%q) = %d, %v; value ends at %d", b, end, ok, s.i)
	}
	return followed
}

// FuzzDelimitEndMatchesValue is TestDelimitEndMatchesValue on any input.
func FuzzDelimitEndMatchesValue(f *testing.F) {
	for _, in := range valueCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDelimit(t, b) })
}
