// Package schemacheck is the runtime shared by ucpgen's generated validators:
// a strict JSON scanner that builds a small value tree, the reporting side of
// the checks (JSON Pointers built only on failure, messages that name the
// rule), and the pieces both need (formats, ECMA-262 patterns, exact number
// comparison, JSON equality). The checks themselves are generated Go code,
// one function per compiled schema; nothing interprets a schema at run time.
package schemacheck

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Kind is the JSON type of a Value, kept apart from Go types so that "integer"
// can be decided from the number's text.
type Kind uint8

// JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "unknown"
}

// Value is one parsed JSON value. Strings are slices of one copy of the input,
// so parsing allocates one string per document plus one slice per container.
type Value struct {
	Kind Kind
	// Bool is the value of a boolean.
	Bool bool
	// Str is a string's decoded text, or a number's source text.
	Str string
	// Num is a number's nearest float64 (±Inf when it overflows).
	Num float64
	// Raw is the value's source text, kept for lossless unknown members.
	Raw string
	// Items are an array's elements.
	Items []Value
	// Members are an object's members in source order.
	Members []Member
}

// Member is one object member.
type Member struct {
	Name  string
	Value Value
}

// Get returns the member named name (exact case) or nil.
func (v *Value) Get(name string) *Value {
	for i := range v.Members {
		if v.Members[i].Name == name {
			return &v.Members[i].Value
		}
	}
	return nil
}

// ParseError is a JSON syntax error located by byte offset and by the JSON
// Pointer of the value being read, so callers can report it like a violation.
type ParseError struct {
	Pointer string
	Offset  int
	Reason  string
}

func (e *ParseError) Error() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("%s: invalid JSON at byte %d: %s", p, e.Offset, e.Reason)
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

// Parse reads exactly one JSON value (RFC 8259) from data. It rejects
// duplicate member names, which RFC 8259 leaves undefined and which the
// reference validators resolve by silently keeping the last one: a request
// that says two different things about one member is refused instead.
func Parse(data []byte) (Value, error) {
	var p parser
	v, err := p.parse(data)
	if err != nil {
		return Value{}, err
	}
	return *v, nil
}

// Document parses JSON into memory it keeps for reuse: a decoder that turns
// the value tree into Go values and then drops it pays for the tree's
// containers once per process rather than once per request. Strings in the
// tree are slices of a fresh copy of the input, never of reused memory, so
// values decoded from the tree stay valid after Release.
type Document struct {
	p parser
}

var documents = sync.Pool{New: func() any { return new(Document) }}

// maxKept bounds the arena a released Document keeps, so one huge request
// does not pin its memory for the life of the process.
const maxKept = 1 << 14

// NewDocument returns a Document from the pool.
func NewDocument() *Document { return documents.Get().(*Document) }

// Parse reads one JSON value as the package-level Parse does. The returned
// tree is valid until Release.
func (d *Document) Parse(data []byte) (*Value, error) { return d.p.parse(data) }

// Release returns the Document to the pool; the tree from Parse must not be
// used afterwards.
func (d *Document) Release() {
	p := &d.p
	clear(p.vals)
	clear(p.mems)
	if cap(p.vals) > maxKept || cap(p.mems) > maxKept || cap(p.counts) > maxKept {
		*p = parser{}
	}
	p.s = ""
	p.dirty = false
	documents.Put(d)
}

// parser reads one document in two passes. The first pass only counts: for
// every container, in document order, how many items or members it holds.
// With the counts known, the second pass carves each container's children
// out of two arenas sized exactly for the document and parses every value
// straight into its final slot, so a document costs one allocation per arena
// (none with a reused Document) and no value is ever copied.
type parser struct {
	s      string
	i      int
	counts []int32
	open   []int // count's stack of open containers, kept for reuse
	next   int   // next entry of counts
	vals   []Value
	mems   []Member
	nv, nm int  // arena slots handed out
	dirty  bool // the arenas hold a previous document
}

