package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

// bundler builds a self-contained JSON Schema for MCP: root is an object
// with the given members, and every schema they reach through $ref is copied
// into $defs with its references rewritten, so clients never fetch anything.
// Every copy is resolved for one direction and operation, as the validator
// of that tool compiles it (see directed): a bundle serves one tool, so each
// definition has exactly one shape in it and keeps its file.pointer name.
type bundler struct {
	set *load.Set
	dir ir.Direction
	op  string
	// form says which keywords the bundle leaves out (see form.drops) and
	// whether definitions used once are written in place.
	form form
	keys map[load.Loc]string
	used map[string]bool
	defs map[string]*load.Node
	todo []*load.Schema
}

func newBundler(set *load.Set, f form, dir ir.Direction, op string) *bundler {
	return &bundler{set: set, form: f, dir: dir, op: op, keys: map[load.Loc]string{}, used: map[string]bool{}, defs: map[string]*load.Node{}}
}

// form is how much of a tool schema a bundle keeps. Every form accepts
// exactly the same documents; they differ only in annotations and layout.
type form int

const (
	// formFull keeps every keyword and every definition in $defs: the
	// reference the reduced forms are tested against. Like every form it
	// has the direction annotations applied (see directed).
	formFull form = iota
	// formDescribed leaves out the annotations no reader needs (see
	// reducedAway) but keeps every description, and writes each definition
	// used once in place of its reference. Input schemas use it, because
	// models read them.
	formDescribed
	// formLean is formDescribed without descriptions and defaults. Output
	// schemas use it by default: clients validate results against them and
	// nobody reads their prose, which is half of their bytes.
	formLean
)

// reducedAway are the schema keywords the reduced forms leave out. None of
// them asserts anything, so a reduced schema accepts exactly what the full
// one does: UCP's direction annotations (every form has already applied
// them to properties and required, see directed), examples, titles and
// comments.
var reducedAway = map[string]bool{"ucp_request": true, "ucp_response": true, "examples": true, "title": true, "$comment": true}

// leanAway are the further annotations formLean leaves out.
var leanAway = map[string]bool{"description": true, "default": true}

// drops reports whether the form leaves the schema keyword out.
func (f form) drops(keyword string) bool {
	return f >= formDescribed && reducedAway[keyword] || f >= formLean && leanAway[keyword]
}

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
	return obj(member("$ref", str("#/$defs/"+b.key(b.target(s)))))
}

// target follows s through schemas that, in this form, hold nothing but a
// $ref: such a schema accepts exactly what its target accepts.
func (b *bundler) target(s *load.Schema) *load.Schema {
	for s.Ref != nil && b.isPureRef(s) {
		s = s.Ref
	}
	return s
}

