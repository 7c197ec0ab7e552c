package schemacheck_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// toStd converts a parsed tree into the shape encoding/json decodes into
// with UseNumber, so the two readings of one text can be compared.
func toStd(v *sc.Value) any {
	switch v.Kind {
	case sc.Null:
		return nil
	case sc.Bool:
		return v.Bool
	case sc.Number:
		return json.Number(v.Str)
	case sc.String:
		return v.Str
	case sc.Array:
		out := make([]any, len(v.Items))
		for i := range v.Items {
			out[i] = toStd(&v.Items[i])
		}
		return out
	case sc.Object:
		out := make(map[string]any, len(v.Members))
		for i := range v.Members {
			out[v.Members[i].Name] = toStd(&v.Members[i].Value)
		}
		return out
	}
	panic("unknown kind " + v.Kind.String())
}

// stdRead decodes data as encoding/json does, numbers kept as text.
func stdRead(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return x, nil
}

// shape walks a valid text with encoding/json's tokenizer and reports
// whether some object repeats a member name (compared after unescaping, as
// RFC 8259 §8.3 compares names) and how deeply containers nest.
func shape(data []byte) (dup bool, depth int, err error) {
	type frame struct {
		object  bool
		wantKey bool
		names   map[string]bool
	}
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return dup, depth, nil
		}
		if err != nil {
			return false, 0, err
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			if name, ok := tok.(string); ok {
				if stack[n-1].names[name] {
					dup = true
				}
				stack[n-1].names[name] = true
				stack[n-1].wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{object: tok == json.Delim('{'), wantKey: true, names: map[string]bool{}})
			depth = max(depth, len(stack))
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

// checkRaw verifies that every value's Raw is its own source text: a
// scalar's re-parses to the same value, a container's is bracketed and holds
// its children's texts in order. It stays linear in the input per level.
func checkRaw(t *testing.T, v *sc.Value) {
	t.Helper()
	switch v.Kind {
	case sc.Array, sc.Object:
		open, close := "[", "]"
		if v.Kind == sc.Object {
			open, close = "{", "}"
		}
		if !strings.HasPrefix(v.Raw, open) || !strings.HasSuffix(v.Raw, close) {
			t.Fatalf("%v Raw %q is not bracketed", v.Kind, v.Raw)
		}
		rest := v.Raw[1:]
		follow := func(child *sc.Value) {
			i := strings.Index(rest, child.Raw)
			if i < 0 {
				t.Fatalf("child Raw %q is not inside %q in order", child.Raw, v.Raw)
			}
			rest = rest[i+len(child.Raw):]
			checkRaw(t, child)
		}
		for i := range v.Items {
			follow(&v.Items[i])
		}
		for i := range v.Members {
			follow(&v.Members[i].Value)
		}
	default:
		w, err := sc.Parse([]byte(v.Raw))
		if err != nil {
			t.Fatalf("Raw %q does not parse: %v", v.Raw, err)
		}
		if !reflect.DeepEqual(toStd(&w), toStd(v)) {
			t.Fatalf("Raw %q re-parses to a different value", v.Raw)
		}
	}
}

// checkNumbers verifies each number's float against strconv, the correctly
// rounded reading of the same text.
func checkNumbers(t *testing.T, v *sc.Value) {
	t.Helper()
	switch v.Kind {
	case sc.Number:
		f, _ := strconv.ParseFloat(v.Str, 64)
		if v.Num != f || v.Str != v.Raw {
			t.Fatalf("number %q: Num %v Raw %q, want Num %v and Raw equal to the text", v.Str, v.Num, v.Raw, f)
		}
	case sc.Array:
		for i := range v.Items {
			checkNumbers(t, &v.Items[i])
		}
	case sc.Object:
		for i := range v.Members {
			checkNumbers(t, &v.Members[i].Value)
		}
	}
}

const jsonSpace = " \t\n\r"

// maxFuzzInput bounds the inputs FuzzParse checks.
const maxFuzzInput = 64 << 10

func FuzzParse(f *testing.F) {
	for _, tc := range grammarCases {
		f.Add([]byte(tc.in))
	}
	for _, s := range []string{
		`{"a":[1,2.5e-3,{"b":null,"c":"\ud83d\ude00x"}],"d":{"":true}}`,
		`[{"k":1},{"k":1,"K":2}]`,
		`{"a":1,"b":{"a":2}}`,
		" [ -0 , 1E+2 , \"\\u00e9\\/\" ] ",
		nested("[", "0", "]", 40),
		nested(`{"x":`, "[]", "}", 40),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// large inputs only slow the search down; the grammar is
		// exercised as well by small ones
		if len(data) > maxFuzzInput {
			return
		}
		v, err := sc.Parse(data)
		valid := json.Valid(data)
		if err != nil {
			var pe *sc.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(data) {
				t.Fatalf("offset %d outside the %d-byte input", pe.Offset, len(data))
			}
			if pe.Pointer != "" && pe.Pointer[0] != '/' {
				t.Fatalf("pointer %q is not a JSON Pointer", pe.Pointer)
			}
			if !valid || !utf8.Valid(data) {
				return
			}
			dup, depth, serr := shape(data)
			if serr != nil {
				t.Fatalf("encoding/json accepts %q but cannot tokenize it: %v", data, serr)
			}
			if !dup && depth <= minSupportedDepth {
				t.Fatalf("Parse refused valid JSON %q without duplicate names: %v", data, err)
			}
			return
		}

		if !valid {
			t.Fatalf("Parse accepted %q, which encoding/json rejects", data)
		}
		if !utf8.Valid(data) {
			t.Fatalf("Parse accepted invalid UTF-8 %q", data)
		}
		if dup, _, _ := shape(data); dup {
			t.Fatalf("Parse accepted duplicate member names in %q", data)
		}
		std, serr := stdRead(data)
		if serr != nil {
			t.Fatalf("encoding/json cannot decode %q: %v", data, serr)
		}
		if got := toStd(&v); !reflect.DeepEqual(got, std) {
			t.Fatalf("Parse(%q) reads %#v, encoding/json %#v", data, got, std)
		}
		if want := string(bytes.Trim(data, jsonSpace)); v.Raw != want {
			t.Fatalf("root Raw %q, want %q", v.Raw, want)
		}
		checkRaw(t, &v)
		checkNumbers(t, &v)
	})
}
