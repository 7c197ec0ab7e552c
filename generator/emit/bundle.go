package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load"
)

// bundle builds a self-contained JSON Schema for MCP: root is an object with
// the given members, and every schema they reach through $ref is copied into
// $defs with its references rewritten, so clients never fetch anything.
type bundler struct {
	set  *load.Set
	keys map[load.Loc]string
	used map[string]bool
	defs map[string]*load.Node
	todo []*load.Schema
}

func newBundler(set *load.Set) *bundler {
	return &bundler{set: set, keys: map[load.Loc]string{}, used: map[string]bool{}, defs: map[string]*load.Node{}}
}

// key names a bundled definition after its file and pointer.
func (b *bundler) key(s *load.Schema) string {
	if k, ok := b.keys[s.Loc]; ok {
		return k
	}
	name := strings.TrimSuffix(s.Loc.File[strings.LastIndex(s.Loc.File, "/")+1:], ".json")
	if p := s.Loc.Pointer; p != "" {
		name += "." + p[strings.LastIndex(p, "/")+1:]
	}
	k := name
	for i := 2; b.used[k]; i++ {
		k = fmt.Sprintf("%s_%d", name, i)
	}
	b.used[k] = true
	b.keys[s.Loc] = k
	b.todo = append(b.todo, s)
	return k
}

// ref returns a {"$ref": "#/$defs/key"} node for s.
func (b *bundler) ref(s *load.Schema) *load.Node {
	for s.Ref != nil && isPureRef(s) {
		s = s.Ref
	}
	return obj(member("$ref", str("#/$defs/"+b.key(s))))
}

func isPureRef(s *load.Schema) bool {
	for _, m := range s.Node.Members {
		if m.Key != "$ref" {
			return false
		}
	}
	return true
}

// copyNode copies a schema node, rewriting $ref members and dropping $id and
// $schema (a nested $id would change how references resolve).
func (b *bundler) copyNode(n *load.Node) (*load.Node, error) {
	switch n.Kind {
	case load.Array:
		out := &load.Node{Kind: load.Array}
		for _, it := range n.Items {
			c, err := b.copyNode(it)
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, c)
		}
		return out, nil
	case load.Object:
		out := &load.Node{Kind: load.Object}
		for _, m := range n.Members {
			switch {
			case m.Key == "$id" || m.Key == "$schema" || m.Key == "$defs" && m.Value.Kind == load.Object:
				continue
			case m.Key == "$ref" && m.Value.Kind == load.String:
				s := b.set.SchemaAt(n.Loc)
				if s == nil || s.Ref == nil {
					return nil, fmt.Errorf("%s: unresolved $ref while bundling", n.Loc)
				}
				target := s.Ref
				out.Members = append(out.Members, member("$ref", str("#/$defs/"+b.key(target))))
			default:
				c, err := b.copyNode(m.Value)
				if err != nil {
					return nil, err
				}
				out.Members = append(out.Members, load.Member{Key: m.Key, Value: c})
			}
		}
		return out, nil
	}
	return n, nil
}

// finish copies every queued definition and returns the $defs node.
func (b *bundler) finish() (*load.Node, error) {
	for len(b.todo) > 0 {
		s := b.todo[0]
		b.todo = b.todo[1:]
		c, err := b.copyNode(s.Node)
		if err != nil {
			return nil, err
		}
		b.defs[b.keys[s.Loc]] = c
	}
	keys := make([]string, 0, len(b.defs))
	for k := range b.defs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	defs := &load.Node{Kind: load.Object}
	for _, k := range keys {
		defs.Members = append(defs.Members, load.Member{Key: k, Value: b.defs[k]})
	}
	return defs, nil
}

// objectSchema bundles an object schema whose members are the given params.
func objectSchema(set *load.Set, names []string, schemas []*load.Schema, required []string) ([]byte, error) {
	b := newBundler(set)
	props := &load.Node{Kind: load.Object}
	for i, name := range names {
		props.Members = append(props.Members, load.Member{Key: name, Value: b.ref(schemas[i])})
	}
	req := &load.Node{Kind: load.Array}
	for _, r := range required {
		req.Items = append(req.Items, str(r))
	}
	defs, err := b.finish()
	if err != nil {
		return nil, err
	}
	root := obj(
		member("$schema", str("https://json-schema.org/draft/2020-12/schema")),
		member("type", str("object")),
		member("required", req),
		member("properties", props),
		member("$defs", defs),
	)
	return root.JSON(), nil
}

// refSchema bundles a single schema (a tool result) as the root.
func refSchema(set *load.Set, s *load.Schema) ([]byte, error) {
	b := newBundler(set)
	r := b.ref(s)
	defs, err := b.finish()
	if err != nil {
		return nil, err
	}
	root := obj(
		member("$schema", str("https://json-schema.org/draft/2020-12/schema")),
		member("type", str("object")),
		member("$ref", r.Get("$ref")),
		member("$defs", defs),
	)
	return root.JSON(), nil
}

func obj(ms ...load.Member) *load.Node          { return &load.Node{Kind: load.Object, Members: ms} }
func member(k string, v *load.Node) load.Member { return load.Member{Key: k, Value: v} }
func str(s string) *load.Node                   { return &load.Node{Kind: load.String, Str: s} }
