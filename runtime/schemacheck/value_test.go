package schemacheck_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// minSupportedDepth is the nesting every caller may rely on. Parse bounds
// nesting without naming the bound in its API; UCP documents are a few
// levels deep, so the tests ask for a generous floor and refuse only input
// far beyond it.
const minSupportedDepth = 256

func mustParse(t *testing.T, text string) sc.Value {
	t.Helper()
	v, err := sc.Parse([]byte(text))
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return v
}

// grammarCases are JSON texts whose validity is read off the RFC 8259
// grammar. strict names the documented extra strictness of Parse for the
// texts the grammar admits but Parse refuses; encoding/json accepts those.
var grammarCases = []struct {
	name   string
	in     string
	ok     bool
	strict string
}{
	// literals (RFC 8259 §3: lowercase only)
	{"null", `null`, true, ""},
	{"true", `true`, true, ""},
	{"false", `false`, true, ""},
	{"literal cut short", `nul`, false, ""},
	{"literal run on", `nulll`, false, ""},
	{"literal capitalised", `True`, false, ""},
	{"literal upper case", `NULL`, false, ""},
	{"literal prefix of a word", `falsey`, false, ""},

	// numbers (§6)
	{"zero", `0`, true, ""},
	{"minus zero", `-0`, true, ""},
	{"integer", `10`, true, ""},
	{"negative integer", `-17`, true, ""},
	{"fraction", `0.5`, true, ""},
	{"negative fraction", `-0.5`, true, ""},
	{"exponent", `1e5`, true, ""},
	{"upper exponent", `1E5`, true, ""},
	{"plus exponent", `1e+5`, true, ""},
	{"minus exponent", `1e-5`, true, ""},
	{"fraction and exponent", `-1.25E-10`, true, ""},
	{"zero exponent on zero", `-0.0e-0`, true, ""},
	{"exponent with leading zeros", `1e007`, true, ""},
	{"overflowing magnitude", `1e400`, true, ""},
	{"underflowing magnitude", `1e-400`, true, ""},
	{"more digits than float64 holds", `123456789012345678901234567890.123456789`, true, ""},
	{"leading zero", `01`, false, ""},
	{"negative leading zero", `-01`, false, ""},
	{"double zero", `00`, false, ""},
	{"double zero before a fraction", `00.5`, false, ""},
	{"plus sign", `+1`, false, ""},
	{"no integer part", `.5`, false, ""},
	{"no fraction digits", `1.`, false, ""},
	{"no fraction digits before exponent", `1.e5`, false, ""},
	{"sign only", `-`, false, ""},
	{"double sign", `--1`, false, ""},
	{"no exponent digits", `1e`, false, ""},
	{"signed exponent without digits", `1e+`, false, ""},
	{"fractional exponent", `1e5.0`, false, ""},
	{"hex", `0x10`, false, ""},
	{"NaN", `NaN`, false, ""},
	{"Infinity", `Infinity`, false, ""},
	{"minus Infinity", `-Infinity`, false, ""},
	{"minus space digit", `- 1`, false, ""},

	// strings (§7)
	{"empty string", `""`, true, ""},
	{"plain string", `"abc"`, true, ""},
	{"every two-character escape", `"\"\\\/\b\f\n\r\t"`, true, ""},
	{"unicode escape", `"\u0041\u00e9\uFFFF"`, true, ""},
	{"surrogate pair escape", `"\uD83D\uDE00"`, true, ""},
	{"lone high surrogate escape", `"\uD83D"`, true, ""},
	{"lone low surrogate escape", `"\uDE00"`, true, ""},
	{"escaped NUL", `"\u0000"`, true, ""},
	{"raw DEL is not a control character", "\"\x7f\"", true, ""},
	{"raw multibyte UTF-8", `"é😀"`, true, ""},
	{"unterminated", `"abc`, false, ""},
	{"unknown escape", `"\x41"`, false, ""},
	{"upper U escape", `"\U0041"`, false, ""},
	{"single quote escape", `"\'"`, false, ""},
	{"short unicode escape", `"\u004"`, false, ""},
	{"non-hex unicode escape", `"\u00G1"`, false, ""},
	{"backslash at end", `"\`, false, ""},
	{"raw tab", "\"a\tb\"", false, ""},
	{"raw newline", "\"a\nb\"", false, ""},
	{"raw NUL", "\"a\x00b\"", false, ""},
	{"raw unit separator", "\"\x1f\"", false, ""},
	{"single quoted", `'a'`, false, ""},
	{"invalid UTF-8 byte", "\"\xff\"", false, "invalid UTF-8"},
	{"truncated UTF-8 sequence", "\"a\xc3\"", false, "invalid UTF-8"},
	{"stray continuation byte", "\"a\x80\"", false, "invalid UTF-8"},
	{"overlong encoding", "\"\xc0\x80\"", false, "invalid UTF-8"},
	{"UTF-8 encoded surrogate", "\"\xed\xa0\x80\"", false, "invalid UTF-8"},
	{"beyond U+10FFFF", "\"\xf4\x90\x80\x80\"", false, "invalid UTF-8"},

	// arrays and objects (§4, §5)
	{"empty array", `[]`, true, ""},
	{"empty array with space", "[ \n]", true, ""},
	{"empty object", `{}`, true, ""},
	{"empty object with space", "{\t}", true, ""},
	{"array", `[1,"a",null,true,{},[]]`, true, ""},
	{"object", `{"a":1,"b":[2],"c":{"d":null}}`, true, ""},
	{"empty member name", `{"":0}`, true, ""},
	{"names differing only by case", `{"a":1,"A":2}`, true, ""},
	{"unclosed array", `[1,2`, false, ""},
	{"unopened array", `]`, false, ""},
	{"trailing comma in array", `[1,]`, false, ""},
	{"leading comma in array", `[,1]`, false, ""},
	{"double comma in array", `[1,,2]`, false, ""},
	{"missing comma in array", `[1 2]`, false, ""},
	{"semicolon in array", `[1;2]`, false, ""},
	{"name without value", `{"a"}`, false, ""},
	{"colon without value", `{"a":}`, false, ""},
	{"trailing comma in object", `{"a":1,}`, false, ""},
	{"lone comma in object", `{,}`, false, ""},
	{"bare name", `{a:1}`, false, ""},
	{"number name", `{1:1}`, false, ""},
	{"equals for colon", `{"a"=1}`, false, ""},
	{"missing comma in object", `{"a":1 "b":2}`, false, ""},
	{"unclosed object", `{"a":1`, false, ""},
	{"mismatched brackets", `[1}`, false, ""},
	{"duplicate name", `{"a":1,"a":2}`, false, "duplicate"},
	{"duplicate name after unescaping", `{"a":1,"\u0061":2}`, false, "duplicate"},
	{"duplicate nested name", `[{"x":{"k":1,"j":2,"k":1}}]`, false, "duplicate"},

	// whitespace and the whole text (§2)
	{"all four whitespace characters", " \t\n\r1\r\n\t ", true, ""},
	{"whitespace inside containers", "{ \"a\" : [ 1 , 2 ] }", true, ""},
	{"empty text", ``, false, ""},
	{"whitespace only", " \n", false, ""},
	{"two values", `1 2`, false, ""},
	{"extra closing bracket", `[1]]`, false, ""},
	{"extra closing brace", `{"a":1}}`, false, ""},
	{"trailing NUL", "1\x00", false, ""},
	{"byte order mark", "\ufeff1", false, ""},
	{"form feed is not whitespace", "\f1", false, ""},
	{"vertical tab is not whitespace", "\v1", false, ""},
	{"no-break space is not whitespace", "\u00a01", false, ""},
	{"comment", `/*c*/1`, false, ""},
	{"line comment", "[1]//", false, ""},
}

func TestParseGrammar(t *testing.T) {
	for _, tc := range grammarCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sc.Parse([]byte(tc.in))
			if got := err == nil; got != tc.ok {
				t.Errorf("Parse(%q) accepted=%v, want %v (err %v)", tc.in, got, tc.ok, err)
			}
			if err != nil {
				var pe *sc.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("Parse(%q) error %T is not a *ParseError", tc.in, err)
				}
				if pe.Offset < 0 || pe.Offset > len(tc.in) {
					t.Errorf("Parse(%q) offset %d outside the input", tc.in, pe.Offset)
				}
			}
			// encoding/json implements the same grammar but neither refuses
			// duplicate names nor invalid UTF-8 in strings.
			wantStd := tc.ok || tc.strict != ""
			if got := json.Valid([]byte(tc.in)); got != wantStd {
				t.Errorf("json.Valid(%q) = %v, want %v: the table disagrees with encoding/json", tc.in, got, wantStd)
			}
		})
	}
}

func TestParseKinds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind sc.Kind
	}{
		{`null`, sc.Null},
		{`false`, sc.Bool},
		{`-1.5`, sc.Number},
		{`"x"`, sc.String},
		{`[]`, sc.Array},
		{`{}`, sc.Object},
	} {
		if v := mustParse(t, tc.in); v.Kind != tc.kind {
			t.Errorf("Parse(%q).Kind = %v, want %v", tc.in, v.Kind, tc.kind)
		}
	}
	if v := mustParse(t, `true`); !v.Bool {
		t.Error("Parse(true).Bool = false")
	}
	if v := mustParse(t, `false`); v.Bool {
		t.Error("Parse(false).Bool = true")
	}
}

// Kind names are JSON Schema's type names (Draft 2020-12 validation §6.1.1).
func TestKindString(t *testing.T) {
	for k, want := range map[sc.Kind]string{
		sc.Null:   "null",
		sc.Bool:   "boolean",
		sc.Number: "number",
		sc.String: "string",
		sc.Array:  "array",
		sc.Object: "object",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestParseNumbers(t *testing.T) {
	for _, tc := range []struct {
		in  string
		num float64
	}{
		{`0`, 0},
		{`-0`, 0},
		{`1`, 1},
		{`-17`, -17},
		{`0.5`, 0.5},
		{`1E+2`, 100},
		{`-1.25e-1`, -0.125},
		{`1e007`, 1e7},
		{`9007199254740993`, 9007199254740992}, // 2^53+1 rounds to even
		{`1e400`, math.Inf(1)},
		{`-1e400`, math.Inf(-1)},
		{`1e-400`, 0},
		{`-1e-400`, 0},
		{`123456789012345678901234567890`, 1.2345678901234568e29},
	} {
		t.Run(tc.in, func(t *testing.T) {
			v := mustParse(t, tc.in)
			if v.Kind != sc.Number {
				t.Fatalf("Kind = %v, want number", v.Kind)
			}
			// the decimal text is what integrality and exact comparisons
			// are decided from, so it must survive untouched
			if v.Str != tc.in || v.Raw != tc.in {
				t.Errorf("Str = %q, Raw = %q, want both %q", v.Str, v.Raw, tc.in)
			}
			if v.Num != tc.num {
				t.Errorf("Num = %v, want %v", v.Num, tc.num)
			}
			if f, _ := strconv.ParseFloat(tc.in, 64); v.Num != f {
				t.Errorf("Num = %v, strconv's nearest float64 is %v", v.Num, f)
			}
		})
	}
	if v := mustParse(t, `-0`); !math.Signbit(v.Num) {
		t.Error("-0 lost its sign; the nearest float64 to -0 is negative zero")
	}
}

func TestParseStrings(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", `"abc"`, "abc"},
		{"empty", `""`, ""},
		{"quote and backslash", `"\"\\"`, `"\`},
		{"solidus", `"\/"`, "/"},
		{"control escapes", `"\b\f\n\r\t"`, "\b\f\n\r\t"},
		{"NUL", `"\u0000"`, "\x00"},
		{"BMP escapes", `"\u0041\u00E9\u20ac"`, "Aé€"},
		{"mixed case hex", `"\u00Ea"`, "ê"},
		{"raw UTF-8 kept", `"é€😀"`, "é€😀"},
		{"raw DEL", "\"\x7f\"", "\x7f"},
		{"escape among text", `"a\nb"`, "a\nb"},
		{"surrogate pair", `"\uD83D\uDE00"`, "😀"},
		{"surrogate pair lower case", `"\ud834\udd1e"`, "\U0001D11E"},
		{"highest code point", `"\uDBFF\uDFFF"`, "\U0010FFFF"},
		// RFC 8259 §8.2 leaves unpaired surrogates undefined; Parse reads
		// them as encoding/json does, as U+FFFD.
		{"lone high surrogate", `"\uD83D"`, "\uFFFD"},
		{"lone low surrogate", `"\uDE00"`, "\uFFFD"},
		{"high surrogate then text", `"\uD83Dx"`, "\uFFFDx"},
		{"high surrogate then BMP escape", `"\uD83D\u0041"`, "\uFFFDA"},
		{"high surrogate then other escape", `"\uD83D\n"`, "\uFFFD\n"},
		{"two high surrogates then low", `"\uD83D\uD83D\uDE00"`, "\uFFFD😀"},
		{"low then high", `"\uDE00\uD83D"`, "\uFFFD\uFFFD"},
		{"escaped replacement character", `"\uFFFD"`, "\uFFFD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := mustParse(t, tc.in)
			if v.Kind != sc.String || v.Str != tc.want {
				t.Errorf("Parse(%s) = %v %q, want string %q", tc.in, v.Kind, v.Str, tc.want)
			}
			if v.Raw != tc.in {
				t.Errorf("Raw = %q, want the source text %q", v.Raw, tc.in)
			}
			var std string
			if err := json.Unmarshal([]byte(tc.in), &std); err != nil || std != v.Str {
				t.Errorf("encoding/json reads %q (err %v), Parse %q", std, err, v.Str)
			}
		})
	}
}