func (p *parser) parse(data []byte) (*Value, error) {
	if p.dirty {
		// Values are filled field by field on the assumption that their
		// slots start zeroed; a second Parse without Release must clear.
		clear(p.vals)
		clear(p.mems)
	}
	p.dirty = true
	p.s, p.i, p.next, p.nv, p.nm = string(data), 0, 0, 0, 0
	nv, nm := p.count()
	p.vals = grow(p.vals, nv+1)
	p.mems = grow(p.mems, nm)
	root := p.takeValues(1)
	p.skipSpace()
	if err := p.value(0, &root[0]); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, p.fail("unexpected data after the top-level value")
	}
	return &root[0], nil
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// count is the first pass. It trusts nothing: on malformed input its counts
// may be wrong, and the second pass, which checks the grammar, reports the
// real error (a count that runs out is caught there too).
func (p *parser) count() (values, members int) {
	p.counts = p.counts[:0]
	open := p.open[:0] // index into counts of each open container
	s := p.s
	for i := 0; i < len(s); i++ {
		if !structural[s[i]] {
			continue
		}
		switch s[i] {
		case '"':
			i = closingQuote(s, i+1)
		case '{', '[':
			open = append(open, len(p.counts))
			p.counts = append(p.counts, 0)
			// An empty container has no children; otherwise commas + 1.
			j := i + 1
			for j < len(s) && jsonSpace[s[j]] {
				j++
			}
			if j < len(s) && s[j] != '}' && s[j] != ']' {
				p.counts[len(p.counts)-1] = 1
			}
			if s[i] == '{' {
				p.counts[len(p.counts)-1] |= objectBit
			}
		case ',':
			if len(open) > 0 {
				p.counts[open[len(open)-1]]++
			}
		case '}', ']':
			if len(open) > 0 {
				c := p.counts[open[len(open)-1]]
				if c&objectBit != 0 {
					members += int(c &^ objectBit)
				} else {
					values += int(c)
				}
				open = open[:len(open)-1]
			}
		}
	}
	// Containers left open are malformed; leave room anyway so the second
	// pass reaches the syntax error instead of running out of slots.
	for _, k := range open {
		c := p.counts[k]
		values += int(c &^ objectBit)
		members += int(c &^ objectBit)
	}
	p.open = open[:0]
	return values, members
}

// closingQuote returns the index of the quote that ends the string whose
// text starts at i (len(s) when there is none), eight bytes per step.
func closingQuote(s string, i int) int {
	for {
		for i+8 <= len(s) {
			if m := quoteBytes(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			return len(s)
		}
		switch s[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
}

// load8 reads s[i:i+8] as a little-endian word (the compiler turns it into
// one load), for the scanners that test eight bytes per step.
func load8(s string, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// quoteBytes marks the bytes of x that are '"' or '\\' (lowest mark exact).
func quoteBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((q-ones)&^q | (b-ones)&^b) & highs
}

// wideObject is the member count above which duplicates are found with a set.
const wideObject = 32

// objectBit marks an object's entry in counts.
const objectBit = 1 << 30

// childCount returns the next container's count from the first pass.
func (p *parser) childCount() (int, bool) {
	if p.next >= len(p.counts) {
		return 0, false
	}
	c := int(p.counts[p.next] &^ objectBit)
	p.next++
	return c, true
}

func (p *parser) takeValues(n int) []Value {
	out := p.vals[p.nv : p.nv+n : p.nv+n]
	p.nv += n
	return out
}

func (p *parser) takeMembers(n int) []Member {
	out := p.mems[p.nm : p.nm+n : p.nm+n]
	p.nm += n
	return out
}

// at prepends a reference token to a syntax error's location as the error
// unwinds, so locations cost nothing until something fails.
func at(err error, token string) error {
	if pe, ok := err.(*ParseError); ok {
		pe.Pointer = "/" + rpcerr.EscapeToken(token) + pe.Pointer
	}
	return err
}

func (p *parser) fail(format string, args ...any) error {
	return &ParseError{Offset: p.i, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	s, i := p.s, p.i
	for i < len(s) && jsonSpace[s[i]] {
		i++
	}
	p.i = i
}

// jsonSpace and structural classify bytes with one load each, for the two
// loops that see every byte of the input.
var (
	jsonSpace  = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}
	structural = [256]bool{'"': true, '{': true, '[': true, ',': true, '}': true, ']': true}
)

// value parses one value into dst.
func (p *parser) value(depth int, dst *Value) error {
	if depth > maxDepth {
		return p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.i >= len(p.s) {
		return p.fail("unexpected end of input")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth, dst)
	case c == '[':
		return p.array(depth, dst)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return err
		}
		dst.Kind = String
		dst.Str = s
		dst.Raw = p.s[start:p.i]
	case c == 't':
		return p.literal("true", dst, Value{Kind: Bool, Bool: true, Raw: "true"})
	case c == 'f':
		return p.literal("false", dst, Value{Kind: Bool, Raw: "false"})
	case c == 'n':
		return p.literal("null", dst, Value{Kind: Null, Raw: "null"})
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	default:
		return p.fail("unexpected character %q", c)
	}
	return nil
}

func (p *parser) literal(word string, dst *Value, v Value) error {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return p.fail("invalid literal, want %s", word)
	}
	p.i += len(word)
	dst.Kind, dst.Bool, dst.Raw = v.Kind, v.Bool, v.Raw
	return nil
}

func (p *parser) number(dst *Value) error {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return p.fail("a number needs digits")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.fail("a number needs digits after the decimal point")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.fail("a number needs digits in its exponent")
		}
	}
	text := p.s[start:p.i]
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return p.fail("number %s: %v", text, err)
	}
	dst.Kind = Number
	dst.Str = text
	dst.Num = f
	dst.Raw = text
	return nil
}

