package jsonmember

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestEachMember pins the one object walker the runtime's request readers
// share: members in order with repeats, f's error passed
// through, and each kind of malformed input told apart.
func TestEachMember(t *testing.T) {
	stop := errors.New("stop")
	cases := []struct {
		in      string
		want    string
		err     error
		inValue string
	}{
		{in: `{}`, want: ``},
		{in: ` {"a":1,"b":{"c":[2]},"a":"x"} `, want: `a=1;b={"c":[2]};a="x";`},
		{in: `{"a":1,"stop":2,"b":3}`, want: `a=1;`, err: stop},
		{in: `[1]`, err: ErrNotObject},
		{in: `"s"`, err: ErrNotObject},
		{in: `{"a":1,"b":tru}`, want: `a=1;`, inValue: "b"},
		{in: `{"a":1`, want: `a=1;`, err: &SyntaxError{}},
		{in: `{"a" 1}`, inValue: "a"},
		{in: `{1:2}`, err: &SyntaxError{}},
	}
	for _, c := range cases {
		var got strings.Builder
		err := Each([]byte(c.in), func(k string, v json.RawMessage) error {
			if k == "stop" {
				return stop
			}
			got.WriteString(k + "=" + string(v) + ";")
			return nil
		})
		if got.String() != c.want {
			t.Errorf("%s: members %q, want %q", c.in, got.String(), c.want)
		}
		var se *SyntaxError
		switch {
		case c.inValue != "":
			if !errors.As(err, &se) || !se.InValue || se.Key != c.inValue {
				t.Errorf("%s: err %#v, want a syntax error in the value of %q", c.in, err, c.inValue)
			}
		case c.err == nil:
			if err != nil {
				t.Errorf("%s: err %v", c.in, err)
			}
		case errors.As(c.err, &se):
			if !errors.As(err, &se) || se.InValue {
				t.Errorf("%s: err %#v, want a syntax error outside any value", c.in, err)
			}
		case !errors.Is(err, c.err):
			t.Errorf("%s: err %v, want %v", c.in, err, c.err)
		}
	}
}

// errStop ends a walk early.
var errStop = errors.New("stop")

// walkTrace is what eachMember-like walkers report for obj: the members in
// order, then the error (its type and text).
func walkTrace(walk func([]byte, func(string, json.RawMessage) error) error, obj []byte) string {
	var b strings.Builder
	err := walk(obj, func(k string, v json.RawMessage) error {
		b.WriteString(strconv.Quote(k) + "=" + string(v) + ";")
		if k == "stop" {
			return errStop
		}
		return nil
	})
	fmt.Fprintf(&b, " err %T %v", err, err)
	return b.String()
}

// TestEachMemberScannerMatchesDecoder holds the scanner to encoding/json's
// decoder: the same members and the same error for well-formed objects and
// for every one-byte deletion and substitution of them.
func TestEachMemberScannerMatchesDecoder(t *testing.T) {
	seeds := []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://p.example/x.json"}},"location":{"distance":{"center":{"latitude":40.7831,"longitude":-73.9712},"max":5e3},"filters":{"amenities":["a\u00e9\n"],"x":[true,false,null,-0.5E+2]}}}}}`,
		` { "a" : [ 1 , { } , [ ] ] , "b\"c" : "\\" , "\u00e9" : "é" , "stop" : 1 , "z" : 2 } trailing`,
		`{"k\ud800":"\uDFFF","n":-0,"m":0.0e-0,"":""}`,
		"{\"bad\xff\":\"\xfe\"}",
	}
	check := func(in []byte) {
		t.Helper()
		if got, want := walkTrace(Each, in), walkTrace(eachMemberDecoder, in); got != want {
			t.Fatalf("%q:\nscanner %s\ndecoder %s", in, got, want)
		}
		checkEachScanned(t, in)
	}
	for _, s := range seeds {
		check([]byte(s))
		for i := range len(s) {
			check([]byte(s[:i] + s[i+1:]))
			for _, c := range []byte("{}[]\",:\\0-.e a") {
				check([]byte(s[:i] + string(c) + s[i+1:]))
			}
		}
	}
	check([]byte(strings.Repeat(`{"a":`, maxScanDepth+5) + "1" + strings.Repeat("}", maxScanDepth+5)))
}

