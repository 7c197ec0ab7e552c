package ir

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load"
)

// Build derives the model from a loaded spec. It fails, naming the schema
// location, on shapes the emitters cannot represent faithfully.
func Build(spec *load.Spec) (*Model, error) {
	b := &builder{spec: spec, byKey: map[string]*Type{}, roots: map[load.Loc]string{}, offers: map[*Type][]offer{}, lists: map[*Type][]*load.Schema{}}
	m := &Model{Title: spec.Title, Description: spec.Description, Spec: spec}
	m.Version = spec.Version
	for _, meth := range spec.Methods {
		if op := opName(meth.Name); !slices.Contains(b.ops, op) {
			b.ops = append(b.ops, op)
		}
	}
	if len(b.ops) == 0 {
		b.ops = []string{""}
	}
	for _, meth := range spec.Methods {
		tool := &Tool{Name: meth.Name, Summary: meth.Summary, Description: meth.Description, Op: opName(meth.Name)}
		for _, p := range meth.Params {
			hint := paramHint(spec, meth.Name, p)
			b.roots[p.Schema.Loc] = hint
			t, err := b.named(p.Schema, Request, hint)
			if err != nil {
				return nil, err
			}
			tool.Params = append(tool.Params, &Param{Name: p.Name, Required: p.Required, Type: t, Schema: p.Schema})
			if tool.Capability == "" {
				tool.Capability, tool.CapabilityFile = capabilityName(spec, p.Schema)
			}
		}
		if meth.Result != nil {
			b.roots[meth.Result.Schema.Loc] = GoName(meth.Name) + "Result"
			t, err := b.named(meth.Result.Schema, Response, GoName(meth.Name)+"Result")
			if err != nil {
				return nil, err
			}
			tool.Result = &Param{Name: meth.Result.Name, Required: true, Type: t, Schema: meth.Result.Schema}
			if tool.Capability == "" {
				tool.Capability, tool.CapabilityFile = resultCapability(spec, meth.Result.Schema)
			}
		}
		m.Tools = append(m.Tools, tool)
	}
	b.settleHints()
	if err := b.unifyDirections(m); err != nil {
		return nil, err
	}
	if err := b.assignNames(); err != nil {
		return nil, err
	}
	for _, t := range b.all {
		if t.Name != "" {
			m.Types = append(m.Types, t)
		}
	}
	sort.Slice(m.Types, func(i, j int) bool { return m.Types[i].Name < m.Types[j].Name })
	return m, nil
}

// opName derives the UCP operation from a tool name: search_locations -> search.
func opName(method string) string {
	if i := strings.IndexAny(method, "_."); i > 0 {
		return method[:i]
	}
	return method
}

// paramHint names a parameter's type when its schema has no naming point of
// its own: after the component it refers to, or else after the method and
// the parameter, so that two methods' inline schemas never share a name.
func paramHint(spec *load.Spec, method string, p *load.Param) string {
	for _, c := range spec.Components {
		if p.Schema.Ref == c.Schema || p.Schema == c.Schema {
			return GoName(c.Name)
		}
	}
	return joinNoStutter(GoName(method), GoName(p.Name))
}

type builder struct {
	spec *load.Spec
	// ops are the operations of every method, which one Go type serves.
	ops   []string
	byKey map[string]*Type
	all   []*Type
	// hints records the preferred name of each named type before collision handling.
	hints map[*Type]string
	// identity is the schema that names a type (ref target or def).
	identity map[*Type]*load.Schema
	// parent is the type being shaped and its name at that point, so that
	// each build records which type asked for it (see offer).
	parent parentRef
	// lists are the schemas merged into each type, as its key lists them.
	lists map[*Type][]*load.Schema
	// offers are the names proposed for a type by every use of it.
	offers map[*Type][]offer
	// roots names the schema of each method parameter and result.
	roots map[load.Loc]string
}

// flat is the merged view of a schema, its $ref targets and allOf branches.
type flat struct {
	sources  []*load.Schema
	identity *load.Schema
	types    []string
	props    []*flatProp
	required []string
	ap       []*load.Schema // additionalProperties subschemas (not true)
	apFalse  bool
	items    []*load.Schema
	pnames   []*load.Schema
	oneOf    []*load.Schema // branches of the (single) structural oneOf
	anyOf    []*load.Schema
	enum     []*load.Node
	consts   []*load.Node
	format   string
}

