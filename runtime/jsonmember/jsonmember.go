// Package jsonmember walks the members of a JSON object exactly as written,
// repeated names included, so that every reader of a request (the MCP
// envelope, the tool arguments, the UCP meta) sees the same members and
// none can be fooled by a decoder that keeps the last of two.
package jsonmember

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"slices"
)

// ErrNotObject is Each's answer for JSON that is not an object, so a caller
// can tell "wrong type" from "does not parse".
var ErrNotObject = errors.New("not a JSON object")

// SyntaxError is an object that does not parse; it exists so a caller can
// point at the member whose value failed (Key, when InValue is set).
type SyntaxError struct {
	Key     string
	InValue bool
	Err     error
}

func (e *SyntaxError) Error() string { return e.Err.Error() }
func (e *SyntaxError) Unwrap() error { return e.Err }

// Each calls f with every member of the JSON object obj, in order and
// repeated names included, and returns f's first error. JSON that is not an
// object gives ErrNotObject; an object that does not parse, a
// *SyntaxError.
//
// Every request walks several objects this way, so a well-formed object is
// walked by a scanner of its own that allocates nothing but the keys; any
// input it does not accept whole (malformed, or nested beyond
// maxScanDepth) goes to encoding/json's decoder, which then reports the
// members before the fault and the fault itself exactly as before.
func Each(obj []byte, f func(key string, value json.RawMessage) error) error {
	_, err := EachScanned(obj, f)
	return err
}

// EachScanned is Each that also reports whether obj is one object, with
// only whitespace around it, that the scanner accepts whole (what Scans
// reports), so that a reader that needs to know both walks obj once.
func EachScanned(obj []byte, f func(key string, value json.RawMessage) error) (scanned bool, err error) {
	var room [16]member
	ms, end, ok := scanMembers(obj, room[:0])
	if !ok {
		return false, eachMemberDecoder(obj, f)
	}
	for _, m := range ms {
		// Capped, so that a caller appending to a value cannot write into obj.
		if err := f(m.key, json.RawMessage(obj[m.start:m.end:m.end])); err != nil {
			return false, err
		}
	}
	return skipSpace(obj, end) == len(obj), nil
}

// First is the value of obj's first member named name, read no further
// than that member; ok is false when obj is not an object or has no such
// member before its end, a syntax error or nesting beyond maxScanDepth.
// It is for objects already validated, where reading the rest would only
// repeat that work.
func First(obj []byte, name string) (_ json.RawMessage, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i = skipSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd, vStart, vEnd, ok := scanMember(obj, i)
		if !ok {
			return nil, false
		}
		is, ok := nameIs(obj[i:kEnd], name)
		if !ok {
			return nil, false
		}
		if is {
			return json.RawMessage(obj[vStart:vEnd:vEnd]), true
		}
		if i = skipSpace(obj, vEnd); i >= len(obj) || obj[i] != ',' {
			return nil, false
		}
		i = skipSpace(obj, i+1)
	}
	return nil, false
}

// nameIs reports whether the member name raw (a JSON string the scanner
// accepted) decodes to name, without allocating for a plain one.
func nameIs(raw []byte, name string) (is, ok bool) {
	plain := raw[1 : len(raw)-1]
	if !slices.ContainsFunc(plain, func(c byte) bool { return c == '\\' || c >= 0x80 }) {
		return string(plain) == name, true
	}
	key, ok := memberName(raw)
	return key == name, ok
}

// scanMember reads the member whose name begins at obj[i] (a '"'): the
// name ends at kEnd, the value lies at obj[vStart:vEnd] (one level inside
// the object); ok is false when either does not scan or the ':' is missing.
func scanMember(obj []byte, i int) (kEnd, vStart, vEnd int, ok bool) {
	if kEnd = scanString(obj, i); kEnd < 0 {
		return 0, 0, 0, false
	}
	if vStart = skipSpace(obj, kEnd); vStart >= len(obj) || obj[vStart] != ':' {
		return 0, 0, 0, false
	}
	vStart = skipSpace(obj, vStart+1)
	if vEnd = scanValue(obj, vStart, 1); vEnd < 0 {
		return 0, 0, 0, false
	}
	return kEnd, vStart, vEnd, true
}

// member is one member Each found: its name and where its value lies.
type member struct {
	key        string
	start, end int
}

// scanMembers appends to ms the members of obj, when obj begins with one
// object the scanner accepts whole (as Each did before it, the bytes after
// that object are not looked at), and returns where that object ends; ok
// is false otherwise. The object is read once: each value is scanned where
// it lies and not again.
func scanMembers(obj []byte, ms []member) (_ []member, end int, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, 0, false
	}
	if i = skipSpace(obj, i+1); i < len(obj) && obj[i] == '}' {
		return ms, i + 1, true
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return nil, 0, false
		}
		kEnd, vStart, vEnd, ok := scanMember(obj, i)
		if !ok {
			return nil, 0, false
		}
		key, ok := memberName(obj[i:kEnd])
		if !ok {
			return nil, 0, false
		}
		ms = append(ms, member{key: key, start: vStart, end: vEnd})
		if i = skipSpace(obj, vEnd); i >= len(obj) {
			return nil, 0, false
		}
		switch obj[i] {
		case ',':
			i = skipSpace(obj, i+1)
		case '}':
			return ms, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// memberName decodes a member's name, a JSON string the scanner accepted;
// names with escapes or non-ASCII bytes go through encoding/json.
func memberName(raw []byte) (string, bool) {
	if key, ok := PlainString(raw); ok {
		return key, true
	}
	var key string
	if json.Unmarshal(raw, &key) != nil {
		return "", false
	}
	return key, true
}

// PlainString is the text of a JSON string without escapes or non-ASCII
// bytes, which decodes to itself; ok is false for any other string. It
// exists so a hot path can read names without a decoder's allocations.
func PlainString(raw []byte) (string, bool) {
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c >= 0x80 {
			return "", false
		}
	}
	return internKey(raw[1 : len(raw)-1]), true
}