// FuzzEachMember holds the scanner to encoding/json's decoder on any input.
func FuzzEachMember(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[2]},"a":"x"}`))
	f.Add([]byte(`{"a":1,"b":tru}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := walkTrace(Each, in), walkTrace(eachMemberDecoder, in); got != want {
			t.Fatalf("%q:\nscanner %s\ndecoder %s", in, got, want)
		}
		checkEachScanned(t, in)
	})
}

// internKey gives every key back as it is, and the envelope's names
// without allocating.
func TestInternKey(t *testing.T) {
	for _, k := range []string{"jsonrpc", "id", "method", "params", "name", "arguments", "_meta", "meta", "ucp-agent", "profile", "version", "capabilities", "location", "ids", "distance", "serves", "filters", "hours", "amenities", "items", "query", "pagination", "", "idx", "Method", "locations", "x\u00e9"} {
		if got := internKey([]byte(k)); got != k {
			t.Errorf("internKey(%q) = %q", k, got)
		}
	}
	for _, name := range []string{`"arguments"`, `"location"`, `"pagination"`} {
		raw := []byte(name)
		if n := testing.AllocsPerRun(100, func() { _, _ = PlainString(raw) }); n != 0 {
			t.Errorf("PlainString(%s) allocates %v times", name, n)
		}
	}
}

// firstByEach is First as Each sees the object: the first member of the
// name, for an object Each walks without error.
func firstByEach(obj []byte, name string) (json.RawMessage, bool) {
	var found json.RawMessage
	if Each(obj, func(k string, v json.RawMessage) error {
		if k == name && found == nil {
			found = v
		}
		return nil
	}) != nil {
		return nil, false
	}
	return found, found != nil
}

func TestFirst(t *testing.T) {
	cases := []struct {
		obj, name, want string
		ok              bool
	}{
		{`{"a":1,"b":{"c":[2]},"a":"x"}`, "a", `1`, true},
		{`{"a":1,"b":{"c":[2]},"a":"x"}`, "b", `{"c":[2]}`, true},
		{` { "x" : [ 1 , {} ] , "items" : null } `, "items", `null`, true},
		{`{"it\u0065ms":["i"]}`, "items", `["i"]`, true},
		{`{"a":1}`, "c", ``, false},
		{`{}`, "a", ``, false},
		{`[{"a":1}]`, "a", ``, false},
		{`{"a":tru,"b":1}`, "b", ``, false},
		{`{"a" 1}`, "a", ``, false},
		{`{"a":1 "b":2}`, "b", ``, false},
		// Read no further than the member: what follows is not checked.
		{`{"a":1,"b":`, "a", `1`, true},
		{``, "a", ``, false},
	}
	for _, c := range cases {
		got, ok := First([]byte(c.obj), c.name)
		if ok != c.ok || string(got) != c.want {
			t.Errorf("First(%s, %q) = %s, %v; want %s, %v", c.obj, c.name, got, ok, c.want, c.ok)
		}
	}
}