type flatProp struct {
	name    string
	schemas []*load.Schema
}

func (f *flat) prop(name string) *flatProp {
	for _, p := range f.props {
		if p.name == name {
			return p
		}
	}
	return nil
}

// naming reports whether s is a point that gives a type its own name: a
// document root with a title, a $defs entry, or an OpenRPC component.
func (b *builder) naming(s *load.Schema) bool {
	if s.Title != "" {
		return true
	}
	p := s.Loc.Pointer
	return strings.HasPrefix(p, "/$defs/") && strings.Count(p, "/") == 2 ||
		strings.HasPrefix(p, "/components/schemas/") && strings.Count(p, "/") == 3 ||
		p == "" && s.Loc.File != ""
}

// flatten merges s with everything it references through $ref and allOf.
func (b *builder) flatten(list []*load.Schema) (*flat, error) {
	f := &flat{}
	seen := map[*load.Schema]bool{}
	var visit func(s *load.Schema) error
	visit = func(s *load.Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if s.IsBool(true) {
			return nil
		}
		if s.IsBool(false) {
			return fmt.Errorf("%s: the false schema cannot be generated as a type", s.Loc)
		}
		f.sources = append(f.sources, s)
		if len(s.Types) > 0 {
			if f.types == nil {
				f.types = append([]string{}, s.Types...)
			} else {
				f.types = intersectTypes(f.types, s.Types)
				if len(f.types) == 0 {
					return fmt.Errorf("%s: type %v contradicts the types merged so far", s.Loc, s.Types)
				}
			}
		}
		for _, p := range s.Properties {
			fp := f.prop(p.Name)
			if fp == nil {
				fp = &flatProp{name: p.Name}
				f.props = append(f.props, fp)
			}
			fp.schemas = append(fp.schemas, p.Schema)
		}
		for _, r := range s.Required {
			if !slices.Contains(f.required, r) {
				f.required = append(f.required, r)
			}
		}
		if ap := s.AdditionalProperties; ap != nil {
			switch {
			case ap.IsBool(false):
				f.apFalse = true
			case ap.IsBool(true):
			default:
				f.ap = append(f.ap, ap)
			}
		}
		if s.Items != nil {
			f.items = append(f.items, s.Items)
		}
		if s.PropertyNames != nil {
			f.pnames = append(f.pnames, s.PropertyNames)
		}
		if s.Enum != nil {
			f.enum = s.Enum
		}
		if s.Const != nil {
			f.consts = append(f.consts, s.Const)
		}
		if s.Format != "" {
			f.format = s.Format
		}
		if len(s.OneOf) > 0 {
			if f.oneOf != nil {
				return fmt.Errorf("%s: more than one oneOf merged into one type", s.Loc)
			}
			f.oneOf = s.OneOf
		}
		if len(s.AnyOf) > 0 && f.anyOf == nil {
			f.anyOf = s.AnyOf
		}
		if err := visit(s.Ref); err != nil {
			return err
		}
		for _, a := range s.AllOf {
			if err := visit(a); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range list {
		if err := visit(s); err != nil {
			return nil, err
		}
	}
	// additionalProperties:false in one branch only closes the merged object
	// if that branch lists every merged property; otherwise the merge would
	// change meaning, so refuse.
	if f.apFalse {
		for _, s := range f.sources {
			if s.AdditionalProperties != nil && s.AdditionalProperties.IsBool(false) {
				for _, p := range f.props {
					if s.Property(p.name) == nil {
						return nil, fmt.Errorf("%s: additionalProperties false does not list merged property %q; ucpgen cannot merge this allOf faithfully", s.Loc, p.name)
					}
				}
			}
		}
	}
	return f, nil
}

// isAnnotationOnlyRef is true for {"$ref": ..., description/ucp_request/title}:
// such a schema is its target, not a new type.
func isAnnotationOnlyRef(s *load.Schema) bool {
	if s.Ref == nil {
		return false
	}
	for _, m := range s.Node.Members {
		switch m.Key {
		case "$ref", "description", "ucp_request", "ucp_response", "$comment", "examples", "title", "default", "deprecated":
		default:
			return false
		}
	}
	return true
}

func intersectTypes(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y || (x == "number" && y == "integer") {
				out = append(out, y)
			} else if x == "integer" && y == "number" {
				out = append(out, x)
			}
		}
	}
	return out
}