// TestParseRawAndOrder checks that every kind of value keeps its exact
// source text, interior whitespace included, and objects their member order.
func TestParseRawAndOrder(t *testing.T) {
	src := ` { "s" : "a\u0062" , "n" : -1.50E+3 , "t" : true , "f":false,` +
		"\n" + ` "z" : null , "a" : [ 1 , { } ] , "o" : { "k" : [ ] } } `
	v := mustParse(t, src)
	if want := strings.TrimSpace(src); v.Raw != want {
		t.Errorf("root Raw = %q, want %q", v.Raw, want)
	}
	want := []struct{ name, raw string }{
		{"s", `"a\u0062"`},
		{"n", `-1.50E+3`},
		{"t", `true`},
		{"f", `false`},
		{"z", `null`},
		{"a", `[ 1 , { } ]`},
		{"o", `{ "k" : [ ] }`},
	}
	if len(v.Members) != len(want) {
		t.Fatalf("%d members, want %d", len(v.Members), len(want))
	}
	for i, w := range want {
		m := v.Members[i]
		if m.Name != w.name || m.Value.Raw != w.raw {
			t.Errorf("member %d = %q with Raw %q, want %q with Raw %q", i, m.Name, m.Value.Raw, w.name, w.raw)
		}
	}
	if s := v.Get("s"); s == nil || s.Str != "ab" {
		t.Errorf("s decodes to %+v, want ab", s)
	}
	if n := v.Get("n"); n == nil || n.Num != -1500 || n.Str != "-1.50E+3" {
		t.Errorf("n = %+v, want -1500 with text -1.50E+3", n)
	}
	a := v.Get("a")
	if a == nil || len(a.Items) != 2 || a.Items[0].Raw != "1" || a.Items[1].Raw != "{ }" {
		t.Fatalf("a = %+v", a)
	}
	if a.Items[1].Kind != sc.Object || len(a.Items[1].Members) != 0 {
		t.Errorf("a[1] = %+v, want an empty object", a.Items[1])
	}
	o := v.Get("o")
	if o == nil || o.Get("k") == nil || o.Get("k").Raw != "[ ]" || len(o.Get("k").Items) != 0 {
		t.Errorf("o = %+v", o)
	}

	// order is the source's, not sorted
	rev := mustParse(t, `{"z":1,"b":2,"a":3,"y":4}`)
	var names []string
	for _, m := range rev.Members {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, ","); got != "z,b,a,y" {
		t.Errorf("member order %s, want z,b,a,y", got)
	}
}