// FuzzFirst holds First to Each on every object Each accepts.
func FuzzFirst(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[2]},"a":"x"}`), "a")
	f.Add([]byte(`{"\u0061":[],"b":"\\"}`), "b")
	f.Fuzz(func(t *testing.T, obj []byte, name string) {
		want, wantOK := firstByEach(obj, name)
		if !wantOK {
			return
		}
		got, ok := First(obj, name)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("First(%q, %q) = %q, %v; Each finds %q", obj, name, got, ok, want)
		}
	})
}

// TestEachAndFirstAllocations: walking a tool's arguments allocates only
// the names internKey does not know (here "com.example.x"), and First
// nothing.
func TestEachAndFirstAllocations(t *testing.T) {
	obj := []byte(`{"meta":{"ucp-agent":{"profile":"https://p.example/x.json"}},"location":{"distance":{"center":{"latitude":40.78,"longitude":-73.97},"max":5000},"filters":{"amenities":["a"]}},"com.example.x":1}`)
	if n := testing.AllocsPerRun(100, func() { _ = Each(obj, func(string, json.RawMessage) error { return nil }) }); n != 1 {
		t.Errorf("Each allocates %v times, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = First(obj, "location") }); n != 0 {
		t.Errorf("First allocates %v times, want 0", n)
	}
}

// scanStringByByte is scanString read one byte at a time, as it was before
// it skipped plain bytes eight at a time: the reference it must match.
func scanStringByByte(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) {
					return -1
				}
				for _, h := range b[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// TestScanStringWordAtATime puts each byte that ends or breaks a string
// (and bytes next to them in value: 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f,
// 0x80, 0xff) at every offset of strings up to 40 bytes long, alone and
// after an escape, and checks the word-at-a-time scan against the
// byte-at-a-time one.
func TestScanStringWordAtATime(t *testing.T) {
	probes := []string{`"`, `\`, `\"`, `\\`, `\u00e9`, `\u00g9`, `\x`, "\x00", "\x1f", "\x20", "\x21", "\x5b", "\x5d", "\x7f", "\x80", "\xff", "é"}
	checked := 0
	for n := 0; n <= 40; n++ {
		for at := 0; at <= n; at++ {
			for _, p := range probes {
				for _, prefix := range []string{`"`, `"\n`} {
					body := strings.Repeat("a", at) + p + strings.Repeat("b", n-at)
					for _, s := range []string{prefix + body + `"`, prefix + body, prefix + body + `" ,`} {
						if got, want := scanString([]byte(s), 0), scanStringByByte([]byte(s), 0); got != want {
							t.Fatalf("scanString(%q) = %d, want %d", s, got, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 40_000 {
		t.Fatalf("only %d strings checked", checked)
	}
}

func FuzzScanString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"abcdefghijklmnop\"q"`, "\"ab\x01cdefgh\"", `"\u12345678"`, `"é and ü, then"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		if got, want := scanString(b, 0), scanStringByByte(b, 0); got != want {
			t.Fatalf("scanString(%q) = %d, want %d", b, got, want)
		}
	})
}

// checkEachScanned holds EachScanned's scanned to Scans for an object.
func checkEachScanned(t *testing.T, in []byte) {
	t.Helper()
	if i := skipSpace(in, 0); i >= len(in) || in[i] != '{' {
		return
	}
	scanned, err := EachScanned(in, func(string, json.RawMessage) error { return nil })
	if scanned != Scans(in) {
		t.Fatalf("%q: EachScanned scanned %v, Scans %v", in, scanned, Scans(in))
	}
	if scanned && err != nil {
		t.Fatalf("%q: scanned, with error %v", in, err)
	}
}

// TestEachScanned reports a whole object as scanned, and anything with
// more after it, malformed or nested beyond the scanner, as not.
func TestEachScanned(t *testing.T) {
	for _, in := range []string{
		`{}`, ` {"a":1} `, "{\"a\":[1,{\"b\":\"x\"}]}\n", `{"a":1} x`, `{"a":1}{}`, `{"a":1,}`, `{"a":tru}`, `{"a":"\u00e9"}`,
		strings.Repeat(`{"a":`, maxScanDepth+5) + "1" + strings.Repeat("}", maxScanDepth+5),
	} {
		checkEachScanned(t, []byte(in))
	}
	stop := errors.New("stop")
	if scanned, err := EachScanned([]byte(`{"a":1,"b":2}`), func(string, json.RawMessage) error { return stop }); scanned || err != stop {
		t.Errorf("a walk f stopped: scanned %v, err %v", scanned, err)
	}
}
