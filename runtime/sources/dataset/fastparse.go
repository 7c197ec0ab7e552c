package dataset

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/ucpgen/ucpgen/runtime/jsonmember"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/stringarena"
)

// The fast path below reads a well-formed dataset in two passes over the
// bytes, without encoding/json, and allocates only what the records keep:
// each Location is a sub-slice of the input (no copy), and the strings that
// repeat across stores (item ids, countries, regions, postal codes) are
// interned, so a million records cost a few hundred bytes each beyond the
// file. It accepts only the plain shape the generator and most authors
// write: no escapes in member names or in the strings it keeps, no nulls,
// nothing unknown. On anything else it gives up and Parse runs the strict
// path, which produces the exact error (or the same records) for that input.

// maxDepth matches encoding/json's nesting limit, so both paths accept the
// same documents.
const maxDepth = 10000

// scanner walks a JSON text; every method reports false on anything the fast
// path does not accept.
type scanner struct {
	b []byte
	i int
	// delimit makes fastLocation only find where each of the Location's
	// member values ends (delimitEnd) instead of checking it: set when the
	// section's Visitor parses every Location itself (LocationParser).
	delimit bool
	// reader, when set (with delimit), parses each Location in place
	// before fastLocation tries to delimit it.
	reader LocationReader
}

func (s *scanner) ws() { s.i = skipSpace(s.b, s.i) }

// peek returns the next non-space byte without consuming it (0 at the end).
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// str consumes a string and returns its contents; plain is false when it
// holds an escape (the caller then needs the strict path to decode it).
func (s *scanner) str() (body []byte, plain, ok bool) {
	if !s.eat('"') {
		return nil, false, false
	}
	start := s.i
	end, plain, ok := stringEnd(s.b, start-1)
	s.i = end
	if !ok {
		return nil, false, false
	}
	return s.b[start : end-1], plain, true
}

// stringEnd reads the string whose opening quote is b[i] and returns the
// index just past its closing quote; plain is false when it holds an
// escape. It fails on an invalid escape, a control byte or a missing end,
// returning where it stopped.
func stringEnd(b []byte, i int) (end int, plain, ok bool) {
	i++
	plain = true
	for {
		// Eight bytes a step up to the first quote, backslash or control
		// character: most of a dataset is string text.
		for i+8 <= len(b) {
			if m := jsonmember.Special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			return i, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, plain, true
		case c == '\\':
			plain = false
			if i, ok = escapeEnd(b, i); !ok {
				return i, false, false
			}
		case c < 0x20:
			return i, false, false
		default:
			i++
		}
	}
}

// escapeEnd reads one escape sequence starting at the backslash b[i] and
// returns the index after it, if it is valid.
func escapeEnd(b []byte, i int) (int, bool) {
	if i+1 >= len(b) {
		return i, false
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, true
	case 'u':
		if i+6 > len(b) {
			return i, false
		}
		for _, h := range b[i+2 : i+6] {
			if !isHex(h) {
				return i, false
			}
		}
		return i + 6, true
	}
	return i, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// text consumes a string the records keep: it must be plain and valid
// UTF-8 (encoding/json would replace invalid bytes, so those take the strict
// path).
func (s *scanner) text() ([]byte, bool) {
	body, plain, ok := s.str()
	if !ok || !plain || !validUTF8(body) {
		return nil, false
	}
	return body, true
}

// validUTF8 is utf8.Valid with an ASCII prefix skipped eight bytes a step
// first, which for the short strings of a record is most of the cost.
func validUTF8(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			return utf8.Valid(b[i:])
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return utf8.Valid(b[i:])
		}
	}
	return true
}

// number consumes a JSON number and returns its text.
func (s *scanner) number() ([]byte, bool) {
	s.ws()
	start := s.i
	end, ok := numberEnd(s.b, start)
	s.i = end
	if !ok {
		return nil, false
	}
	return s.b[start:end], true
}

