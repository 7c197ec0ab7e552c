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
	"unsafe"

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
//
// A container shared by a Repeats carries, at its root, the number of its
// shared tree (for Passed), so reflect.DeepEqual tells it from the tree of
// the same text parsed on its own; compare trees by their JSON instead.
type Value struct {
	Kind Kind
	// Bool is the value of a boolean.
	Bool bool
	// tree numbers a Repeats' shared tree at its root (0 for any other
	// value), so that a Passed knows a tree it has seen without reading
	// its text; it fits the padding after Kind and Bool.
	tree uint32
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

// Shared is the number of the tree a Repeats shares v as (0 when v is not
// one): two values with the same number are the same text, so a caller
// may key what it derives from a value by the number, without reading it.
func (v *Value) Shared() uint32 { return v.tree }

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

// maxKeptText bounds the text buffer a released Document keeps.
const maxKeptText = 1 << 16

// ReuseText makes the Document's next parses, until Release, read from a
// buffer of its own that each parse overwrites, instead of from a fresh
// copy of their input: a loader that parses a million records one after
// the other, and keeps nothing of their trees, then leaves no copy of
// each for the collector. Every string of such a tree (Str, Raw, a
// member's name) changes when the Document parses again or is released,
// so a caller keeps a copy of any it needs longer.
func (d *Document) ReuseText() { d.p.reuse = true }

// NewDocument returns a Document from the pool.
func NewDocument() *Document { return documents.Get().(*Document) }

// Parse reads one JSON value as the package-level Parse does. The returned
// tree is valid until Release.
func (d *Document) Parse(data []byte) (*Value, error) { return d.p.parse(data) }

// Release returns the Document to the pool; the tree from Parse must not be
// used afterwards.
func (d *Document) Release() {
	p := &d.p
	p.clearUsed()
	if cap(p.vals) > maxKept || cap(p.mems) > maxKept || cap(p.items) > maxKept || cap(p.members) > maxKept {
		*p = parser{}
	}
	if cap(p.buf) > maxKeptText {
		p.buf = nil
	}
	p.s = ""
	p.dirty, p.reuse = false, false
	documents.Put(d)
}

// parser reads one document in one pass. A container's children are
// parsed onto a stack (items, members) and moved, once the container
// closes and their number is known, into arenas carved in chunks: a
// chunk that runs out is replaced by a larger one, and the containers
// already in it keep it alive. A reused Document keeps its last chunks and
// stacks, so a document of the usual size allocates nothing but the copy
// of its text.
type parser struct {
	s       string
	i       int
	items   []Value  // array items being parsed, innermost array last
	members []Member // object members being parsed, innermost object last
	vals    []Value  // the current chunk of item arrays
	mems    []Member // the current chunk of member arrays
	nv, nm  int      // slots of the current chunks handed out
	dirty   bool     // the chunks hold a previous document
	rep     *Repeats // shares the trees of repeated containers, when set
	// reuse makes s a view of buf, which each document overwrites, rather
	// than a fresh copy of the input (Document.ReuseText).
	reuse bool
	buf   []byte
}

// ParseFirst reads the JSON value at the start of data, which more text
// may follow, and returns it and its length in bytes: a loader that reads
// a record's members in place parses a member's value where it finds it,
// instead of first finding where the value ends and then parsing it. Like
// Parse it copies all of data, so a caller passes a bound on the value's
// length rather than everything that follows. The tree is valid until
// Release.
func (d *Document) ParseFirst(data []byte) (v *Value, n int, err error) {
	return d.p.parseFirst(data)
}

func (p *parser) parse(data []byte) (*Value, error) {
	v, err := p.parseValue(data)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, p.fail("unexpected data after the top-level value")
	}
	return v, nil
}

// parseFirst is parse for a value that more text may follow.
func (p *parser) parseFirst(data []byte) (*Value, int, error) {
	v, err := p.parseValue(data)
	if err != nil {
		return nil, 0, err
	}
	return v, p.i, nil
}