// isPureRef reports whether s keeps nothing but its $ref in this form.
func (b *bundler) isPureRef(s *load.Schema) bool {
	for _, m := range s.Node.Members {
		if m.Key != "$ref" && !b.form.drops(m.Key) {
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
	req, keep, resolved, err := b.directed(n)
	if err != nil {
		return nil, err
	}
	out := &load.Node{Kind: load.Object}
	for _, m := range n.Members {
		var (
			c   *load.Node
			err error
		)
		switch {
		case resolved && m.Key == "required":
			continue // written from req beside properties
		case resolved && m.Key == "properties" && m.Value.Kind == load.Object:
			if len(req) > 0 {
				out.Members = append(out.Members, member("required", strList(req)))
			}
			c = &load.Node{Kind: load.Object}
			for _, pm := range m.Value.Members {
				if !keep[pm.Key] {
					continue
				}
				cp, err := b.copyNode(pm.Value)
				if err != nil {
					return nil, err
				}
				c.Members = append(c.Members, load.Member{Key: pm.Key, Value: cp})
			}
		case m.Key == "$id" || m.Key == "$schema" || m.Key == "$defs" && m.Value.Kind == load.Object:
			continue
		case b.form.drops(m.Key):
			continue
		case m.Key == "$ref" && m.Value.Kind == load.String:
			s := b.set.SchemaAt(n.Loc)
			if s == nil || s.Ref == nil {
				return nil, fmt.Errorf("%s: unresolved $ref while bundling", n.Loc)
			}
			t := s.Ref
			if b.form > formFull {
				t = b.target(t)
			}
			c = str("#/$defs/" + b.key(t))
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

// directed applies UCP's direction annotations of the bundle's direction
// and operation to the object schema n exactly as the validator does (see
// required in check.go): an "omit" property leaves properties and
// required, "required" joins required, "optional" leaves it. resolved is
// false when no property of n is annotated for them, so n is copied as it
// stands; otherwise req is the required list to write and keep the
// properties that remain.
func (b *bundler) directed(n *load.Node) (req []string, keep map[string]bool, resolved bool, err error) {
	s := b.set.SchemaAt(n.Loc)
	if s == nil || len(s.Properties) == 0 {
		return nil, nil, false, nil
	}
	for _, p := range s.Properties {
		ann, err := ir.Annotation(p.Schema, b.dir, b.op)
		if err != nil {
			return nil, nil, false, err
		}
		resolved = resolved || ann != ""
	}
	if !resolved {
		return nil, nil, false, nil
	}
	req, props, err := required(s, b.dir, b.op)
	if err != nil {
		return nil, nil, false, err
	}
	keep = map[string]bool{}
	for _, p := range props {
		keep[p.Name] = true
	}
	return req, keep, true, nil
}

// strList is a JSON array of strings.
func strList(list []string) *load.Node {
	out := &load.Node{Kind: load.Array}
	for _, s := range list {
		out.Items = append(out.Items, str(s))
	}
	return out
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

// objectSchema bundles an object schema whose members are the given params,
// as requests of operation op.
// Each member is written out in place rather than as a bare $ref, so that
// its "type" sits beside its content: some clients (MCP Inspector 0.15)
// choose an input widget from a top-level member's type and send a string
// when there is none.
func objectSchema(set *load.Set, names []string, schemas []*load.Schema, required []string, f form, op string) ([]byte, error) {
	b := newBundler(set, f, ir.Request, op)
	props := &load.Node{Kind: load.Object}
	for i, name := range names {
		s := b.target(schemas[i])
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
	root := obj(
		member("$schema", str(dialect)),
		member("type", str("object")),
		member("required", req),
		member("properties", props),
	)
	return b.layout(root, defs).JSON(), nil
}

// dialect is the JSON Schema version every bundle declares (also MCP's
// default, but stating it costs little and spares clients a guess).
const dialect = "https://json-schema.org/draft/2020-12/schema"

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

// refSchema bundles a single schema (a tool result) as the root, as a
// response of operation op.
func refSchema(set *load.Set, s *load.Schema, f form, op string) ([]byte, error) {
	b := newBundler(set, f, ir.Response, op)
	r := b.ref(s)
	defs, err := b.finish()
	if err != nil {
		return nil, err
	}
	root := obj(
		member("$schema", str(dialect)),
		member("type", str("object")),
		member("$ref", r.Get("$ref")),
	)
	return b.layout(root, defs).JSON(), nil
}

// layout attaches defs to root. The reduced forms first write every
// definition referenced exactly once in place of its reference, which keeps
// what the schema accepts (a schema that is nothing but a $ref accepts what
// its target does) and saves the $defs entry and the pointer. A definition
// referenced twice or more, or from inside itself, stays in $defs, so
// recursion keeps its $ref.
func (b *bundler) layout(root, defs *load.Node) *load.Node {
	if b.form > formFull {
		defs = inlineSingleUse(root, defs)
	}
	if len(defs.Members) > 0 {
		root.Members = append(root.Members, member("$defs", defs))
	}
	return root
}

// inlineSingleUse moves each definition of defs that is referenced exactly
// once, by a schema holding nothing but that $ref, into the referring
// schema's place, and returns the definitions that remain. A root made of
// $schema, type "object" and the $ref takes the members of its definition
// when that one declares no other type. root must not hold defs yet.
func inlineSingleUse(root, defs *load.Node) *load.Node {
	byKey := map[string]*load.Node{}
	uses := map[string]int{}
	for _, m := range defs.Members {
		byKey[m.Key] = m.Value
	}
	countRefs(root, uses)
	for _, m := range defs.Members {
		countRefs(m.Value, uses)
	}
	moved := map[string]bool{}
	// open holds the definitions being written out, so that a reference
	// from inside one of them to itself is never followed.
	open := map[string]bool{}
	var visit func(n *load.Node) *load.Node
	// inline is definition k, its own single-use references written in
	// place, for the one place that refers to it.
	inline := func(k string) *load.Node {
		moved[k], open[k] = true, true
		defer delete(open, k)
		return visit(byKey[k])
	}
	visit = func(n *load.Node) *load.Node {
		if k, ok := bareRef(n); ok && uses[k] == 1 && !open[k] && byKey[k] != nil {
			return inline(k)
		}
		eachSubschema(n, visit)
		return n
	}
	if k, ok := rootRef(root, byKey); ok && uses[k] == 1 {
		def := inline(k)
		root.Members = root.Members[:len(root.Members)-1] // the $ref
		for _, m := range def.Members {
			if m.Key != "type" {
				root.Members = append(root.Members, m)
			}
		}
	} else {
		eachSubschema(root, visit)
	}
	for _, m := range defs.Members {
		if !moved[m.Key] {
			open[m.Key] = true
			eachSubschema(m.Value, visit)
			delete(open, m.Key)
		}
	}
	kept := &load.Node{Kind: load.Object}
	for _, m := range defs.Members {
		if !moved[m.Key] {
			kept.Members = append(kept.Members, m)
		}
	}
	return kept
}

// rootRef returns the definition a root of $schema, type "object" and a
// last member $ref points to, when that definition is an object schema
// declaring type "object" or none, so the root can take its members.
func rootRef(root *load.Node, defs map[string]*load.Node) (string, bool) {
	if len(root.Members) != 3 || root.Members[2].Key != "$ref" {
		return "", false
	}
	for _, m := range root.Members[:2] {
		switch {
		case m.Key == "$schema":
		case m.Key == "type" && m.Value.Kind == load.String && m.Value.Str == "object":
		default:
			return "", false
		}
	}
	k, ok := strings.CutPrefix(refString(root.Members[2].Value), "#/$defs/")
	def := defs[k]
	if !ok || def == nil || def.Kind != load.Object || def.Get("$schema") != nil {
		return "", false
	}
	if t := def.Get("type"); t != nil && (t.Kind != load.String || t.Str != "object") {
		return "", false
	}
	return k, true
}

// bareRef returns the definition key of a schema that holds nothing but a
// local $ref.
func bareRef(n *load.Node) (string, bool) {
	if n.Kind != load.Object || len(n.Members) != 1 || n.Members[0].Key != "$ref" {
		return "", false
	}
	return strings.CutPrefix(refString(n.Members[0].Value), "#/$defs/")
}

func refString(n *load.Node) string {
	if n.Kind != load.String {
		return ""
	}
	return n.Str
}

// countRefs counts the local references to each definition in schema n and
// its subschemas (never in values such as const, enum or default).
func countRefs(n *load.Node, uses map[string]int) {
	if r := n.Get("$ref"); r != nil {
		if k, ok := strings.CutPrefix(refString(r), "#/$defs/"); ok {
			uses[k]++
		}
	}
	eachSubschema(n, func(c *load.Node) *load.Node {
		countRefs(c, uses)
		return c
	})
}

// eachSubschema replaces every direct subschema of n (not $defs) with what
// fn returns for it.
func eachSubschema(n *load.Node, fn func(*load.Node) *load.Node) {
	if n.Kind != load.Object {
		return
	}
	for i, m := range n.Members {
		v := m.Value
		switch {
		case schemaValued[m.Key]:
			n.Members[i].Value = fn(v)
		case schemaArrays[m.Key] && v.Kind == load.Array:
			for j := range v.Items {
				v.Items[j] = fn(v.Items[j])
			}
		case schemaMaps[m.Key] && v.Kind == load.Object:
			for j := range v.Members {
				v.Members[j].Value = fn(v.Members[j].Value)
			}
		}
	}
}

func obj(ms ...load.Member) *load.Node          { return &load.Node{Kind: load.Object, Members: ms} }
func member(k string, v *load.Node) load.Member { return load.Member{Key: k, Value: v} }
func str(s string) *load.Node                   { return &load.Node{Kind: load.String, Str: s} }