// annotation returns the effective ucp_request/ucp_response value of a
// property schema for an operation and a direction: "omit", "required",
// "optional" or "".
func annotation(schemas []*load.Schema, dir Direction, op string) (string, error) {
	out := ""
	for _, s := range schemas {
		v, err := Annotation(s, dir, op)
		if err != nil {
			return "", err
		}
		if v != "" {
			out = v
		}
	}
	return out, nil
}

// fieldUse decides whether a property is a field of the Go type and
// whether that field is required. One Go type serves every operation of
// the service while the validators are compiled per operation, so the
// field exists unless every operation omits it, and is required only when
// every operation requires it: create_cart omits a cart's id and
// update_cart requires it, so the id is an optional field, and each
// operation's validator enforces its own rule before decoding.
func (b *builder) fieldUse(p *flatProp, listed bool, dir Direction) (present, required bool, err error) {
	required = true
	for _, op := range b.ops {
		ann, err := annotation(p.schemas, dir, op)
		if err != nil {
			return false, false, err
		}
		switch ann {
		case "omit":
			required = false
			continue
		case "optional":
			required = false
		case "":
			required = required && listed
		}
		present = true
	}
	return present, required && present, nil
}

// Annotation is the effective ucp_request/ucp_response value of one
// property schema for a direction and operation: "omit", "required",
// "optional" or "" (none). It is the one reader of UCP's direction
// annotations; the builder and the validator emitter both use it.
func Annotation(s *load.Schema, dir Direction, op string) (string, error) {
	n := s.UcpRequest
	if dir == Response {
		n = s.UcpResponse
	}
	if n == nil {
		return "", nil
	}
	return annotationValue(n, op)
}

func annotationValue(n *load.Node, op string) (string, error) {
	switch n.Kind {
	case load.String:
		return checkAnnotation(n, n.Str)
	case load.Object:
		v := n.Get(op)
		if v == nil {
			return "", nil
		}
		switch v.Kind {
		case load.String:
			return checkAnnotation(v, v.Str)
		case load.Object:
			// A transition is written {"from": ..., "to": ...}, or wrapped
			// as {"transition": {...}} as the draft tree writes it; the value
			// in force until the change lands is "from".
			if t := v.Get("transition"); t != nil && t.Kind == load.Object && len(v.Members) == 1 {
				v = t
			}
			from := v.Get("from")
			if from == nil || from.Kind != load.String {
				return "", fmt.Errorf("%s: a transition annotation needs a string \"from\"", v.Loc)
			}
			return checkAnnotation(from, from.Str)
		}
		return "", fmt.Errorf("%s: per-operation annotation must be a string or a transition object", v.Loc)
	}
	return "", fmt.Errorf("%s: annotation must be a string or an object of operations", n.Loc)
}

func checkAnnotation(n *load.Node, v string) (string, error) {
	switch v {
	case "omit", "required", "optional":
		return v, nil
	}
	return "", fmt.Errorf("%s: unknown annotation value %q (want omit, required or optional)", n.Loc, v)
}

// named builds (or reuses) the type for a schema in a direction. hint names
// the type when the schema itself has no naming point.
func (b *builder) named(s *load.Schema, dir Direction, hint string) (*Type, error) {
	return b.build([]*load.Schema{s}, dir, func(string) string { return hint })
}

