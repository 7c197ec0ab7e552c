package schemacheck_test

import (
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// equalCases follow JSON Schema 2020-12 core §4.2.2: numbers are equal when
// mathematically equal whatever their spelling, strings when their code
// points are, arrays item by item in order, objects when they have the same
// names with equal values in any order, and values of different types never.
var equalCases = []struct {
	a, b string
	want bool
}{
	// numbers
	{`1`, `1.0`, true},
	{`1`, `1e0`, true},
	{`1.0`, `1e0`, true},
	{`100`, `1e2`, true},
	{`1E2`, `100.000`, true},
	{`0.1e1`, `1`, true},
	{`10e-1`, `1`, true},
	{`-2.50`, `-25e-1`, true},
	{`0`, `-0`, true},
	{`0`, `0.0e5`, true},
	{`-0.0`, `0e-7`, true},
	{`1`, `-1`, false},
	{`1`, `2`, false},
	{`0.1`, `0.10000000000000001`, false}, // one float64, two numbers
	{`1`, `1.0000000000000000000001`, false},
	{`9007199254740993`, `9007199254740992`, false},
	{`9007199254740993`, `9007199254740993.0`, true},
	{`9007199254740993`, `90071992547409930e-1`, true},
	{`123456789012345678901234567890`, `1.23456789012345678901234567890e29`, true},
	{`123456789012345678901234567890`, `123456789012345678901234567891`, false},
	{`1e400`, `1e400`, true},
	{`1e400`, `10e399`, true},
	{`1e400`, `0.1e401`, true},
	{`1e400`, `2e400`, false},
	{`1e400`, `1e401`, false},
	{`-1e400`, `1e400`, false},
	{`-1e400`, `-1e400`, true},
	{`1e-400`, `0`, false},
	{`1e-400`, `-1e-400`, false},
	{`1e-400`, `2e-400`, false},
	{`1e-400`, `0.1e-399`, true},
	// exponents beyond int64 still name different numbers
	{`1e99999999999999999999`, `1e99999999999999999999`, true},
	{`1e99999999999999999999`, `1e99999999999999999998`, false},
	{`1e-99999999999999999999`, `1e-99999999999999999998`, false},
	{`1e99999999999999999999`, `10e99999999999999999998`, true},

	// other scalars
	{`null`, `null`, true},
	{`true`, `true`, true},
	{`false`, `false`, true},
	{`true`, `false`, false},
	{`""`, `""`, true},
	{`"a"`, `"a"`, true},
	{`"a"`, `"A"`, false},
	{`"a"`, `"a "`, false},
	{`"é"`, `"\u00e9"`, true},
	{`"é"`, `"e\u0301"`, false}, // canonically equivalent, different code points
	{`"😀"`, `"\ud83d\ude00"`, true},
	{`"/"`, `"\/"`, true},

	// different types
	{`1`, `"1"`, false},
	{`0`, `false`, false},
	{`0`, `null`, false},
	{`""`, `null`, false},
	{`false`, `null`, false},
	{`[]`, `{}`, false},
	{`[]`, `null`, false},
	{`{}`, `null`, false},
	{`"true"`, `true`, false},

	// arrays
	{`[]`, `[]`, true},
	{`[1,2]`, `[1.0,2e0]`, true},
	{`[1,2]`, `[2,1]`, false},
	{`[1]`, `[1,1]`, false},
	{`[1,1]`, `[1]`, false},
	{`[[]]`, `[]`, false},
	{`[null]`, `[]`, false},
	{`[[1,[2]],{"a":[3]}]`, `[[1.0,[2e0]],{"a":[30e-1]}]`, true},

	// objects
	{`{}`, `{}`, true},
	{`{"a":1,"b":2}`, `{"b":2.0,"a":1}`, true},
	{`{"a":1}`, `{"a":1,"b":2}`, false},
	{`{"a":1,"b":2}`, `{"a":1}`, false},
	{`{"a":1,"b":2}`, `{"a":1,"c":2}`, false},
	{`{"a":null}`, `{}`, false},
	{`{"a":1}`, `{"A":1}`, false},
	{`{"a":1}`, `{"a":"1"}`, false},
	{`{"\u0061":1}`, `{"a":1}`, true},
	{`{"a":{"x":[1,{"y":null}]},"b":[]}`, `{"b":[],"a":{"x":[1.0,{"y":null}]}}`, true},
	{`{"a":{"x":[1,{"y":null}]}}`, `{"a":{"x":[{"y":null},1]}}`, false},
}

func TestEqual(t *testing.T) {
	for _, tc := range equalCases {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		if got := sc.Equal(&a, &b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := sc.Equal(&b, &a); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
		if !sc.Equal(&a, &a) || !sc.Equal(&b, &b) {
			t.Errorf("Equal is not reflexive on %s or %s", tc.a, tc.b)
		}
	}
}

// canonical renders a parsed value so that reflect.DeepEqual decides JSON
// Schema equality: numbers become exact rationals in lowest terms.
func canonical(v *sc.Value) any {
	switch v.Kind {
	case sc.Number:
		r, ok := new(big.Rat).SetString(v.Str)
		if !ok {
			panic("big.Rat cannot read JSON number " + v.Str)
		}
		return "number " + r.RatString()
	case sc.Array:
		out := make([]any, len(v.Items))
		for i := range v.Items {
			out[i] = canonical(&v.Items[i])
		}
		return out
	case sc.Object:
		out := make(map[string]any, len(v.Members))
		for i := range v.Members {
			out[v.Members[i].Name] = canonical(&v.Members[i].Value)
		}
		return out
	}
	return toStd(v)
}

// modestExponents reports whether every number in v has an exponent small
// enough for big.Rat to expand it cheaply.
func modestExponents(v *sc.Value) bool {
	switch v.Kind {
	case sc.Number:
		i := strings.IndexAny(v.Str, "eE")
		if i < 0 {
			return true
		}
		e, err := strconv.ParseInt(v.Str[i+1:], 10, 32)
		return err == nil && e > -2000 && e < 2000
	case sc.Array:
		for i := range v.Items {
			if !modestExponents(&v.Items[i]) {
				return false
			}
		}
	case sc.Object:
		for i := range v.Members {
			if !modestExponents(&v.Members[i].Value) {
				return false
			}
		}
	}
	return true
}

// FuzzEqual compares Equal with exact rational arithmetic on any two JSON
// texts that parse.
func FuzzEqual(f *testing.F) {
	for _, tc := range equalCases {
		f.Add([]byte(tc.a), []byte(tc.b))
	}
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) > 4096 || len(y) > 4096 {
			return
		}
		a, err1 := sc.Parse(x)
		b, err2 := sc.Parse(y)
		if err1 != nil || err2 != nil || !modestExponents(&a) || !modestExponents(&b) {
			return
		}
		want := reflect.DeepEqual(canonical(&a), canonical(&b))
		if got := sc.Equal(&a, &b); got != want {
			t.Fatalf("Equal(%s, %s) = %v, exact comparison says %v", x, y, got, want)
		}
		if got := sc.Equal(&b, &a); got != want {
			t.Fatalf("Equal(%s, %s) = %v, exact comparison says %v", y, x, got, want)
		}
	})
}

