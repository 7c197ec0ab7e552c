// Package jsonenc appends JSON values to a byte slice exactly as
// encoding/json writes them (HTML-safe escaping, the same float format, raw
// values compacted), so generated encoders can write a whole response in one
// pass, without reflection, and still produce the bytes json.Marshal would.
package jsonenc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// safe marks the ASCII bytes encoding/json writes unescaped with HTML
// escaping on: printable characters other than '"', '\\', '<', '>' and '&'.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// AppendString appends s as a JSON string: invalid UTF-8 becomes U+FFFD, and
// control characters, '<', '>', '&', U+2028 and U+2029 are escaped.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendStringText(b, s)
	return append(b, '"')
}

// appendStringText is AppendString without the quotes. Each rune is written
// on its own, so the text of a concatenation is the concatenation of the
// texts of its parts, when they are cut between runes.
func appendStringText(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		// Runs of safe ASCII, most of most strings, are skipped a word at
		// a time.
		if i = safeRun(s, i); i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

// AppendFloat appends f in encoding/json's format: the shortest
// representation that round-trips, in exponent form only for very small or
// very large magnitudes. NaN and infinities have no JSON form and are an
// error.
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("unsupported number %v: JSON has no NaN or infinity", f)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Two-digit negative exponents lose their leading zero (1e-07 -> 1e-7).
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// AppendInt appends an integer.
func AppendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendRaw appends a raw JSON value compacted and HTML-escaped, as
// encoding/json writes a json.RawMessage; an empty value is null.
func AppendRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return append(b, "null"...), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return b, fmt.Errorf("raw value: %w", err)
	}
	if !bytes.ContainsAny(buf.Bytes(), "<>&\u2028\u2029") {
		return append(b, buf.Bytes()...), nil
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, buf.Bytes())
	return append(b, esc.Bytes()...), nil
}

// Object writes the members of one JSON object: each member is appended
// with a leading comma, and Close turns the first comma into the opening
// brace, so optional members need no bookkeeping of their own.
type Object struct{ start int }

// Open starts an object at the end of b.
func Open(b []byte) ([]byte, Object) { return b, Object{start: len(b)} }

// Key appends ,"name": for a member whose name is already a JSON-safe
// literal (quoted and escaped by the generator).
func Key(b []byte, quoted string) []byte {
	b = append(b, ',')
	b = append(b, quoted...)
	return append(b, ':')
}

// Close ends the object opened at o.
func (o Object) Close(b []byte) []byte {
	if len(b) == o.start {
		return append(b, '{', '}')
	}
	b[o.start] = '{'
	return append(b, '}')
}

// AppendMembers appends the unknown members of an open object in name
// order, each with a leading comma (see Object). A name that known reports as
// a typed member is an error: the two would both claim one name.
func AppendMembers(b []byte, unknown map[string]json.RawMessage, known func(string) bool) ([]byte, error) {
	if len(unknown) == 0 {
		return b, nil
	}
	keys := make([]string, 0, len(unknown))
	for k := range unknown {
		if known(k) {
			return b, fmt.Errorf("unknown member %q duplicates a typed field", k)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var err error
	for _, k := range keys {
		b = append(b, ',')
		b = AppendString(b, k)
		b = append(b, ':')
		if b, err = AppendRaw(b, unknown[k]); err != nil {
			return b, fmt.Errorf("member %q: %w", k, err)
		}
	}
	return b, nil
}

// SortedKeys appends the keys of m to buf, sorts them and returns the
// result, the order encoding/json writes a map in. Generated encoders pass
// a small buffer of their own, so a map that fits in it (an amenity list)
// is written without allocating its keys.
func SortedKeys[M ~map[K]V, K ~string, V any](m M, buf []K) []K {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}