// build makes (or reuses) the type of the merged schemas in list. derive
// names the type, when no schema of it has a naming point, from the name
// of the type that asks for it.
func (b *builder) build(list []*load.Schema, dir Direction, derive func(parent string) string) (*Type, error) {
	list = b.normalize(list)
	f, err := b.flatten(list)
	if err != nil {
		return nil, err
	}
	if len(list) == 1 && b.naming(list[0]) {
		f.identity = list[0]
	}
	key := b.key(list, dir)
	from := b.parent
	hint := derive(from.name)
	if t, ok := b.byKey[key]; ok {
		b.offer(t, from.t, derive)
		return t, nil
	}
	t := &Type{Direction: dir, Sources: f.sources, Loc: list[0].Loc, Format: f.format}
	if f.identity != nil {
		t.Doc = f.identity.Description
	}
	if t.Doc == "" {
		for _, s := range list {
			if s.Description != "" {
				t.Doc = s.Description
				break
			}
		}
	}
	b.byKey[key] = t
	b.all = append(b.all, t)
	name := b.typeName(f, hint)
	b.lists[t] = list
	b.offer(t, from.t, derive)
	b.parent = parentRef{t, name}
	err = b.shape(t, f, dir, name)
	b.parent = from
	if err != nil {
		return nil, err
	}
	if b.wantsName(t, f) {
		if b.hints == nil {
			b.hints = map[*Type]string{}
			b.identity = map[*Type]*load.Schema{}
		}
		b.hints[t] = name
		b.identity[t] = f.identity
	}
	return t, nil
}

// key identifies a type by its normalized schema list and direction.
func (b *builder) key(list []*load.Schema, dir Direction) string {
	var parts []string
	for _, s := range list {
		parts = append(parts, s.Loc.String())
	}
	sort.Strings(parts)
	return dir.String() + "|" + strings.Join(parts, ",")
}

// normalize peels $ref wrappers whose siblings only annotate or constrain
// the value (those constraints stay with the field), and drops schemas that
// another listed schema already includes through $ref/allOf, so that every
// use of a definition maps to one type.
func (b *builder) normalize(list []*load.Schema) []*load.Schema {
	var peeled []*load.Schema
	for _, s := range list {
		for s.Ref != nil && isWrapper(s) {
			s = s.Ref
		}
		if !containsSchema(peeled, s) {
			peeled = append(peeled, s)
		}
	}
	if len(peeled) < 2 {
		return peeled
	}
	var out []*load.Schema
	for i, s := range peeled {
		subsumed := false
		for j, o := range peeled {
			if i != j && includes(o, s) && !(includes(s, o) && j > i) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			out = append(out, s)
		}
	}
	return out
}

func containsSchema(list []*load.Schema, s *load.Schema) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// includes reports whether target is reachable from s through $ref and allOf.
func includes(s, target *load.Schema) bool {
	return s.Reaches(func(x *load.Schema) bool { return x == target })
}

// isWrapper reports whether a $ref schema's siblings leave the Go shape of
// the target unchanged.
func isWrapper(s *load.Schema) bool {
	for _, m := range s.Node.Members {
		switch m.Key {
		case "$ref", "description", "ucp_request", "ucp_response", "$comment", "examples", "title", "default", "deprecated",
			"minProperties", "maxProperties", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "minLength", "maxLength",
			"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		default:
			return false
		}
	}
	return true
}

// wantsName decides whether a type is emitted as a named declaration.
func (b *builder) wantsName(t *Type, f *flat) bool {
	switch t.Kind {
	case Struct, Union:
		return true
	case String:
		return f.identity != nil || len(t.Enum) > 0
	case Map, Array:
		return f.identity != nil && f.identity.Title != ""
	}
	return f.identity != nil && f.identity.Title != ""
}

func (b *builder) typeName(f *flat, hint string) string {
	s := f.identity
	if s == nil {
		return hint
	}
	if s.Title != "" && !strings.HasPrefix(s.Loc.Pointer, "/$defs/") && s.Loc.Pointer != "" {
		return GoName(s.Title)
	}
	p := s.Loc.Pointer
	switch {
	case strings.HasPrefix(p, "/$defs/"):
		def := strings.TrimPrefix(p, "/$defs/")
		if s.Title != "" {
			return GoName(s.Title)
		}
		name := GoName(def)
		if len(splitWords(def)) == 1 {
			name = joinNoStutter(GoName(fileStem(s.Loc.File)), name)
		}
		return name
	case strings.HasPrefix(p, "/components/schemas/"):
		return GoName(strings.TrimPrefix(p, "/components/schemas/"))
	case p == "" && s.Title != "":
		return GoName(s.Title)
	case p == "":
		return GoName(fileStem(s.Loc.File))
	}
	return hint
}