// numberEnd is the end of the JSON number that starts at b[i], if one does.
func numberEnd(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// digitsEnd is the index after the run of digits at b[i].
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func (s *scanner) literal(word string) bool {
	end, ok := wordEnd(s.b, s.i, word)
	s.i = end
	return ok
}

// value consumes any JSON value and returns its exact text. It accepts
// exactly what members, elements, str, number and literal accept when
// nested (member names plain and valid UTF-8, strings with valid escapes
// and no control bytes, at most maxDepth levels counting from depth), in
// one loop over the bytes with an explicit stack of open containers: a
// Location is a hundred short values, and a call per token cost more than
// the token.
func (s *scanner) value(depth int) ([]byte, bool) {
	b := s.b
	i := skipSpace(b, s.i)
	start := i
	var room [32]bool
	open := room[:0] // true for an object
	for {
		// A value starts at i.
		if depth+len(open) > maxDepth || i >= len(b) {
			return nil, false
		}
		ok := true
		switch b[i] {
		case '{':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			open = append(open, true)
			if i, ok = memberName(b, i); !ok {
				return nil, false
			}
			continue
		case '[':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			open = append(open, false)
			continue
		case '"':
			i, _, ok = stringEnd(b, i)
		case 't':
			i, ok = wordEnd(b, i, "true")
		case 'f':
			i, ok = wordEnd(b, i, "false")
		case 'n':
			i, ok = wordEnd(b, i, "null")
		default:
			i, ok = numberEnd(b, i)
		}
		if !ok {
			return nil, false
		}
		// A value ended at i: close the containers it ends, then go on to
		// the next member or element.
		for {
			if len(open) == 0 {
				s.i = i
				return b[start:i], true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return nil, false
			}
			object := open[len(open)-1]
			if c := b[i]; object && c == '}' || !object && c == ']' {
				open = open[:len(open)-1]
				i++
				continue
			} else if c != ',' {
				return nil, false
			}
			i = skipSpace(b, i+1)
			if object {
				if i, ok = memberName(b, i); !ok {
					return nil, false
				}
			}
			break
		}
	}
}

// delimitEnd returns the index just past the JSON value that starts at
// b[i], reading only what delimits it: strings (through stringEnd, so a
// bad escape or a control byte still fails), brackets, and the byte that
// ends a number or literal. It does not check the value otherwise, and ok
// may be true for malformed text: it serves a Location that a
// LocationParser then parses whole, and on valid JSON it ends exactly
// where value does (FuzzDelimitEndMatchesValue). ok is false when a
// string or container runs past the end of b (a number or literal there
// may be cut off too: the scan then finds no end to its object and reads
// more).
func delimitEnd(b []byte, i int) (end int, ok bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		end, _, ok = stringEnd(b, i)
		return end, ok
	case '{', '[':
	default:
		start := i
		for i < len(b) && !endsScalar(b[i]) {
			i++
		}
		return i, i > start
	}
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i, _, ok = stringEnd(b, i); !ok {
				return i, false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return i, false
}

// endsScalar reports whether c ends a number or literal: a separator, a
// closing bracket or JSON whitespace.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// skipSpace is the first index from i on that is not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// memberName reads a member's name at b[i] (plain and valid UTF-8, as
// text requires) and its colon, and returns where its value starts.
func memberName(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	// The rule of text, inline: a name is read for every member.
	end, plain, ok := stringEnd(b, i)
	if !ok || !plain || !validUTF8(b[i+1:end-1]) {
		return i, false
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return skipSpace(b, i+1), true
}

// wordEnd is the end of the literal word at b[i], if it is there.
func wordEnd(b []byte, i int, word string) (int, bool) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// members consumes the rest of an object after its '{', calling each with
// the (plain) member name positioned at the member's value.
func (s *scanner) members(each func(name []byte) bool) bool {
	if s.eat('}') {
		return true
	}
	for {
		name, ok := s.text()
		if !ok || !s.eat(':') || !each(name) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// elements consumes the rest of an array after its '['.
func (s *scanner) elements(each func() bool) bool {
	if s.eat(']') {
		return true
	}
	for {
		if !each() {
			return false
		}
		if s.eat(']') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// interner shares one string per distinct value across records, and one
// ServiceArea per distinct service_area text (most stores of a metro have
// the same coverage).
type interner struct {
	strs  map[string]string
	areas map[string]*ServiceArea
	// own holds the strings a record has to itself (its id, its aliases).
	own stringarena.Arena
	// scratch, reused from record to record so parsing a record allocates
	// only what the record keeps
	names [][]byte
	list  []string
	loc   int // where the last Location's text starts in the scanner's bytes
}

func (in *interner) get(b []byte) string {
	if s, ok := in.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	in.strs[s] = s
	return s
}

// parseFast is Parse's fast path; ok is false when the input needs the
// strict path (which then also decides whether it is valid).
func parseFast(data []byte) ([]Record, bool) {
	s := &scanner{b: data}
	if !s.eat('[') {
		return nil, false
	}
	type span struct{ start, end int }
	var spans []span
	if !s.elements(func() bool {
		s.ws()
		start := s.i
		_, ok := s.value(1)
		spans = append(spans, span{start, s.i})
		return ok
	}) {
		return nil, false
	}
	if s.ws(); s.i != len(s.b) {
		return nil, false
	}
	recs := make([]Record, len(spans))
	in := &interner{strs: map[string]string{}, areas: map[string]*ServiceArea{}}
	for k, sp := range spans {
		r := &scanner{b: data[:sp.end], i: sp.start}
		if !fastRecord(r, in, &recs[k]) {
			return nil, false
		}
	}
	return recs, true
}

// fastRecord decodes one record the way decodeRecord does.
func fastRecord(s *scanner, in *interner, rec *Record) bool {
	if !s.eat('{') {
		return false
	}
	var seen [5]bool
	once := func(i int) bool {
		if seen[i] {
			return false
		}
		seen[i] = true
		return true
	}
	ok := s.members(func(name []byte) bool {
		switch string(name) {
		case "location":
			return once(0) && fastLocation(s, in, rec)
		case "aliases":
			var ok bool
			rec.Aliases, ok = fastStrings(s, in, false)
			return once(1) && ok
		case "items":
			var ok bool
			rec.Items, ok = fastStrings(s, in, true)
			return once(2) && ok
		case "service_area":
			return once(3) && fastServiceArea(s, in, rec)
		case "private":
			if !once(4) {
				return false
			}
			switch s.peek() {
			case 't':
				rec.Private = true
				return s.literal("true")
			case 'f':
				return s.literal("false")
			}
		}
		return false
	})
	return ok && seen[0]
}

// fastLocation keeps the Location's text and reads its id, refusing
// duplicate member names as the strict path does.
func fastLocation(s *scanner, in *interner, rec *Record) bool {
	if s.peek() != '{' {
		return false
	}
	start := s.i
	if s.reader != nil {
		if n, id, ok := s.reader.ReadLocation(s.b[start:]); ok {
			s.i += n
			rec.ID = id
			rec.Location = s.b[start:s.i:s.i]
			in.loc = start
			return true
		}
	}
	s.i++
	in.names = in.names[:0]
	ok := s.members(func(name []byte) bool {
		for _, n := range in.names {
			if string(n) == string(name) {
				return false
			}
		}
		in.names = append(in.names, name)
		if string(name) == "id" {
			if s.peek() != '"' {
				return false
			}
			id, ok := s.text()
			if !ok || len(id) == 0 {
				return false
			}
			rec.ID = in.own.Bytes(id)
			return true
		}
		if s.delimit {
			var ok bool
			s.i, ok = delimitEnd(s.b, skipSpace(s.b, s.i))
			return ok
		}
		_, ok := s.value(2)
		return ok
	})
	if !ok || rec.ID == "" {
		return false
	}
	rec.Location = s.b[start:s.i:s.i]
	in.loc = start
	return true
}

// fastStrings reads an array of distinct non-empty strings into a slice of
// exactly its length, interning the strings when shared is set.
func fastStrings(s *scanner, in *interner, shared bool) ([]string, bool) {
	if !s.eat('[') {
		return nil, false
	}
	in.list = in.list[:0]
	ok := s.elements(func() bool {
		b, ok := s.text()
		if !ok || len(b) == 0 {
			return false
		}
		if shared {
			// Interned, equal strings are one string: a repeat is the
			// same pointer, found without comparing bytes.
			str := in.get(b)
			for _, prev := range in.list {
				if unsafe.StringData(prev) == unsafe.StringData(str) {
					return false
				}
			}
			in.list = append(in.list, str)
			return true
		}
		for _, prev := range in.list {
			if prev == string(b) {
				return false
			}
		}
		in.list = append(in.list, in.own.Bytes(b))
		return true
	})
	if !ok {
		return nil, false
	}
	out := make([]string, len(in.list)) // empty but present, like the strict path
	copy(out, in.list)
	return out, true
}

func fastServiceArea(s *scanner, in *interner, rec *Record) bool {
	s.ws()
	start := s.i
	if !s.eat('{') {
		return false
	}
	sa := &ServiceArea{}
	var seen [4]bool
	ok := s.members(func(name []byte) bool {
		var ok bool
		i := -1
		switch string(name) {
		case "countries":
			i = 0
			sa.Countries, ok = fastStrings(s, in, true)
		case "regions":
			i = 1
			sa.Regions, ok = fastStrings(s, in, true)
		case "postal_codes":
			i = 2
			sa.PostalCodes, ok = fastStrings(s, in, true)
		case "radius_m":
			i = 3
			var num []byte
			if num, ok = s.number(); ok {
				v, err := strconv.ParseFloat(string(num), 64)
				ok = err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) && v >= 0
				sa.RadiusM = &v
			}
		}
		if i < 0 || seen[i] {
			return false
		}
		seen[i] = true
		return ok
	})
	if !ok {
		return false
	}
	if shared, dup := in.areas[string(s.b[start:s.i])]; dup {
		rec.ServiceArea = shared
		return true
	}
	in.areas[string(s.b[start:s.i])] = sa
	rec.ServiceArea = sa
	return true
}