func TestInt64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{`0`, 0, true},
		{`-0`, 0, true},
		{`1`, 1, true},
		{`-1`, -1, true},
		// integrality is the number's, not its spelling's
		{`1.0`, 1, true},
		{`1e3`, 1000, true},
		{`1E+3`, 1000, true},
		{`0.5e1`, 5, true},
		{`1500e-2`, 15, true},
		{`-2.50e1`, -25, true},
		{`0.0e-9`, 0, true},
		{`1e18`, 1_000_000_000_000_000_000, true},
		{`4503599627370496`, 1 << 52, true},
		{`9007199254740992`, 1 << 53, true},
		{`-9007199254740992`, -(1 << 53), true},
		{`-9223372036854775808`, math.MinInt64, true},
		{`-9.223372036854775808e18`, math.MinInt64, true},
		// every int64 converts exactly, including those float64 cannot hold
		{`9223372036854775807`, math.MaxInt64, true},
		{`9.223372036854775807e18`, math.MaxInt64, true},
		{`9223372036854775806`, math.MaxInt64 - 1, true},
		{`-9223372036854775807`, math.MinInt64 + 1, true},
		{`9007199254740993`, 1<<53 + 1, true},
		{`-9007199254740993`, -(1<<53 + 1), true},
		{`4611686018427387903`, 1<<62 - 1, true},
		{`123456789012345678`, 123456789012345678, true},
		{`1.5`, 0, false},
		{`0.1`, 0, false},
		{`-0.5`, 0, false},
		{`1e-1`, 0, false},
		{`100e-3`, 0, false},
		{`1.0000000000000000000001`, 0, false},
		// outside [-2^63, 2^63-1]: saturated at the nearest bound
		{`9223372036854775808`, math.MaxInt64, true},
		{`9223372036854775808.0`, math.MaxInt64, true},
		{`-9223372036854775809`, math.MinInt64, true},
		{`-9.223372036854775809e18`, math.MinInt64, true},
		{`9.3e18`, math.MaxInt64, true},
		{`1e19`, math.MaxInt64, true},
		{`-1e19`, math.MinInt64, true},
		{`1e400`, math.MaxInt64, true},
		{`-1e400`, math.MinInt64, true},
		{`1e99999999999999999999`, math.MaxInt64, true},
		{`-0e400`, 0, true},
		// not numbers
		{`"1"`, 0, false},
		{`true`, 0, false},
		{`null`, 0, false},
		{`[1]`, 0, false},
		{`{}`, 0, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			v := mustParse(t, tc.in)
			got, err := sc.Int64(&v)
			if !tc.ok {
				if err == nil {
					t.Fatalf("Int64(%s) = %d, want an error", tc.in, got)
				}
				// decoders nest this error with At, which needs the
				// typed error with a pointer relative to the value
				e, isParams := rpcerr.AsInvalidParams(err)
				if !isParams || len(e.Violations) != 1 || e.Violations[0].Pointer != "" {
					t.Errorf("Int64(%s) error = %#v, want one InvalidParams violation at the value", tc.in, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Int64(%s) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}