// internKey is key as a string, without allocating for the member names
// every tools/call walks (the JSON-RPC envelope, the params, the UCP
// meta, the Location tools' arguments), which would otherwise be a dozen
// small strings per call.
func internKey(key []byte) string {
	switch string(key) { // compared without a conversion
	case "jsonrpc":
		return "jsonrpc"
	case "id":
		return "id"
	case "method":
		return "method"
	case "params":
		return "params"
	case "name":
		return "name"
	case "arguments":
		return "arguments"
	case "_meta":
		return "_meta"
	case "meta": // the UCP tool argument carrying ucp-agent
		return "meta"
	case "ucp-agent":
		return "ucp-agent"
	case "profile":
		return "profile"
	case "version":
		return "version"
	case "capabilities":
		return "capabilities"
	// The members of the Location tools' arguments, which a rate limit's
	// predicate and the core's argument split walk on every call.
	case "location":
		return "location"
	case "ids":
		return "ids"
	case "distance":
		return "distance"
	case "serves":
		return "serves"
	case "filters":
		return "filters"
	case "hours":
		return "hours"
	case "amenities":
		return "amenities"
	case "items":
		return "items"
	case "query":
		return "query"
	case "pagination":
		return "pagination"
	}
	return string(key)
}

// maxScanDepth bounds the nesting scanValue follows; deeper input is left
// to encoding/json, whose own limit then applies.
const maxScanDepth = 1000

// skipSpace is the index of the first byte at or after i that is not JSON
// whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanValue is the end of the JSON value that starts at b[i], or -1 when
// there is none (a syntax error, or nesting beyond maxScanDepth); depth is
// the nesting around it. It accepts exactly what encoding/json accepts,
// invalid UTF-8 inside strings included.
func scanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		if depth >= maxScanDepth {
			return -1
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return -1
				}
				if i = scanString(b, i); i < 0 {
					return -1
				}
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return -1
				}
				i = skipSpace(b, i+1)
			}
			if i = scanValue(b, i, depth+1); i < 0 {
				return -1
			}
			if i = skipSpace(b, i); i >= len(b) {
				return -1
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case closing:
				return i + 1
			default:
				return -1
			}
		}
	case c == '"':
		return scanString(b, i)
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	}
	return -1
}

// scanString is the end of the JSON string that starts at b[i] (a '"'),
// or -1.
func scanString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		// Most of a request is plain string bytes: skip them eight at a
		// time, up to the first byte that needs a look.
		for i+8 <= len(b) {
			m := Special(binary.LittleEndian.Uint64(b[i:]))
			if m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
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

// Bytes repeated in each of a word's eight lanes.
const (
	lanes01   = 0x0101010101010101
	lanes20   = 0x2020202020202020
	lanes80   = 0x8080808080808080
	lanesQuot = 0x2222222222222222
	lanesBack = 0x5c5c5c5c5c5c5c5c
)

// Special marks, in the high bit of its lane, each byte of w (eight string
// bytes, the first in the low lane) that is a quote, a backslash or a
// control character: the bytes that end a plain run of JSON string text.
// A borrow can also mark a lane above a marked one, so only the lowest mark
// is exact, which is all a scanner may read. Exported so that every scanner
// of string text (the dataset loader's too) skips it the same way.
func Special(w uint64) uint64 {
	below20 := (w - lanes20) &^ w
	quote := w ^ lanesQuot
	back := w ^ lanesBack
	return (below20 | (quote-lanes01)&^quote | (back-lanes01)&^back) & lanes80
}

// scanNumber is the end of the JSON number that starts at b[i], or -1.
func scanNumber(b []byte, i int) int {
	digits := func(i int) int {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return -1
		}
		return i
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	default:
		if i = digits(i); i < 0 {
			return -1
		}
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

// scanLiteral is the end of lit at b[i], or -1.
func scanLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// Scans reports whether b is one JSON value, with only whitespace around
// it, that the scanner accepts whole; false means encoding/json must judge
// b (it is malformed, or nested deeper than the scanner follows).
func Scans(b []byte) bool {
	end := scanValue(b, skipSpace(b, 0), 0)
	return end >= 0 && skipSpace(b, end) == len(b)
}

// eachMemberDecoder is Each through encoding/json's decoder, for the
// input the scanner leaves to it.
func eachMemberDecoder(obj []byte, f func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return &SyntaxError{Err: err}
	}
	if tok != json.Delim('{') {
		return ErrNotObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return &SyntaxError{Err: err}
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return &SyntaxError{Key: key, InValue: true, Err: err}
		}
		if err := f(key, value); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &SyntaxError{Err: err}
	}
	return nil
}