// parseValue reads the value at the start of data (after any space) and
// leaves p.i just past it.
func (p *parser) parseValue(data []byte) (*Value, error) {
	if p.dirty {
		// A second Parse without Release: drop the first document's
		// strings (every slot is written whole before it is read).
		p.clearUsed()
	}
	p.dirty = true
	if p.reuse {
		p.buf = append(p.buf[:0], data...)
		p.s = unsafe.String(unsafe.SliceData(p.buf), len(p.buf))
	} else {
		p.s = string(data)
	}
	p.i, p.nv, p.nm = 0, 0, 0
	p.items, p.members = p.items[:0], p.members[:0]
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	root := p.takeValues(1)
	root[0] = v
	return &root[0], nil
}

// clearUsed zeroes what the last document used of the chunks and stacks,
// so no slot keeps a string of it alive or is read as if fresh.
func (p *parser) clearUsed() {
	clear(p.vals[:p.nv])
	clear(p.mems[:p.nm])
	clear(p.items[:cap(p.items)])
	clear(p.members[:cap(p.members)])
}

// minChunk is the fewest slots a new arena chunk holds.
const minChunk = 64

func (p *parser) takeValues(n int) []Value { return take(&p.vals, &p.nv, n) }

func (p *parser) takeMembers(n int) []Member { return take(&p.mems, &p.nm, n) }

// take hands out the next n slots of the arena chunk *chunk, of which
// *used are taken, starting a new chunk when they do not fit.
func take[T any](chunk *[]T, used *int, n int) []T {
	if *used+n > len(*chunk) {
		*chunk, *used = make([]T, max(2*len(*chunk), n, minChunk)), 0
	}
	out := (*chunk)[*used : *used+n : *used+n]
	*used += n
	return out
}

