package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// Kind is the JSON type of a Node. It is the runtime's kind, so a value the
// generator reads and one the generated validators read are classed alike.
type Kind = schemacheck.Kind

// JSON value kinds, named here so loader code reads load.Object.
const (
	Null   = schemacheck.Null
	Bool   = schemacheck.Bool
	Number = schemacheck.Number
	String = schemacheck.String
	Array  = schemacheck.Array
	Object = schemacheck.Object
)

// Loc addresses a value inside the input tree as file#/json/pointer, the form
// every loader error uses so that a user can find the offending keyword.
type Loc struct {
	File    string
	Pointer string
}

func (l Loc) String() string { return l.File + "#" + l.Pointer }

// Child returns the location of a member or item below l.
func (l Loc) Child(token string) Loc {
	return Loc{File: l.File, Pointer: l.Pointer + "/" + rpcerr.EscapeToken(token)}
}

// Member is one object member; objects keep their members in source order
// because generated field order follows the schema author's order.
type Member struct {
	Key   string
	Value *Node
}

// Node is a parsed JSON value that remembers member order and its location.
type Node struct {
	Kind    Kind
	Bool    bool
	Str     string
	Num     json.Number
	Items   []*Node
	Members []Member
	Loc     Loc
}

// Get returns the value of member key, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, m := range n.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Interface converts the node to the generic form encoding/json produces
// (with json.Number for numbers), which the reference validator consumes.
func (n *Node) Interface() any {
	switch n.Kind {
	case Null:
		return nil
	case Bool:
		return n.Bool
	case Number:
		return n.Num
	case String:
		return n.Str
	case Array:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = it.Interface()
		}
		return out
	default:
		out := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			out[m.Key] = m.Value.Interface()
		}
		return out
	}
}

// JSON renders the node compactly with members in source order.
func (n *Node) JSON() []byte {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

func (n *Node) write(b *bytes.Buffer) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case Number:
		b.WriteString(n.Num.String())
	case String:
		s, _ := json.Marshal(n.Str)
		b.Write(s)
	case Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.write(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.Key)
			b.Write(k)
			b.WriteByte(':')
			m.Value.write(b)
		}
		b.WriteByte('}')
	}
}

// Parse decodes data into an ordered Node tree. Duplicate member names are
// rejected: a schema with two "required" keywords has no single meaning.
func Parse(file string, data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec, Loc{File: file})
	if err != nil {
		return nil, describeSyntax(file, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: invalid JSON: trailing data after the top-level value", file)
	}
	return n, nil
}

func parseValue(dec *json.Decoder, loc Loc) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return parseToken(dec, tok, loc)
}

func parseToken(dec *json.Decoder, tok json.Token, loc Loc) (*Node, error) {
	n := &Node{Loc: loc}
	switch t := tok.(type) {
	case nil:
		n.Kind = Null
	case bool:
		n.Kind, n.Bool = Bool, t
	case json.Number:
		n.Kind, n.Num = Number, t
	case string:
		n.Kind, n.Str = String, t
	case json.Delim:
		switch t {
		case '[':
			n.Kind = Array
			for i := 0; dec.More(); i++ {
				it, err := parseValue(dec, loc.Child(strconv.Itoa(i)))
				if err != nil {
					return nil, err
				}
				n.Items = append(n.Items, it)
			}
		case '{':
			n.Kind = Object
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key := kt.(string)
				if seen[key] {
					return nil, &dupError{loc: loc.Child(key)}
				}
				seen[key] = true
				v, err := parseValue(dec, loc.Child(key))
				if err != nil {
					return nil, err
				}
				n.Members = append(n.Members, Member{Key: key, Value: v})
			}
		}
		if _, err := dec.Token(); err != nil { // closing delimiter
			return nil, err
		}
	}
	return n, nil
}

type dupError struct{ loc Loc }

func (e *dupError) Error() string { return e.loc.String() + ": duplicate member name" }

func describeSyntax(file string, data []byte, err error) error {
	if d, ok := err.(*dupError); ok {
		return d
	}
	if se, ok := err.(*json.SyntaxError); ok {
		line, col := lineCol(data, se.Offset)
		return fmt.Errorf("%s: invalid JSON at line %d, column %d: %v", file, line, col, se)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return fmt.Errorf("%s: invalid JSON: unexpected end of input", file)
	}
	return fmt.Errorf("%s: invalid JSON: %v", file, err)
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
