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
	set *load.Set
	// reduce drops the annotations a client cannot use (see reducedAway).
	reduce bool
	keys   map[load.Loc]string
	used   map[string]bool
	defs   map[string]*load.Node
	todo   []*load.Schema
}

func newBundler(set *load.Set, reduce bool) *bundler {
	return &bundler{set: set, reduce: reduce, keys: map[load.Loc]string{}, used: map[string]bool{}, defs: map[string]*load.Node{}}
}

// reducedAway are the schema keywords a reduced bundle leaves out. None of
// them asserts anything, so the reduced schema accepts exactly what the full
// one does: UCP's direction annotations (already applied by the server's
// validator), examples, titles (every schema keeps its description) and
// comments.
var reducedAway = map[string]bool{"ucp_request": true, "ucp_response": true, "examples": true, "title": true, "$comment": true}

// Keywords whose value is a schema, an array of schemas or a map of schemas;
// everything else in a schema object is copied as a plain value, so that a
// property named "title" is never mistaken for the annotation.
var (
	schemaValued = map[string]bool{"items": true, "additionalProperties": true, "not": true, "if": true, "then": true,
		"else": true, "propertyNames": true, "contains": true, "unevaluatedItems": true, "unevaluatedProperties": true}
	schemaArrays = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	schemaMaps   = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true}
)

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

// copyNode copies a schema node, rewriting $ref members and dropping $id,
// $schema and nested $defs (a nested $id would change how references
// resolve; the definitions are bundled at the root).
func (b *bundler) copyNode(n *load.Node) (*load.Node, error) {
	if n.Kind != load.Object {
		return n, nil // boolean schema
	}
	out := &load.Node{Kind: load.Object}
	for _, m := range n.Members {
		var (
			c   *load.Node
			err error
		)
		switch {
		case m.Key == "$id" || m.Key == "$schema" || m.Key == "$defs" && m.Value.Kind == load.Object:
			continue
		case b.reduce && reducedAway[m.Key]:
			continue
		case m.Key == "$ref" && m.Value.Kind == load.String:
			s := b.set.SchemaAt(n.Loc)
			if s == nil || s.Ref == nil {
				return nil, fmt.Errorf("%s: unresolved $ref while bundling", n.Loc)
			}
			c = str("#/$defs/" + b.key(s.Ref))
		case schemaValued[m.Key]:
			c, err = b.copyNode(m.Value)
		case schemaArrays[m.Key] && m.Value.Kind == load.Array:
			c = &load.Node{Kind: load.Array}
			for _, it := range m.Value.Items {
				ci, err := b.copyNode(it)
				if err != nil {
					return nil, err
				}
				c.Items = append(c.Items, ci)
			}
		case schemaMaps[m.Key] && m.Value.Kind == load.Object:
			c = &load.Node{Kind: load.Object}
			for _, pm := range m.Value.Members {
				cp, err := b.copyNode(pm.Value)
				if err != nil {
					return nil, err
				}
				c.Members = append(c.Members, load.Member{Key: pm.Key, Value: cp})
			}
		default:
			c = m.Value // a plain value: enum, const, required, default, ...
		}
		if err != nil {
			return nil, err
		}
		out.Members = append(out.Members, load.Member{Key: m.Key, Value: c})
	}
	return out, nil
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
// Each member is written out in place rather than as a bare $ref, so that
// its "type" sits beside its content: some clients (MCP Inspector 0.15)
// choose an input widget from a top-level member's type and send a string
// when there is none.
func objectSchema(set *load.Set, names []string, schemas []*load.Schema, required []string, reduce bool) ([]byte, error) {
	b := newBundler(set, reduce)
	props := &load.Node{Kind: load.Object}
	for i, name := range names {
		s := schemas[i]
		for s.Ref != nil && isPureRef(s) {
			s = s.Ref
		}
		inline, err := b.copyNode(s.Node)
		if err != nil {
			return nil, err
		}
		if inline.Get("type") == nil {
			t := schemaType(s)
			if t == "" {
				return nil, fmt.Errorf("%s: the schema of tool argument %q names no type", s.Loc, name)
			}
			inline.Members = append([]load.Member{member("type", str(t))}, inline.Members...)
		}
		props.Members = append(props.Members, load.Member{Key: name, Value: inline})
	}
	req := &load.Node{Kind: load.Array}
	for _, r := range required {
		req.Items = append(req.Items, str(r))
	}
	defs, err := b.finish()
	if err != nil {
		return nil, err
	}
	members := []load.Member{
		member("$schema", str("https://json-schema.org/draft/2020-12/schema")),
		member("type", str("object")),
		member("required", req),
		member("properties", props),
	}
	if len(defs.Members) > 0 {
		members = append(members, member("$defs", defs))
	}
	return obj(members...).JSON(), nil
}

// schemaType is the single JSON type a schema is declared with, looking
// through $ref and allOf, or "" when it declares none or several.
func schemaType(s *load.Schema) string {
	if len(s.Types) == 1 {
		return s.Types[0]
	}
	if len(s.Types) > 1 {
		return ""
	}
	if s.Ref != nil {
		if t := schemaType(s.Ref); t != "" {
			return t
		}
	}
	for _, a := range s.AllOf {
		if t := schemaType(a); t != "" {
			return t
		}
	}
	return ""
}

// refSchema bundles a single schema (a tool result) as the root.
func refSchema(set *load.Set, s *load.Schema, reduce bool) ([]byte, error) {
	b := newBundler(set, reduce)
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