// shape fills in the kind-specific parts of t.
func (b *builder) shape(t *Type, f *flat, dir Direction, name string) error {
	isObject := slices.Contains(f.types, "object") || len(f.props) > 0
	if mixed(f.types) {
		t.Kind = Any
		if len(f.consts) > 0 {
			t.Const = f.consts[0]
		}
		return nil
	}
	switch {
	case len(f.oneOf) > 0 && len(f.props) == 0:
		return b.union(t, f.oneOf, true, dir, name)
	case len(f.anyOf) > 0 && len(f.props) == 0 && !isObject && len(f.types) == 0:
		return b.union(t, f.anyOf, false, dir, name)
	case isObject && len(f.props) == 0 && len(f.ap) > 0:
		return b.mapType(t, f, dir, name)
	case isObject && len(f.props) == 0 && !f.apFalse && len(f.anyOf) == 0:
		t.Kind = Map
		t.Elem = &Type{Kind: Any}
		return b.mapKey(t, f, dir, name)
	case isObject:
		return b.structType(t, f, dir, name)
	case slices.Contains(f.types, "array"):
		t.Kind = Array
		if len(f.items) == 0 {
			t.Elem = &Type{Kind: Any}
			return nil
		}
		el, err := b.build(f.items, dir, singular)
		if err != nil {
			return err
		}
		t.Elem = el
		return nil
	case len(f.types) == 1 && f.types[0] == "string":
		t.Kind = String
		for _, e := range f.enum {
			if e.Kind != load.String {
				return fmt.Errorf("%s: string enum with a non-string member", e.Loc)
			}
			t.Enum = append(t.Enum, e.Str)
		}
		if len(f.consts) > 0 {
			t.Const = f.consts[0]
		}
		return nil
	case len(f.types) == 1 && f.types[0] == "number":
		t.Kind = Number
	case len(f.types) == 1 && f.types[0] == "integer":
		t.Kind = Integer
	case len(f.types) == 1 && f.types[0] == "boolean":
		t.Kind = Boolean
	default:
		t.Kind = Any
	}
	if len(f.consts) > 0 {
		t.Const = f.consts[0]
	}
	return nil
}

func (b *builder) mapKey(t *Type, f *flat, dir Direction, name string) error {
	for _, pn := range f.pnames {
		if pn.Ref != nil && isAnnotationOnlyRef(pn) || pn.Title != "" {
			k, err := b.build([]*load.Schema{pn}, dir, suffix("Key"))
			if err != nil {
				return err
			}
			if k.Kind == String && b.wantsName(k, &flat{identity: pn.Ref}) {
				t.Key = k
			}
		}
	}
	return nil
}

func (b *builder) mapType(t *Type, f *flat, dir Direction, name string) error {
	t.Kind = Map
	el, err := b.build(f.ap, dir, func(n string) string { return singular(n) + "Value" })
	if err != nil {
		return err
	}
	if el.Kind == Struct && el.Name == "" && b.hints[el] == "" {
		b.hints[el] = name + "Value"
	}
	t.Elem = el
	return b.mapKey(t, f, dir, name)
}

func (b *builder) structType(t *Type, f *flat, dir Direction, name string) error {
	t.Kind = Struct
	t.Closed = f.apFalse
	t.KeepUnknown = !f.apFalse && len(f.ap) == 0
	var required []string
	for _, p := range f.props {
		present, req, err := b.fieldUse(p, slices.Contains(f.required, p.name), dir)
		if err != nil {
			return err
		}
		if !present {
			continue
		}
		if req {
			required = append(required, p.name)
		}
		goName := GoName(p.name)
		ft, err := b.build(p.schemas, dir, func(n string) string { return joinNoStutter(n, goName) })
		if err != nil {
			return err
		}
		doc := ""
		for _, s := range p.schemas {
			if s.Description != "" {
				doc = s.Description
				break
			}
		}
		if doc == "" {
			doc = ft.Doc
		}
		t.Fields = append(t.Fields, &Field{JSONName: p.name, GoName: goName, Type: ft, Doc: doc, Schemas: p.schemas})
	}
	for _, fl := range t.Fields {
		fl.Required = slices.Contains(required, fl.JSONName)
	}
	if len(f.ap) > 0 {
		ex, err := b.build(f.ap, dir, suffix("Extra"))
		if err != nil {
			return err
		}
		t.Extra = ex
	}
	return checkFieldNames(t)
}

