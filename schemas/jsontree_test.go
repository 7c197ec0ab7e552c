package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// jnode is one decoded JSON value that remembers the order of object members,
// because the equivalence checks compare member order as well as content.
type jnode struct {
	kind   byte // 'o' object, 'a' array, 'v' scalar
	keys   []string
	fields map[string]*jnode
	elems  []*jnode
	scalar any // string, json.Number, bool or nil
}

// parseOrdered decodes a complete JSON document token by token, rejecting
// duplicate object members and trailing data.
func parseOrdered(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trailing data after the top-level value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder, ptr string) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("at #%s: %w", ptr, err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return &jnode{kind: 'v', scalar: tok}, nil
	}
	switch d {
	case '{':
		n := &jnode{kind: 'o', fields: map[string]*jnode{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("at #%s: %w", ptr, err)
			}
			k, _ := kt.(string)
			if _, dup := n.fields[k]; dup {
				return nil, fmt.Errorf("at #%s: duplicate member %q", ptr, k)
			}
			v, err := decodeNode(dec, ptr+"/"+escapePointer(k))
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.fields[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("at #%s: %w", ptr, err)
		}
		return n, nil
	case '[':
		n := &jnode{kind: 'a'}
		for dec.More() {
			v, err := decodeNode(dec, fmt.Sprintf("%s/%d", ptr, len(n.elems)))
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("at #%s: %w", ptr, err)
		}
		return n, nil
	}
	return nil, fmt.Errorf("at #%s: unexpected delimiter %v", ptr, d)
}

// escapePointer escapes one JSON Pointer reference token (RFC 6901).
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// field returns the member k of an object node, or nil.
func (n *jnode) field(k string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.fields[k]
}

// str returns the node's string value and whether it is a string.
func (n *jnode) str() (string, bool) {
	if n == nil || n.kind != 'v' {
		return "", false
	}
	s, ok := n.scalar.(string)
	return s, ok
}

// at resolves a JSON Pointer inside the tree, or returns nil.
func (n *jnode) at(ptr string) *jnode {
	if ptr == "" {
		return n
	}
	cur := n
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case cur == nil:
			return nil
		case cur.kind == 'o':
			cur = cur.fields[tok]
		case cur.kind == 'a':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.elems) {
				return nil
			}
			cur = cur.elems[i]
		default:
			return nil
		}
	}
	return cur
}

// value converts the tree to the plain Go values the schema validator takes.
func (n *jnode) value() any {
	switch n.kind {
	case 'o':
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k] = n.fields[k].value()
		}
		return m
	case 'a':
		s := make([]any, len(n.elems))
		for i, e := range n.elems {
			s[i] = e.value()
		}
		return s
	}
	return n.scalar
}

// Keywords of JSON Schema 2020-12 (plus a few older spellings) whose values
// are themselves schemas, so that annotations are stripped only where they
// really are annotations and never from a property that merely has that name.
var (
	subschemaKeywords = map[string]bool{
		"additionalProperties": true, "propertyNames": true, "items": true,
		"contains": true, "not": true, "if": true, "then": true, "else": true,
		"unevaluatedItems": true, "unevaluatedProperties": true,
		"contentSchema": true, "additionalItems": true,
	}
	schemaMapKeywords = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true,
		"definitions": true, "dependentSchemas": true,
	}
	schemaArrayKeywords = map[string]bool{
		"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
	}
)

// schemaAnnotations are the prose keywords removed from schema objects before
// comparing structure; proseAnnotations are removed from OpenRPC objects.
var (
	schemaAnnotations = []string{"description", "examples", "$comment"}
	proseAnnotations  = []string{"description"}
)

// site is an object at which some keywords are annotations: a schema, or an
// OpenRPC info/server/variable/method/content-descriptor object.
type site struct {
	ptr         string
	node        *jnode
	schema      bool
	annotations []string
}