func TestValueGet(t *testing.T) {
	v := mustParse(t, `{"a":1,"A":2,"":3,"a/b":4,"\u00e9":5}`)
	for name, want := range map[string]string{"a": "1", "A": "2", "": "3", "a/b": "4", "é": "5"} {
		if got := v.Get(name); got == nil || got.Raw != want {
			t.Errorf("Get(%q) = %+v, want the member with Raw %s", name, got, want)
		}
	}
	for _, name := range []string{"b", "a ", "\u0065\u0301", "A/B"} {
		if got := v.Get(name); got != nil {
			t.Errorf("Get(%q) = %+v, want nil", name, got)
		}
	}
	for _, text := range []string{`[1]`, `"a"`, `null`} {
		w := mustParse(t, text)
		if got := w.Get("a"); got != nil {
			t.Errorf("Get on %s = %+v, want nil", text, got)
		}
	}
}

// TestParseErrorLocation checks the JSON Pointer (RFC 6901, with ~ and /
// escaped) of the value being read and the byte offset. The offset must lie
// between the start of the offending token (lo) and the end of the first
// byte after which the text can no longer be completed into valid JSON, or
// the end of input when it is merely cut short (hi). A duplicate name is
// located on the repeated name itself.
func TestParseErrorLocation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		pointer string
		lo, hi  int
	}{
		{"bad array item", `[1,2,x]`, "/2", 5, 6},
		{"bad member value", `{"a":[1,x]}`, "/a/1", 8, 9},
		{"escaped tokens", `{"a/b":{"c~d":tru}}`, "/a~1b/c~0d", 14, 18},
		{"tilde one in a name", `{"~1":{"x":"\u00"}}`, "/~01/x", 11, 17},
		{"empty name", `[0,[1,{"":-}]]`, "/1/1/", 10, 12},
		{"control character in a string", "{\"a\":\"x\x01\"}", "/a", 5, 8},
		{"invalid UTF-8 in a string", "{\"a\":[\"x\xff\"]}", "/a/0", 6, 9},
		{"invalid UTF-8 after an escape", "{\"a\":\"\\n\xff\"}", "/a", 5, 9},
		{"unknown escape", `{"k":"\q"}`, "/k", 5, 8},
		{"leading zero", `01`, "", 0, 2},
		{"bad literal at the root", `nulx`, "", 0, 4},
		{"trailing data", `{"a":1} x`, "", 8, 9},
		{"second value", `1 2`, "", 2, 3},
		{"empty input", ``, "", 0, 0},
		{"unterminated string", `"abc`, "", 0, 4},
		{"unterminated array", `[1,2`, "", 0, 4},
		{"duplicate at the root", `{"x":1,"y":2,"x":3}`, "/x", 13, 16},
		{"duplicate nested", `{"a":1,"b":{"c":1,"c":2}}`, "/b/c", 18, 21},
		{"duplicate in an array item", `[{"k":1},{"k":1,"k":2}]`, "/1/k", 16, 19},
		{"duplicate after unescaping", `{"a/b":1,"a\u002fb":2}`, "/a~1b", 9, 19},
		{"duplicate escaped name", `{"~":1,"~":2}`, "/~0", 7, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sc.Parse([]byte(tc.in))
			var pe *sc.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, want a *ParseError", tc.in, err)
			}
			if pe.Pointer != tc.pointer {
				t.Errorf("Pointer = %q, want %q", pe.Pointer, tc.pointer)
			}
			if pe.Offset < tc.lo || pe.Offset > tc.hi {
				t.Errorf("Offset = %d, want within [%d, %d]", pe.Offset, tc.lo, tc.hi)
			}
			msg := pe.Error()
			if !strings.Contains(msg, strconv.Itoa(pe.Offset)) {
				t.Errorf("Error() = %q does not give the offset", msg)
			}
			if tc.pointer != "" && !strings.Contains(msg, tc.pointer) {
				t.Errorf("Error() = %q does not give the pointer", msg)
			}
		})
	}
}

