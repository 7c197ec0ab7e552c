package jsonmember

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// validCases are well-formed objects with every kind of value, escapes in
// names and strings, nesting and whitespace.
var validCases = []string{
	`{}`,
	` { } `,
	`{"a":1,"b":{"c":[2]},"a":"x"}`,
	`{"it\u0065ms":["i"],"x":null,"t":true,"f":false}`,
	`{"s":"a\"b\\","n":-1.5e+10,"o":{"p":{"q":[[],{},"]}"]}},"z":0}`,
	"{\n\t\"a\" : [ 1 , { \"b\" : \"\\\\\\\"\" } ] ,\r\n \"c\" : \"\\u00e9}\" }",
	`{"deep":` + strings.Repeat(`[`, maxScanDepth+5) + strings.Repeat(`]`, maxScanDepth+5) + `,"after":1}`,
	`{"a":"é","b":"\\","c":"\\\\"}`,
}

// TestEachValidMatchesEach holds EachValid and FirstValid to Each and
// First on well-formed objects, names repeated and escaped included.
func TestEachValidMatchesEach(t *testing.T) {
	for _, in := range validCases {
		checkValidWalks(t, []byte(in))
	}
	if err := EachValid([]byte(`[1]`), func(string, json.RawMessage) error { return nil }); err != ErrNotObject {
		t.Errorf("an array: err %v, want ErrNotObject", err)
	}
}

func checkValidWalks(t *testing.T, in []byte) {
	t.Helper()
	if got, want := walkTrace(EachValid, in), walkTrace(eachMemberDecoder, in); got != want {
		t.Fatalf("%q:\nEachValid %s\ndecoder   %s", in, got, want)
	}
	_ = EachValid(in, func(key string, _ json.RawMessage) error {
		got, ok := FirstValid(in, key)
		want, wantOK := firstByEach(in, key)
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("FirstValid(%q, %q) = %q, %v; Each finds %q", in, key, got, ok, want)
		}
		return nil
	})
	if _, ok := FirstValid(in, "\x00absent"); ok {
		t.Fatalf("FirstValid(%q) found an absent name", in)
	}
}

// FuzzEachValid holds the walks for well-formed JSON to the decoder on
// well-formed input, and to ending without a panic on any input.
func FuzzEachValid(f *testing.F) {
	for _, in := range validCases {
		f.Add([]byte(in))
	}
	f.Add([]byte(`{"a":"\`))
	f.Add([]byte(`{"a":[}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		_ = EachValid(in, func(string, json.RawMessage) error { return nil })
		_, _ = FirstValid(in, "a")
		// Objects only: for other values the decoder's error varies.
		if i := skipSpace(in, 0); i < len(in) && in[i] == '{' && json.Valid(in) {
			checkValidWalks(t, in)
		}
	})
}