func checkFieldNames(t *Type) error {
	seen := map[string]string{}
	for _, fl := range t.Fields {
		if other, ok := seen[fl.GoName]; ok {
			return fmt.Errorf("%s: properties %q and %q both map to Go field %s", t.Loc, other, fl.JSONName, fl.GoName)
		}
		seen[fl.GoName] = fl.JSONName
		if fl.GoName == "Unknown" {
			return fmt.Errorf("%s: property %q collides with the generated Unknown field", t.Loc, fl.JSONName)
		}
	}
	return nil
}

// union builds a tagged union when every branch pins the same member to a
// distinct string const (Message.type), otherwise an untagged one.
func (b *builder) union(t *Type, branches []*load.Schema, exactlyOne bool, dir Direction, name string) error {
	t.Kind = Union
	t.ExactlyOne = exactlyOne
	var flats []*flat
	for _, br := range branches {
		bf, err := b.flatten([]*load.Schema{br})
		if err != nil {
			return err
		}
		flats = append(flats, bf)
	}
	t.Discriminator = discriminator(flats)
	used := map[string]bool{}
	for i, br := range branches {
		vt, err := b.build([]*load.Schema{br}, dir, suffix(fmt.Sprintf("Variant%d", i+1)))
		if err != nil {
			return err
		}
		v := &Variant{Type: vt}
		if t.Discriminator != "" {
			v.Tag = constString(flats[i], t.Discriminator)
			v.GoName = GoName(v.Tag)
		} else {
			v.GoName = variantName(vt, b.hints[vt], name)
		}
		for used[v.GoName] {
			v.GoName += "Alt"
		}
		used[v.GoName] = true
		t.Variants = append(t.Variants, v)
	}
	return nil
}

func variantName(vt *Type, hint, union string) string {
	if hint != "" {
		return strings.TrimPrefix(hint, union)
	}
	switch vt.Kind {
	case Array:
		return "List"
	case String:
		return "String"
	case Number, Integer:
		return "Number"
	case Boolean:
		return "Bool"
	case Map, Struct:
		return "Object"
	}
	return "Value"
}

func discriminator(flats []*flat) string {
	if len(flats) < 2 {
		return ""
	}
	for _, p := range flats[0].props {
		ok := true
		tags := map[string]bool{}
		for _, f := range flats {
			v := constString(f, p.name)
			if v == "" || tags[v] || !slices.Contains(f.required, p.name) {
				ok = false
				break
			}
			tags[v] = true
		}
		if ok {
			return p.name
		}
	}
	return ""
}

func constString(f *flat, prop string) string {
	fp := f.prop(prop)
	if fp == nil {
		return ""
	}
	for _, s := range fp.schemas {
		if s.Const != nil && s.Const.Kind == load.String {
			return s.Const.Str
		}
	}
	return ""
}

// capabilityName reads UCP's "name" keyword from the document that defines
// the schema a parameter refers to (location_search.json names
// dev.ucp.common.location.search).
func capabilityName(spec *load.Spec, s *load.Schema) (name, file string) {
	for s.Ref != nil {
		s = s.Ref
	}
	root, err := spec.Set.Doc(s.Loc.File)
	if err != nil {
		return "", ""
	}
	if n := root.Get("name"); n != nil && n.Kind == load.String {
		return n.Str, s.Loc.File
	}
	return "", ""
}

// resultCapability is the capability a result declares: its own
// document's, or else the one capability its oneOf branches name (a
// checkout or an error response).
func resultCapability(spec *load.Spec, s *load.Schema) (name, file string) {
	for s.Ref != nil {
		s = s.Ref
	}
	if name, file = capabilityName(spec, s); name != "" {
		return name, file
	}
	for _, b := range s.OneOf {
		n, f := capabilityName(spec, b)
		switch {
		case n == "" || n == name:
		case name != "":
			return "", ""
		default:
			name, file = n, f
		}
	}
	return name, file
}

// mixed reports whether a type list names more than one JSON type (number
// and integer count as one): no single Go type holds such values.
func mixed(types []string) bool {
	n := 0
	for _, t := range types {
		if t != "integer" || !slices.Contains(types, "number") {
			n++
		}
	}
	return n > 1
}