func nested(open, leaf, close string, depth int) string {
	return strings.Repeat(open, depth) + leaf + strings.Repeat(close, depth)
}

func TestParseDepth(t *testing.T) {
	for _, tc := range []struct {
		name              string
		open, leaf, close string
		token             string
	}{
		{"arrays", "[", "1", "]", "/0"},
		{"objects", `{"k":`, "1", "}", "/k"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := mustParse(t, nested(tc.open, tc.leaf, tc.close, minSupportedDepth))
			for i := 0; i < minSupportedDepth; i++ {
				switch v.Kind {
				case sc.Array:
					v = v.Items[0]
				case sc.Object:
					v = v.Members[0].Value
				default:
					t.Fatalf("level %d is a %v", i, v.Kind)
				}
			}
			if v.Kind != sc.Number || v.Str != tc.leaf {
				t.Fatalf("innermost value = %+v", v)
			}

			// far deeper than any document; must fail cleanly, not by
			// exhausting the stack
			deep := nested(tc.open, tc.leaf, tc.close, 100_000)
			_, err := sc.Parse([]byte(deep))
			var pe *sc.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse of 100000 levels = %v, want a *ParseError", err)
			}
			if pe.Pointer == "" || strings.ReplaceAll(pe.Pointer, tc.token, "") != "" {
				t.Errorf("Pointer %.40q... is not a chain of %s", pe.Pointer, tc.token)
			}
			if pe.Offset <= 0 || pe.Offset >= len(deep) {
				t.Errorf("Offset %d outside the nesting", pe.Offset)
			}
		})
	}
}

