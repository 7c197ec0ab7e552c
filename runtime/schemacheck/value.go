// Package schemacheck is the runtime shared by ucpgen's generated validators:
// a strict JSON scanner that builds a small value tree, a compiled form of the
// JSON Schema keywords UCP uses, and the checks (formats, ECMA-262 patterns,
// JSON equality) that both need. Generated code declares schemas as Go values
// and calls Check; it never interprets schema JSON at run time.
package schemacheck

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	p := parser{s: string(data)}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return Value{}, p.fail("unexpected data after the top-level value")
	}
	return v, nil
}

type parser struct {
	s    string
	i    int
	path []string
}

func (p *parser) pointer() string {
	var b strings.Builder
	for _, t := range p.path {
		b.WriteByte('/')
		b.WriteString(rpcerr.EscapeToken(t))
	}
	return b.String()
}

func (p *parser) fail(format string, args ...any) error {
	return &ParseError{Pointer: p.pointer(), Offset: p.i, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.i >= len(p.s) {
		return Value{}, p.fail("unexpected end of input")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: String, Str: s, Raw: p.s[start:p.i]}, nil
	case c == 't':
		return p.literal("true", Value{Kind: Bool, Bool: true, Raw: "true"})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool, Raw: "false"})
	case c == 'n':
		return p.literal("null", Value{Kind: Null, Raw: "null"})
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		return Value{}, p.fail("unexpected character %q", c)
	}
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return Value{}, p.fail("invalid literal, want %s", word)
	}
	p.i += len(word)
	return v, nil
}

func (p *parser) number() (Value, error) {
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
		return Value{}, p.fail("a number needs digits")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return Value{}, p.fail("a number needs digits after the decimal point")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return Value{}, p.fail("a number needs digits in its exponent")
		}
	}
	text := p.s[start:p.i]
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return Value{}, p.fail("number %s: %v", text, err)
	}
	return Value{Kind: Number, Str: text, Num: f, Raw: text}, nil
}

// str reads a string literal; it returns a substring of the input when the
// literal has no escapes.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", p.fail("control character %#x in a string", c)
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			p.i += n
		}
	}
	return "", p.fail("unterminated string")
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
	var members []Member
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return Value{Kind: Object, Members: []Member{}, Raw: p.s[start:p.i]}, nil
	}
	for {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.fail("expected a member name string")
		}
		name, err := p.str()
		if err != nil {
			return Value{}, err
		}
		for i := range members {
			if members[i].Name == name {
				p.path = append(p.path, name)
				err := p.fail("duplicate member name %q", name)
				p.path = p.path[:len(p.path)-1]
				return Value{}, err
			}
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("expected ':' after member name %q", name)
		}
		p.i++
		p.skipSpace()
		p.path = append(p.path, name)
		v, err := p.value(depth + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return Value{}, err
		}
		members = append(members, Member{Name: name, Value: v})
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unterminated object")
		}
		if p.s[p.i] == '}' {
			p.i++
			return Value{Kind: Object, Members: members, Raw: p.s[start:p.i]}, nil
		}
		if p.s[p.i] != ',' {
			return Value{}, p.fail("expected ',' or '}' in object")
		}
		p.i++
	}
}

func (p *parser) array(depth int) (Value, error) {
	start := p.i
	p.i++
	p.skipSpace()
	items := []Value{}
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return Value{Kind: Array, Items: items, Raw: p.s[start:p.i]}, nil
	}
	for {
		p.skipSpace()
		p.path = append(p.path, strconv.Itoa(len(items)))
		v, err := p.value(depth + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return Value{}, err
		}
		items = append(items, v)
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unterminated array")
		}
		if p.s[p.i] == ']' {
			p.i++
			return Value{Kind: Array, Items: items, Raw: p.s[start:p.i]}, nil
		}
		if p.s[p.i] != ',' {
			return Value{}, p.fail("expected ',' or ']' in array")
		}
		p.i++
	}
}