// load8 reads s[i:i+8] as a little-endian word (the compiler turns it into
// one load), for the scanners that test eight bytes per step.
func load8(s string, i int) uint64 {
	s = s[i : i+8] // one bounds check instead of eight
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// wideObject is the member count above which duplicates are found with a set.
const wideObject = 32

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

// jsonSpace classifies a byte with one load, for the loop that skips
// whitespace.
var jsonSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// value parses one value. It returns the Value rather than filling a
// slot: a container's children go to a stack that may move while they are
// parsed, and the address of a local would move every Value to the heap
// (the calls are recursive). Scalars, which never touch the stacks, are
// parsed in place by scalar.
func (p *parser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.i >= len(p.s) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.s[p.i]; c {
	case '{', '[':
		if p.rep != nil && depth > 0 {
			return p.repeating(depth)
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	}
	var v Value
	err := p.scalar(&v)
	return v, err
}

// repeating parses the object or array at p.i sharing the tree p.rep
// holds for its text, or offering p.rep the tree of a text it does not
// hold.
func (p *parser) repeating(depth int) (Value, error) {
	if v, hit := p.repeated(depth); hit {
		return v, nil
	}
	start := p.i
	var v Value
	var err error
	if p.s[p.i] == '{' {
		v, err = p.object(depth)
	} else {
		v, err = p.array(depth)
	}
	if err == nil {
		p.rep.remember(p.s[start:p.i], &v)
	}
	return v, err
}

// inPlace reports whether the value at p.i, at depth, is a scalar that
// scalar may parse straight into its slot on a stack: it is not a
// container, and value would not refuse it before looking at it.
func (p *parser) inPlace(depth int) bool {
	return depth <= maxDepth && p.i < len(p.s) && p.s[p.i] != '{' && p.s[p.i] != '['
}

// scalar parses a string, number or literal into *dst, which is zero.
func (p *parser) scalar(dst *Value) error {
	start := p.i
	switch c := p.s[p.i]; {
	case c == '"':
		s, err := p.str()
		if err != nil {
			return err
		}
		dst.Kind, dst.Str, dst.Raw = String, s, p.s[start:p.i]
		return nil
	case c == 't':
		return p.literal(dst, "true", Bool, true)
	case c == 'f':
		return p.literal(dst, "false", Bool, false)
	case c == 'n':
		return p.literal(dst, "null", Null, false)
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	default:
		return p.fail("unexpected character %q", c)
	}
}

func (p *parser) literal(dst *Value, word string, kind Kind, b bool) error {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return p.fail("invalid literal, want %s", word)
	}
	p.i += len(word)
	dst.Kind, dst.Bool, dst.Raw = kind, b, word
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
	dst.Kind, dst.Str, dst.Num, dst.Raw = Number, text, f, text
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

func (p *parser) object(depth int) (Value, error) {
	start := p.i
	p.i++
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return Value{Kind: Object, Members: []Member{}, Raw: p.s[start:p.i]}, nil
	}
	base := len(p.members)
	// A scan of the names so far is fastest for the objects UCP sends; a
	// wide object gets a set, so duplicate checks stay linear overall.
	// sigs holds a bit for each name's length and first byte: a name whose
	// bit is clear has no equal before it, so most names skip the scan.
	var seen map[string]struct{}
	var sigs uint64
	for k := 0; ; k++ {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.fail("expected a member name string")
		}
		nameAt := p.i
		name, err := p.str()
		if err != nil {
			return Value{}, err
		}
		if k == wideObject {
			seen = make(map[string]struct{}, 2*wideObject)
			for _, m := range p.members[base:] {
				seen[m.Name] = struct{}{}
			}
		}
		dup := false
		if seen != nil {
			_, dup = seen[name]
			seen[name] = struct{}{}
		} else if sig := nameSig(name); sigs&sig == 0 {
			sigs |= sig
		} else {
			for j := range p.members[base:] {
				if p.members[base+j].Name == name {
					dup = true
					break
				}
			}
		}
		if dup {
			p.i = nameAt
			return Value{}, at(p.fail("duplicate member name %q", name), name)
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("expected ':' after member name %q", name)
		}
		p.i++
		p.skipSpace()
		if p.inPlace(depth + 1) {
			p.members = append(p.members, Member{Name: name})
			if err := p.scalar(&p.members[len(p.members)-1].Value); err != nil {
				return Value{}, at(err, name)
			}
		} else {
			v, err := p.value(depth + 1)
			if err != nil {
				return Value{}, at(err, name)
			}
			p.members = append(p.members, Member{Name: name, Value: v})
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unterminated object")
		}
		if p.s[p.i] == '}' {
			p.i++
			members := p.takeMembers(len(p.members) - base)
			copy(members, p.members[base:])
			p.members = p.members[:base]
			return Value{Kind: Object, Members: members, Raw: p.s[start:p.i]}, nil
		}
		if p.s[p.i] != ',' {
			return Value{}, p.fail("expected ',' or '}' in object")
		}
		p.i++
	}
}

// nameSig is a member name's bit in an object's sigs: equal names have
// equal bits.
func nameSig(name string) uint64 {
	h := uint(len(name))
	if len(name) > 0 {
		h += 7 * uint(name[0])
	}
	return 1 << (h & 63)
}

func (p *parser) array(depth int) (Value, error) {
	start := p.i
	p.i++
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return Value{Kind: Array, Items: []Value{}, Raw: p.s[start:p.i]}, nil
	}
	base := len(p.items)
	for k := 0; ; k++ {
		p.skipSpace()
		if p.inPlace(depth + 1) {
			p.items = append(p.items, Value{})
			if err := p.scalar(&p.items[len(p.items)-1]); err != nil {
				return Value{}, at(err, strconv.Itoa(k))
			}
		} else {
			v, err := p.value(depth + 1)
			if err != nil {
				return Value{}, at(err, strconv.Itoa(k))
			}
			p.items = append(p.items, v)
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unterminated array")
		}
		if p.s[p.i] == ']' {
			p.i++
			items := p.takeValues(len(p.items) - base)
			copy(items, p.items[base:])
			p.items = p.items[:base]
			return Value{Kind: Array, Items: items, Raw: p.s[start:p.i]}, nil
		}
		if p.s[p.i] != ',' {
			return Value{}, p.fail("expected ',' or ']' in array")
		}
		p.i++
	}
}