func TestMustValueAndLiteral(t *testing.T) {
	v := sc.MustValue(` [1, {"a": "b"}] `)
	if v.Kind != sc.Array || len(v.Items) != 2 || v.Items[1].Get("a").Str != "b" {
		t.Errorf("MustValue = %+v", v)
	}
	p := sc.Literal(`1.50`)
	if p == nil || p.Kind != sc.Number || p.Str != "1.50" || p.Num != 1.5 {
		t.Errorf("Literal(1.50) = %+v", p)
	}
	for _, bad := range []string{``, `{`, `{"a":1,"a":2}`, `1 2`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MustValue(%q) did not panic", bad)
				}
			}()
			sc.MustValue(bad)
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Literal(%q) did not panic", bad)
				}
			}()
			sc.Literal(bad)
		}()
	}
}

// wideObject is an object of n distinct member names.
func wideObject(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"m` + strconv.Itoa(i) + `":0`)
	}
	return b.String()
}

// TestParseWideObject parses a half-megabyte object of distinct names (an
// ordinary request size) and finds a duplicate at its very end. How the cost
// grows with the width is BenchmarkParseWideObject's job, not a timed test.
func TestParseWideObject(t *testing.T) {
	const n = 50_000
	text := wideObject(n)
	v, err := sc.Parse([]byte(text + "}"))
	if err != nil || len(v.Members) != n {
		t.Fatalf("Parse: %v, %d members", err, len(v.Members))
	}
	// the same object with its first name repeated at the end
	_, err = sc.Parse([]byte(text + `,"m0":1}`))
	var pe *sc.ParseError
	if !errors.As(err, &pe) || pe.Pointer != "/m0" {
		t.Errorf("repeated first name: %v, want a ParseError at /m0", err)
	}
}

// BenchmarkParseWideObject reports the cost per member of objects 1,000 to
// 100,000 members wide; with duplicate detection linear overall, ns/member
// stays flat (the 1,000-member case is the baseline).
func BenchmarkParseWideObject(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		data := []byte(wideObject(n) + "}")
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := sc.Parse(data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/member")
		})
	}
}

// TestDocumentParseFirst: ParseFirst reads the value at the start of the
// text, after any space, and says where it ends, whatever follows it; its
// tree is the one Parse builds of that value alone, and stays so when the
// text it was read from is overwritten. A value cut off, or not JSON, is
// refused as Parse refuses it.
func TestDocumentParseFirst(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		n          int // 0: refused
	}{
		{"an object, then a record's next member", `{"id":"a","hours":[{"day":"monday"}]},"aliases":["x"]}`, 37},
		{"an array, then garbage", `[1,2,{"a":null}]}}}{`, 16},
		{"space before", "  \n{\"a\":1} ,", 10},
		{"a string, then a colon", `"a\"b":1`, 6},
		{"a number, then a comma", `-1.5e3,2`, 6},
		{"alone", `{"a":true}`, 10},
		{"cut off", `{"a":[1,2`, 0},
		{"a name twice", `{"a":1,"a":2},`, 0},
		{"a bad escape", `{"a":"\x"}`, 0},
		{"nothing", ` `, 0},
	} {
		data := []byte(tc.text)
		doc := sc.NewDocument()
		v, n, err := doc.ParseFirst(data)
		if (err == nil) != (tc.n > 0) || n != tc.n {
			t.Errorf("%s: ParseFirst = %d, %v; want %d", tc.name, n, err, tc.n)
			doc.Release()
			continue
		}
		if err != nil {
			doc.Release()
			continue
		}
		want, werr := sc.Parse(data[:n])
		for i := range data {
			data[i] = ' '
		}
		if werr != nil || v.Raw != want.Raw || v.Kind != want.Kind || len(v.Members) != len(want.Members) || len(v.Items) != len(want.Items) {
			t.Errorf("%s: tree %q (%v), Parse of the value alone %q (%v)", tc.name, v.Raw, v.Kind, want.Raw, werr)
		}
		doc.Release()
	}
}