func walkSchema(n *jnode, ptr string, out *[]site) {
	if n == nil || n.kind != 'o' {
		return // boolean schemas carry no annotations
	}
	*out = append(*out, site{ptr: ptr, node: n, schema: true, annotations: schemaAnnotations})
	for _, k := range n.keys {
		v := n.fields[k]
		p := ptr + "/" + escapePointer(k)
		switch {
		case (subschemaKeywords[k] || schemaArrayKeywords[k]) && v.kind == 'a':
			for i, e := range v.elems {
				walkSchema(e, fmt.Sprintf("%s/%d", p, i), out)
			}
		case subschemaKeywords[k]:
			walkSchema(v, p, out)
		case schemaMapKeywords[k] && v.kind == 'o':
			for _, mk := range v.keys {
				walkSchema(v.fields[mk], p+"/"+escapePointer(mk), out)
			}
		}
	}
}

func walkOpenRPC(doc *jnode, out *[]site) {
	prose := func(ptr string, n *jnode) {
		if n != nil && n.kind == 'o' {
			*out = append(*out, site{ptr: ptr, node: n, annotations: proseAnnotations})
		}
	}
	// info.version (required by OpenRPC, absent upstream) names the UCP
	// release the generator stamps into its output.
	if info := doc.field("info"); info != nil && info.kind == 'o' {
		*out = append(*out, site{ptr: "/info", node: info, annotations: append([]string{"version"}, proseAnnotations...)})
	}
	if servers := doc.field("servers"); servers != nil {
		for i, s := range servers.elems {
			p := fmt.Sprintf("/servers/%d", i)
			prose(p, s)
			if vars := s.field("variables"); vars != nil && vars.kind == 'o' {
				for _, k := range vars.keys {
					prose(p+"/variables/"+escapePointer(k), vars.fields[k])
				}
			}
		}
	}
	if schemas := doc.field("components").field("schemas"); schemas != nil && schemas.kind == 'o' {
		for _, k := range schemas.keys {
			walkSchema(schemas.fields[k], "/components/schemas/"+escapePointer(k), out)
		}
	}
	if methods := doc.field("methods"); methods != nil {
		for i, m := range methods.elems {
			p := fmt.Sprintf("/methods/%d", i)
			prose(p, m)
			if params := m.field("params"); params != nil {
				for j, cd := range params.elems {
					cp := fmt.Sprintf("%s/params/%d", p, j)
					prose(cp, cd)
					walkSchema(cd.field("schema"), cp+"/schema", out)
				}
			}
			if res := m.field("result"); res != nil {
				prose(p+"/result", res)
				walkSchema(res.field("schema"), p+"/result/schema", out)
			}
		}
	}
}

// annotationSites lists the objects of a tree file whose prose keywords are
// annotations; rel decides whether the file is an OpenRPC document.
func annotationSites(rel string, doc *jnode) []site {
	var out []site
	if strings.HasSuffix(rel, ".openrpc.json") {
		walkOpenRPC(doc, &out)
	} else {
		walkSchema(doc, "", &out)
	}
	return out
}

