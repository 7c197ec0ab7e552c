package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// joined is the array of the JSON encodings of values, with a span at each
// element.
func joined(t *testing.T, values []any) ([]byte, []Span) {
	t.Helper()
	body := []byte("[")
	var spans []Span
	for i, v := range values {
		if i > 0 {
			body = append(body, ',')
		}
		enc := NewEncoded(marshal(t, v))
		spans = append(spans, Span{Start: len(body), Encoded: enc})
		body = append(body, enc.JSON()...)
	}
	return append(body, ']'), spans
}

func TestAppendJSONAsStringSpansMatchesOnePass(t *testing.T) {
	var values []any
	for _, s := range tricky {
		values = append(values, map[string]any{"k": s, "n": 1.5})
	}
	body, spans := joined(t, values)
	want := AppendJSONAsString([]byte("x"), body)
	if got := AppendJSONAsStringSpans([]byte("x"), body, spans); !bytes.Equal(got, want) {
		t.Fatalf("with spans:\n got %q\nwant %q", got, want)
	}
	// A text that is not canonical (raw '<', invalid UTF-8) between the
	// spans, and as a span of its own.
	raw := []byte(`[<"` + "\xff" + `">,` + `{"a":"\u2028"}]`)
	odd := []Span{{Start: 8, Encoded: NewEncoded([]byte(`{"a":"` + "\u2028" + `"}`))}}
	raw = append(raw[:8], append(odd[0].Encoded.JSON(), ']')...)
	if got, want := AppendJSONAsStringSpans(nil, raw, odd), AppendJSONAsString(nil, raw); !bytes.Equal(got, want) {
		t.Fatalf("non-canonical text:\n got %q\nwant %q", got, want)
	}
}

// TestAppendJSONAsStringSpansDistrustsBadSpans gives spans that lie about
// the body; the text must be the body's own, never the spans'.
func TestAppendJSONAsStringSpansDistrustsBadSpans(t *testing.T) {
	body, spans := joined(t, []any{"a", map[string]any{"b": `"q"`}, "c"})
	liar := NewEncoded([]byte(`"a"`))
	liar.text = []byte(`LIE`)
	cases := map[string][]Span{
		"shifted":       {{Start: spans[1].Start + 1, Encoded: spans[1].Encoded}},
		"out of order":  {spans[1], spans[0]},
		"overlapping":   {spans[1], {Start: spans[1].Start + 2, Encoded: spans[2].Encoded}},
		"past the end":  {{Start: len(body) - 1, Encoded: spans[1].Encoded}},
		"beyond it":     {{Start: len(body) + 4, Encoded: spans[0].Encoded}},
		"other bytes":   {{Start: spans[2].Start, Encoded: spans[0].Encoded}},
		"nil encoding":  {{Start: spans[0].Start}},
		"negative":      {{Start: -1, Encoded: spans[0].Encoded}},
		"matching liar": {{Start: spans[0].Start, Encoded: liar}},
	}
	want := AppendJSONAsString(nil, body)
	for name, bad := range cases {
		got := AppendJSONAsStringSpans(nil, body, bad)
		if name == "matching liar" {
			// A span whose JSON matches is trusted for its text: that is
			// why Encoded keeps both and is read-only.
			if !bytes.Contains(got, []byte("LIE")) {
				t.Errorf("%s: the matching span's text was not used: %q", name, got)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}

// FuzzAppendJSONAsStringSpans holds the text with spans to the one-pass
// text for bodies made of two fuzzed values and the bytes between them.
func FuzzAppendJSONAsStringSpans(f *testing.F) {
	f.Add("plain", "<&>", ",")
	f.Add(`"q" \ b`, "Caf\u00e9 \u2028", "\xff")
	f.Add("", "\x00", "\xe2\x80")
	// A raw part that ends a rune the separator began.
	f.Add("", "\xb9", "\xe2\x80")
	f.Fuzz(func(t *testing.T, a, b, sep string) {
		ea, _ := json.Marshal(map[string]string{"a": a})
		eb, _ := json.Marshal([]string{b})
		for _, pair := range [][2][]byte{{ea, eb}, {[]byte(a), []byte(b)}} {
			x, y := NewEncoded(pair[0]), NewEncoded(pair[1])
			body := append(append(append([]byte(sep), x.JSON()...), sep...), y.JSON()...)
			spans := []Span{{Start: len(sep), Encoded: x}, {Start: 2*len(sep) + len(x.JSON()), Encoded: y}}
			want := AppendJSONAsString([]byte("x"), body)
			if got := AppendJSONAsStringSpans([]byte("x"), body, spans); !bytes.Equal(got, want) {
				t.Fatalf("body %q:\n got %q\nwant %q", body, got, want)
			}
		}
	})
}

type memoed struct {
	Name  string
	Tags  []string
	Attrs map[string]string
	N     float64
	Set   bool
}

func TestMemoCopiesOnlyUnchangedCopies(t *testing.T) {
	src := []*memoed{
		{Name: "a", Tags: []string{"t"}, Attrs: map[string]string{"k": "v"}, N: 1, Set: true},
		{Name: "b"},
	}
	// The recorded encodings differ from what the values would encode to,
	// so the output shows which one was written.
	enc := []*Encoded{NewEncoded([]byte(`"memo a"`)), nil}
	var m Memo[memoed]
	m.Set(src, enc)
	copies := []memoed{*src[0], *src[1]}

	var spans []Span
	got, ok := m.Append([]byte("["), 0, &copies[0], &spans)
	if !ok || string(got) != `["memo a"` || len(spans) != 1 || spans[0].Start != 1 || spans[0].Encoded != enc[0] {
		t.Fatalf("unchanged copy: %q, %v, spans %v", got, ok, spans)
	}
	if _, ok := m.Append(nil, 1, &copies[1], nil); ok {
		t.Error("an element without an encoding used one")
	}
	if _, ok := m.Append(nil, 2, &copies[0], nil); ok {
		t.Error("an index past the memo used one")
	}
	if _, ok := m.Append(nil, 1, &copies[0], nil); ok {
		t.Error("element 0's value was taken as element 1's")
	}
	changes := map[string]func(v *memoed){
		"string":        func(v *memoed) { v.Name = "a2" },
		"same string":   func(v *memoed) { v.Name = string([]byte("a")) },
		"slice element": func(v *memoed) { v.Tags = append([]string(nil), v.Tags...) },
		"slice length":  func(v *memoed) { v.Tags = v.Tags[:0] },
		"map":           func(v *memoed) { v.Attrs = map[string]string{"k": "v"} },
		"number":        func(v *memoed) { v.N = 2 },
		"bool":          func(v *memoed) { v.Set = false },
	}
	for name, change := range changes {
		v := *src[0]
		change(&v)
		if b, ok := m.Append([]byte("["), 0, &v, &spans); ok || string(b) != "[" {
			t.Errorf("%s: a changed copy used the memo: %q", name, b)
		}
	}
	var mismatched Memo[memoed]
	mismatched.Set(src, enc[:1])
	if _, ok := mismatched.Append(nil, 0, &copies[0], nil); ok {
		t.Error("a memo with a length mismatch was used")
	}
	var zero Memo[memoed]
	if _, ok := zero.Append(nil, 0, &copies[0], nil); ok {
		t.Error("the zero memo was used")
	}
}