// str reads a string literal; it returns a substring of the input when the
// literal has no escapes.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	s := p.s
	i := p.i
	for {
		// Skip eight ordinary bytes at a time; stop on the first byte that
		// is a quote, a backslash, a control character or non-ASCII.
		for i+8 <= len(s) {
			if m := specialBytes(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			p.i = i
			return "", p.fail("unterminated string")
		}
		c := s[i]
		switch {
		case c == '"':
			p.i = i + 1
			return s[start:i], nil
		case c == '\\':
			p.i = i
			return p.escaped(start)
		case c < 0x20:
			p.i = i
			return "", p.fail("control character %#x in a string", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				p.i = i
				return "", p.fail("invalid UTF-8 in a string")
			}
			i += n
		}
	}
}

// specialBytes marks, with the high bit of each byte, the bytes of x (read
// little-endian) that are '"', '\\', below 0x20 or above 0x7f. The classic
// "has zero byte" trick can also mark bytes above a true mark, never below
// one, so the lowest mark is exact.
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((q-ones)&^q | (b-ones)&^b | (x-ones*0x20)&^x | x) & highs
}

func (p *parser) escaped(start int) (string, error) {
	var b strings.Builder
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.fail("unterminated escape")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if strings.HasPrefix(p.s[p.i:], `\u`) {
						save := p.i
						p.i += 2
						lo, err := p.hex4()
						if err != nil {
							return "", err
						}
						if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
							r2 = d
						} else {
							p.i = save
						}
					}
					r = r2
				}
				b.WriteRune(r)
			default:
				return "", p.fail("invalid escape \\%c", e)
			}
		case c < 0x20:
			return "", p.fail("control character %#x in a string", c)
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			b.WriteString(p.s[p.i : p.i+n])
			p.i += n
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.fail("short \\u escape")
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, p.fail("invalid hex digit %q in \\u escape", c)
		}
	}
	p.i += 4
	return r, nil
}

func (p *parser) object(depth int, dst *Value) error {
	start := p.i
	p.i++
	n, ok := p.childCount()
	if !ok {
		return p.fail("malformed object")
	}
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		dst.Kind = Object
		dst.Members = []Member{}
		dst.Raw = p.s[start:p.i]
		return nil
	}
	members := p.takeMembers(n)
	// A scan of the names so far is fastest for the objects UCP sends; a
	// wide object gets a set, so duplicate checks stay linear overall.
	var seen map[string]struct{}
	if n > wideObject {
		seen = make(map[string]struct{}, n)
	}
	for k := 0; ; k++ {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.fail("expected a member name string")
		}
		nameAt := p.i
		name, err := p.str()
		if err != nil {
			return err
		}
		dup := false
		if seen != nil {
			_, dup = seen[name]
			seen[name] = struct{}{}
		} else {
			for j := range members[:min(k, n)] {
				if members[j].Name == name {
					dup = true
					break
				}
			}
		}
		if dup {
			p.i = nameAt
			return at(p.fail("duplicate member name %q", name), name)
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.fail("expected ':' after member name %q", name)
		}
		p.i++
		p.skipSpace()
		if k >= n {
			return at(p.fail("malformed object"), name)
		}
		m := &members[k]
		m.Name = name
		if err := p.value(depth+1, &m.Value); err != nil {
			return at(err, name)
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return p.fail("unterminated object")
		}
		if p.s[p.i] == '}' {
			p.i++
			if k+1 != n {
				return p.fail("malformed object")
			}
			dst.Kind = Object
			dst.Members = members
			dst.Raw = p.s[start:p.i]
			return nil
		}
		if p.s[p.i] != ',' {
			return p.fail("expected ',' or '}' in object")
		}
		p.i++
	}
}

func (p *parser) array(depth int, dst *Value) error {
	start := p.i
	p.i++
	n, ok := p.childCount()
	if !ok {
		return p.fail("malformed array")
	}
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		dst.Kind = Array
		dst.Items = []Value{}
		dst.Raw = p.s[start:p.i]
		return nil
	}
	items := p.takeValues(n)
	for k := 0; ; k++ {
		p.skipSpace()
		if k >= n {
			return at(p.fail("malformed array"), strconv.Itoa(k))
		}
		if err := p.value(depth+1, &items[k]); err != nil {
			return at(err, strconv.Itoa(k))
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return p.fail("unterminated array")
		}
		if p.s[p.i] == ']' {
			p.i++
			if k+1 != n {
				return p.fail("malformed array")
			}
			dst.Kind = Array
			dst.Items = items
			dst.Raw = p.s[start:p.i]
			return nil
		}
		if p.s[p.i] != ',' {
			return p.fail("expected ',' or ']' in array")
		}
		p.i++
	}
}