// stripAnnotations returns a copy of doc without the annotation keywords at
// the given sites; everything else, member order included, is kept.
func stripAnnotations(doc *jnode, sites []site) *jnode {
	drop := map[*jnode][]string{}
	for _, s := range sites {
		drop[s.node] = s.annotations
	}
	var clone func(n *jnode) *jnode
	clone = func(n *jnode) *jnode {
		switch n.kind {
		case 'o':
			c := &jnode{kind: 'o', fields: map[string]*jnode{}}
			for _, k := range n.keys {
				if containsString(drop[n], k) {
					continue
				}
				c.keys = append(c.keys, k)
				c.fields[k] = clone(n.fields[k])
			}
			return c
		case 'a':
			c := &jnode{kind: 'a'}
			for _, e := range n.elems {
				c.elems = append(c.elems, clone(e))
			}
			return c
		}
		return &jnode{kind: 'v', scalar: n.scalar}
	}
	return clone(doc)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// firstDifference compares want (upstream) with got (ours) and describes the
// first difference found in document order, with its JSON Pointer; it
// returns ok=true when the two are equal. Member order is not compared here.
func firstDifference(want, got *jnode, ptr string) (at, why string, ok bool) {
	if want.kind != got.kind {
		return ptr, fmt.Sprintf("upstream has %s, ours has %s", describe(want), describe(got)), false
	}
	switch want.kind {
	case 'o':
		for _, k := range want.keys {
			g, present := got.fields[k]
			if !present {
				return ptr + "/" + escapePointer(k), "member present upstream is missing in ours", false
			}
			if at, why, ok := firstDifference(want.fields[k], g, ptr+"/"+escapePointer(k)); !ok {
				return at, why, false
			}
		}
		for _, k := range got.keys {
			if _, present := want.fields[k]; !present {
				return ptr + "/" + escapePointer(k), "member in ours does not exist upstream", false
			}
		}
	case 'a':
		for i := 0; i < len(want.elems) && i < len(got.elems); i++ {
			if at, why, ok := firstDifference(want.elems[i], got.elems[i], fmt.Sprintf("%s/%d", ptr, i)); !ok {
				return at, why, false
			}
		}
		if len(want.elems) != len(got.elems) {
			return ptr, fmt.Sprintf("upstream array has %d elements, ours has %d", len(want.elems), len(got.elems)), false
		}
	default:
		if !scalarsEqual(want.scalar, got.scalar) {
			return ptr, fmt.Sprintf("upstream value %s, ours %s", describe(want), describe(got)), false
		}
	}
	return "", "", true
}

// scalarsEqual compares JSON scalars, treating numbers by value so that 1 and
// 1.0 are the same number.
func scalarsEqual(a, b any) bool {
	na, aNum := a.(json.Number)
	nb, bNum := b.(json.Number)
	if aNum && bNum {
		ra, okA := new(big.Rat).SetString(string(na))
		rb, okB := new(big.Rat).SetString(string(nb))
		if okA && okB {
			return ra.Cmp(rb) == 0
		}
		return na == nb
	}
	if aNum != bNum {
		return false
	}
	return a == b
}

func describe(n *jnode) string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	}
	switch v := n.scalar.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case json.Number:
		return "number " + string(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(n.scalar)
}

// propertyOrders maps the pointer of every schema's `properties` object to
// its member names in document order.
func propertyOrders(rel string, doc *jnode) map[string][]string {
	out := map[string][]string{}
	for _, s := range annotationSites(rel, doc) {
		if !s.schema {
			continue
		}
		if props := s.node.field("properties"); props != nil && props.kind == 'o' {
			out[s.ptr+"/properties"] = append([]string(nil), props.keys...)
		}
	}
	return out
}

// descriptions maps the pointer of every annotation site to its description.
func descriptions(rel string, doc *jnode) map[string]string {
	out := map[string]string{}
	for _, s := range annotationSites(rel, doc) {
		if d, ok := s.node.field("description").str(); ok {
			out[s.ptr] = d
		}
	}
	return out
}

// FuzzParseOrdered checks the ordered decoder against encoding/json: it may
// only accept valid JSON, may refuse valid JSON only for a duplicate member,
// and what it accepts must survive a round trip unchanged.
func FuzzParseOrdered(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `null`, `{"a":[1,2.5e3,"x",true,null]}`, `{"a":1,"a":2}`, `{"a":`, `[1] 2`} {
		f.Add([]byte(s))
	}
	_ = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, err := fs.ReadFile(FS, p); err == nil {
				f.Add(data)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := parseOrdered(data)
		if err != nil {
			if json.Valid(data) && !strings.Contains(err.Error(), "duplicate member") {
				t.Fatalf("refused valid JSON %q: %v", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if at, why, ok := firstDifference(n, n, ""); !ok {
			t.Fatalf("value differs from itself at #%s: %s", at, why)
		}
		again, err := json.Marshal(n.value())
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		m, err := parseOrdered(again)
		if err != nil {
			t.Fatalf("re-parse %s: %v", again, err)
		}
		if at, why, ok := firstDifference(n, m, ""); !ok {
			t.Fatalf("round trip changed #%s: %s", at, why)
		}
	})
}
