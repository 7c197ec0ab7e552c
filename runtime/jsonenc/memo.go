package jsonenc

import (
	"bytes"
	"slices"
	"unsafe"
)

// A response repeats the same records call after call. Encoded holds a
// record's JSON, made once by the Source that loaded it, with that JSON
// already escaped for the MCP text block; Memo lets a generated encoder copy
// it for each element of a response that is still the value it was made
// from; Span tells the text block where the copies are.

// Encoded is one value's JSON and the same JSON as JSON string content, made
// once so that every response copies both instead of encoding the value and
// escaping the result again. It is read-only once made.
type Encoded struct {
	json, text []byte
}

// NewEncoded keeps a copy of canonical, the bytes the value's generated
// AppendJSON writes, and its escaped text.
func NewEncoded(canonical []byte) *Encoded {
	json := slices.Clip(slices.Clone(canonical))
	return &Encoded{json: json, text: slices.Clip(appendText(nil, json))}
}

// JSON is the value's encoding; the caller must not modify it.
func (e *Encoded) JSON() []byte { return e.json }

// Span records that body[Start:] begins with a copy of Encoded's JSON, so
// AppendJSONAsStringSpans copies its text there instead of escaping it.
type Span struct {
	Start   int
	Encoded *Encoded
}

// AppendJSONAsStringSpans appends what AppendJSONAsString(b, body) does,
// copying the escaped text of each span in place of escaping it. Spans that
// are out of order, overlap, or do not match the body are not trusted: the
// whole body is then escaped.
func AppendJSONAsStringSpans(b []byte, body []byte, spans []Span) []byte {
	if !spansMatch(body, spans) {
		return AppendJSONAsString(b, body)
	}
	b = slices.Grow(b, len(body)+len(body)/8+2)
	b = append(b, '"')
	at := 0
	for _, s := range spans {
		b = appendText(b, body[at:s.Start])
		b = append(b, s.Encoded.text...)
		at = s.Start + len(s.Encoded.json)
	}
	b = appendText(b, body[at:])
	return append(b, '"')
}

// spansMatch reports whether every span holds its JSON at its offset, in
// order and without overlap, and begins and ends with an ASCII byte. The
// text of a concatenation is the concatenation of the texts of its parts
// when no cut falls inside a rune (nor inside an invalid sequence, which is
// written byte by byte): an ASCII byte on each side of a cut makes sure.
// Every JSON value begins and ends with one.
func spansMatch(body []byte, spans []Span) bool {
	at := 0
	for _, s := range spans {
		if s.Encoded == nil || s.Start < at || s.Start > len(body) {
			return false
		}
		if j := s.Encoded.json; len(j) == 0 || j[0] >= 0x80 || j[len(j)-1] >= 0x80 {
			return false
		}
		end := s.Start + len(s.Encoded.json)
		if end > len(body) || !bytes.Equal(body[s.Start:end], s.Encoded.json) {
			return false
		}
		at = end
	}
	return true
}

// Memo holds, for the elements of a generated slice member, the value each
// element was copied from and that value's Encoded form. The generated
// encoder copies the Encoded JSON for an element that is still a bitwise
// copy of its value (same strings, slices and maps, same numbers): any
// assignment to the element after the copy makes it encode afresh. The
// values and what they reference must not change after Set, which a
// Source's Locations already promise (they are read-only and shared by
// concurrent calls). The zero Memo holds nothing.
type Memo[T any] struct {
	from []*T
	enc  []*Encoded
}

// Set records that element i was copied from from[i], whose encoding is
// enc[i] (nil: none). Both slices are kept, not copied.
func (m *Memo[T]) Set(from []*T, enc []*Encoded) {
	if len(from) != len(enc) {
		m.from, m.enc = nil, nil
		return
	}
	m.from, m.enc = from, enc
}

// Append appends element i's recorded encoding to b, and its span to
// spans when spans is not nil, if v is still a bitwise copy of the value it
// was copied from; ok is false otherwise, and then b is unchanged.
func (m *Memo[T]) Append(b []byte, i int, v *T, spans *[]Span) (_ []byte, ok bool) {
	if i < 0 || i >= len(m.enc) || m.enc[i] == nil || m.from[i] == nil || !sameBits(v, m.from[i]) {
		return b, false
	}
	if spans != nil {
		if len(*spans) == cap(*spans) {
			// Room for the elements after this one too: one allocation.
			*spans = slices.Grow(*spans, len(m.enc)-i)
		}
		*spans = append(*spans, Span{Start: len(b), Encoded: m.enc[i]})
	}
	return append(b, m.enc[i].json...), true
}

// sameBits reports whether *a and *b hold the same bytes: for the generated
// types (strings, slices, maps, pointers and numbers) that is the same value
// referring to the same memory. Padding is compared too, so a copy made
// some other way than by assignment may differ: then the element is only
// encoded again.
func sameBits[T any](a, b *T) bool {
	if a == b {
		return true
	}
	n := unsafe.Sizeof(*a)
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}
