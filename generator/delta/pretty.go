package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// lineWidth is the width up to which the manifest keeps a flat array or
// object on one line, so a member reads as one line of the file.
const lineWidth = 100

// node is one JSON value with object members in document order.
type node struct {
	scalar  string // encoded scalar; empty for a container
	isObj   bool
	keys    []string // object member names, encoded
	members []*node  // object values or array items
}

// pretty re-indents compact JSON by two spaces, keeping an array or object
// whose items are all scalars on one line when it fits lineWidth.
func pretty(compact []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(compact))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	n.write(&b, 0, 0)
	b.WriteByte('\n')
	return []byte(b.String()), nil
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &node{isObj: v == '{'}
		for dec.More() {
			if n.isObj {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, encodeScalar(k))
			}
			child, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, child)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	default:
		return &node{scalar: encodeScalar(v)}, nil
	}
}

// encodeScalar writes a decoded token back as JSON text, without the HTML
// escaping json.Marshal applies.
func encodeScalar(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(v)
	case json.Number:
		return v.String()
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// leaf is the text of a scalar or of an empty container, "" for a
// container with items.
func (n *node) leaf() string {
	switch {
	case n.scalar != "":
		return n.scalar
	case len(n.members) > 0:
		return ""
	case n.isObj:
		return "{}"
	}
	return "[]"
}

// flat is the one-line form of a container of leaves, "" when some item
// has items of its own.
func (n *node) flat() string {
	parts := make([]string, len(n.members))
	for i, m := range n.members {
		if parts[i] = m.leaf(); parts[i] == "" {
			return ""
		}
		if n.isObj {
			parts[i] = n.keys[i] + ": " + parts[i]
		}
	}
	if n.isObj {
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// write renders n nested depth containers deep, starting at column col of
// its line (after the indentation and the member name).
func (n *node) write(b *strings.Builder, depth, col int) {
	if l := n.leaf(); l != "" {
		b.WriteString(l)
		return
	}
	opener, closer := "[", "]"
	if n.isObj {
		opener, closer = "{", "}"
	}
	flat := n.flat()
	if flat != "" && col+len(flat)+1 <= lineWidth {
		b.WriteString(flat)
		return
	}
	pad := strings.Repeat("  ", depth+1)
	b.WriteString(opener + "\n")
	if flat != "" && !n.isObj {
		// A long list of names fills its lines rather than taking one each.
		line := pad
		for i, m := range n.members {
			item := m.leaf()
			if i < len(n.members)-1 {
				item += ","
			}
			if line != pad && len(line)+1+len(item) > lineWidth {
				b.WriteString(line + "\n")
				line = pad
			}
			if line != pad {
				line += " "
			}
			line += item
		}
		b.WriteString(line + "\n" + strings.Repeat("  ", depth) + closer)
		return
	}
	for i, m := range n.members {
		prefix := pad
		if n.isObj {
			prefix += n.keys[i] + ": "
		}
		b.WriteString(prefix)
		m.write(b, depth+1, len(prefix))
		if i < len(n.members)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", depth) + closer)
}
