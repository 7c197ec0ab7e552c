package emit

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits convert.go for a package that serves an older UCP version
// from a newer package (ucpgen generate --serve-from): ServeFrom implements
// this package's Hooks by converting each request to the newer shapes,
// calling the newer Hooks and converting the answer back. Every member whose
// shape is the same in both versions is converted by generated code; the
// Conversion interface names the others, found by comparing the two models,
// and the Business implements only those.

const strconvPkg = "strconv"

// ServeFrom names the newer package an older one serves from.
type ServeFrom struct {
	// Model is the newer package's model, built from its schemas.
	Model *ir.Model
	// ImportPath is the newer package's Go import path.
	ImportPath string
}

// converter emits the conversions between the older model and the newer one.
type converter struct {
	cmp *comparer
	pkg string
	// version is the older model's UCP version, named in refusals.
	version string
	funcs   map[pairKey]string
	queue   []pairKey
	// changes are the Conversion methods, in the order they were found.
	changes []memberChange
	// olderGroups and newerGroups are the two models' capabilities.
	olderGroups, newerGroups []*capabilityGroup
	// jsonCarried is set once a value is carried by its JSON (asJSON), so
	// fromNewerJSON is emitted.
	jsonCarried bool
	// envelope are the older types holding only a result's ucp member,
	// whose negotiated members the runtime writes (envelopeTypes).
	envelope map[*ir.Type]bool
}

// emitConversion writes convert.go: the Conversion interface, ServeFrom
// and, when the newer package has a Location service, NewServiceFrom.
func emitConversion(f *jen.File, older *ir.Model, from *ServeFrom) error {
	c := &converter{cmp: newComparer(), pkg: from.ImportPath, version: older.Version, funcs: map[pairKey]string{}, envelope: envelopeTypes(older)}
	f.ImportName(from.ImportPath, path.Base(from.ImportPath))
	f.ImportName(rpcerrPkg, "rpcerr")
	f.ImportName(capabilityPkg, "capability")
	var err error
	if c.olderGroups, err = capabilityGroups(older); err != nil {
		return err
	}
	if c.newerGroups, err = capabilityGroups(from.Model); err != nil {
		return fmt.Errorf("serve from %s: %w", from.ImportPath, err)
	}
	var hooks []jen.Code
	for _, t := range older.Tools {
		nt := toolNamed(from.Model, t.Name)
		if nt == nil {
			return fmt.Errorf("serve from %s: tool %s does not exist there", from.ImportPath, t.Name)
		}
		h, err := c.hookMethod(t, nt)
		if err != nil {
			return err
		}
		hooks = append(hooks, h)
	}
	var bodies []jen.Code
	for len(c.queue) > 0 {
		k := c.queue[0]
		c.queue = c.queue[1:]
		body, err := c.pairFunc(k)
		if err != nil {
			return err
		}
		bodies = append(bodies, body)
	}
	iface, err := c.conversionInterface()
	if err != nil {
		return err
	}
	f.Add(iface)
	f.Add(c.serveFromFunc())
	if _, ok := findService(from.Model); ok {
		f.Add(newServiceFromFunc(c.pkg))
	}
	for _, code := range append(hooks, bodies...) {
		f.Add(code)
	}
	f.Add(conversionErrorFunc())
	if c.jsonCarried {
		f.Add(fromNewerJSONFunc(c.version))
	}
	return nil
}

// toolNamed returns the model's tool with the name, or nil.
func toolNamed(m *ir.Model, name string) *ir.Tool {
	for _, t := range m.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// newer is the newer package's spelling of a model type.
func (c *converter) newer(t *ir.Type) jen.Code { return qualType(t, c.pkg) }

// qualType is goType with named types taken from package pkg.
func qualType(t *ir.Type, pkg string) jen.Code {
	switch {
	case t.IsNamed():
		return jen.Qual(pkg, t.Name)
	case t.Kind == ir.Array:
		return jen.Index().Add(qualType(t.Elem, pkg))
	case t.Kind == ir.Map:
		var key jen.Code = jen.String()
		if t.Key != nil {
			key = qualType(t.Key, pkg)
		}
		return jen.Map(key).Add(qualType(t.Elem, pkg))
	}
	return goType(t)
}

// side spells a type of the older package or, when newer, of the newer one.
func (c *converter) side(t *ir.Type, newer bool) jen.Code {
	if newer {
		return c.newer(t)
	}
	return goType(t)
}

// funcFor is the name of the generated method converting a named pair,
// queueing its emission the first time.
func (c *converter) funcFor(k pairKey) string {
	if name, ok := c.funcs[k]; ok {
		return name
	}
	prefix := "toNewer"
	if k.dir == ir.Response {
		prefix = "fromNewer"
	}
	name := prefix + k.older.Name
	c.funcs[k] = name
	c.queue = append(c.queue, k)
	return name
}

// hookMethod implements one tool on *servedFrom: convert every argument,
// call the newer hook, convert its answer.
func (c *converter) hookMethod(t, nt *ir.Tool) (jen.Code, error) {
	if t.Result == nil || nt.Result == nil || len(t.Params) != len(nt.Params) {
		return nil, fmt.Errorf("serve from %s: tool %s has other params or result there", c.pkg, t.Name)
	}
	var params, body, args []jen.Code
	params = append(params, jen.Id("ctx").Qual("context", "Context"))
	args = append(args, jen.Id("ctx"))
	for i, p := range t.Params {
		np := nt.Params[i]
		if p.Name != np.Name || p.Type.Kind != ir.Struct || !p.Type.IsNamed() || !np.Type.IsNamed() {
			return nil, fmt.Errorf("serve from %s: tool %s param %d (%s) is not an object param of the same name there", c.pkg, t.Name, i, p.Name)
		}
		arg, conv := fmt.Sprintf("arg%d", i), fmt.Sprintf("newer%d", i)
		params = append(params, jen.Id(arg).Op("*").Id(p.Type.Name))
		body = append(body,
			jen.Var().Id(conv).Add(c.newer(np.Type)),
			jen.If(jen.Err().Op(":=").Id("s").Dot(c.funcFor(pairKey{ir.Request, p.Type, np.Type})).Call(jen.Id(arg), jen.Op("&").Id(conv)), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Id("conversionError").Call(jen.Err(), jen.Lit("/"+bindPointerToken(p.Name)))),
			))
		args = append(args, jen.Op("&").Id(conv))
	}
	res, nres := t.Result.Type, nt.Result.Type
	if !res.IsNamed() || !nres.IsNamed() || res.Kind != ir.Struct {
		return nil, fmt.Errorf("serve from %s: tool %s result is not an object there", c.pkg, t.Name)
	}
	fn := c.funcFor(pairKey{ir.Response, res, nres})
	var nilArgs []jen.Code
	for i := range t.Params {
		nilArgs = append(nilArgs, jen.Id(fmt.Sprintf("arg%d", i)).Op("==").Nil())
	}
	body = append(append([]jen.Code{
		jen.If(orAll(nilArgs)).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit("nil argument")))),
	}, body...),
		jen.List(jen.Id("resp"), jen.Err()).Op(":=").Id("s").Dot(newerField(groupOf(c.newerGroups, nt.Name))).Dot(hookName(nt)).Call(args...),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Id("resp").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(nt.Name+" of the newer version returned neither a response nor an error")))),
		jen.Var().Id("out").Id(res.Name),
		// %v, not %w: a failed answer conversion is the Business's fault,
		// never an invalid request.
		jen.If(jen.Err().Op(":=").Id("s").Dot(fn).Call(jen.Id("resp"), jen.Op("&").Id("out")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit(t.Name+": convert the newer answer: %v"), jen.Err())),
		),
		jen.Return(jen.Op("&").Id("out"), jen.Nil()),
	)
	doc := fmt.Sprintf("%s answers %s through the newer version's hook.", hookName(t), t.Name)
	return jen.Comment(doc).Line().
		Func().Params(jen.Id("s").Op("*").Id("servedFrom")).Id(hookName(t)).Params(params...).
		Params(jen.Op("*").Id(res.Name), jen.Error()).Block(body...), nil
}

// orAll joins conditions with ||.
func orAll(conds []jen.Code) jen.Code {
	s := jen.Add(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("||").Add(c)
	}
	return s
}

// pairFunc emits the method converting one named struct or union pair.
func (c *converter) pairFunc(k pairKey) (jen.Code, error) {
	from, to := k.newer, k.older
	fromNewer := true
	doc := fmt.Sprintf("%s converts the newer version's %s into this version's %s.", c.funcs[k], k.newer.Name, k.older.Name)
	if k.dir == ir.Request {
		from, to = k.older, k.newer
		fromNewer = false
		doc = fmt.Sprintf("%s converts this version's %s into the newer version's %s.", c.funcs[k], k.older.Name, k.newer.Name)
	}
	var body []jen.Code
	var err error
	switch k.older.Kind {
	case ir.Struct:
		body, err = c.structBody(k)
	case ir.Union:
		body, err = c.unionBody(k)
	default:
		err = fmt.Errorf("serve from %s: %s is neither an object nor a union", c.pkg, k.older.Name)
	}
	if err != nil {
		return nil, err
	}
	return jen.Comment(doc).Line().
		Func().Params(jen.Id("s").Op("*").Id("servedFrom")).Id(c.funcs[k]).
		Params(jen.Id("in").Op("*").Add(c.side(from, fromNewer)), jen.Id("out").Op("*").Add(c.side(to, !fromNewer))).
		Error().Block(append(body, jen.Return(jen.Nil()))...), nil
}

// structBody converts member by member: carried members in generated code,
// changed ones through the Conversion, unknown members as they are.
func (c *converter) structBody(k pairKey) ([]jen.Code, error) {
	body := c.refuseNewerMembers(k)
	for _, f := range k.older.Fields {
		g := fieldNamed(k.newer, f.JSONName)
		why := c.cmp.memberDiff(k.dir, f, g)
		if c.runtimeWrites(k, f) {
			body = append(body, runtimeWrittenNote(f, why))
			if why != "" {
				continue
			}
		} else if why != "" {
			body = append(body, c.changed(k, f, g, why))
			continue
		}
		src, dst := f, g
		if k.dir == ir.Response {
			src, dst = g, f
		}
		body = append(body, c.member(k.dir, src, dst)...)
	}
	if k.dir == ir.Request {
		for _, g := range k.newer.Fields {
			if g.Required && fieldNamed(k.older, g.JSONName) == nil {
				body = append(body, c.changed(k, g, nil, "required in the newer version and absent here"))
			}
		}
	}
	return append(body, c.unknown(k)...), nil
}

// changed records a Conversion method for the older member f (g is its
// newer counterpart or nil) and calls it.
func (c *converter) changed(k pairKey, f, g *ir.Field, why string) jen.Code {
	if g == nil {
		name := k.older.Name + f.GoName
		c.changes = append(c.changes, memberChange{Method: name, Dir: k.dir, Older: k.older, Newer: k.newer, Field: f, Holders: []string{k.older.Name}, Reason: why})
		return jen.If(jen.Err().Op(":=").Id("s").Dot("conv").Dot(name).Call(jen.Id("in"), jen.Id("out")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	}
	ch := c.valueChange(k, f, g, why)
	in, out := jen.Id("in").Dot(f.GoName), jen.Op("&").Id("out").Dot(g.GoName)
	if k.dir == ir.Response {
		in, out = jen.Id("in").Dot(g.GoName), jen.Op("&").Id("out").Dot(f.GoName)
	}
	return jen.If(jen.Err().Op(":=").Id("s").Dot("conv").Dot(ch.Method).Call(in, out), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Id("conversionError").Call(jen.Err(), jen.Lit("/"+bindPointerToken(f.JSONName)))))
}

// valueChange finds or records the value-level method for the member pair
// f, g: one method per pair of schemas and Go types, shared by every struct
// that holds them (Location and LookupLocation hold the same amenities).
func (c *converter) valueChange(k pairKey, f, g *ir.Field, why string) *memberChange {
	key := fmt.Sprintf("%d %s %s %#v %#v", k.dir, fieldLoc(f), fieldLoc(g), fieldType(f), c.newerFieldType(g))
	for i := range c.changes {
		if ch := &c.changes[i]; ch.key == key {
			ch.Holders = append(ch.Holders, k.older.Name)
			return ch
		}
	}
	c.changes = append(c.changes, memberChange{Method: k.older.Name + f.GoName, Dir: k.dir, Older: k.older, Newer: k.newer,
		Field: f, Counterpart: g, Holders: []string{k.older.Name}, Reason: why, key: key})
	return &c.changes[len(c.changes)-1]
}

// fieldLoc is where a member's schema is, for messages and sharing.
func fieldLoc(f *ir.Field) string {
	if len(f.Schemas) > 0 {
		return f.Schemas[0].Loc.String()
	}
	return f.JSONName
}

// newerFieldType is fieldType in the newer package.
func (c *converter) newerFieldType(f *ir.Field) jen.Code {
	if f.Required {
		return c.newer(f.Type)
	}
	return jen.Qual(optPkg, "Value").Types(c.newer(f.Type))
}

// member converts one carried member from src (a member of in) to dst (a
// member of out), keeping absence.
func (c *converter) member(dir ir.Direction, src, dst *ir.Field) []jen.Code {
	in, out := jen.Id("in").Dot(src.GoName), jen.Id("out").Dot(dst.GoName)
	ptr := pointer{}.literal(src.JSONName)
	if sameGoType(src.Type, dst.Type) && src.Required == dst.Required {
		return []jen.Code{jen.Add(out).Op("=").Add(in)}
	}
	switch {
	case src.Required && dst.Required:
		return c.assign(dir, src.Type, dst.Type, in, out, ptr, 0)
	case src.Required:
		return []jen.Code{jen.Block(append(append([]jen.Code{jen.Var().Id("v").Add(c.side(dst.Type, dir == ir.Request))},
			c.assign(dir, src.Type, dst.Type, in, jen.Id("v"), ptr, 0)...),
			jen.Add(out).Op("=").Qual(optPkg, "Some").Call(jen.Id("v")))...)}
	}
	return []jen.Code{jen.If(jen.List(jen.Id("u"), jen.Id("ok")).Op(":=").Add(in).Dot("Get").Call(), jen.Id("ok")).Block(
		append(append([]jen.Code{jen.Var().Id("v").Add(c.side(dst.Type, dir == ir.Request))},
			c.assign(dir, src.Type, dst.Type, jen.Id("u"), jen.Id("v"), ptr, 0)...),
			jen.Add(out).Op("=").Qual(optPkg, "Some").Call(jen.Id("v")))...)}
}

// assign sets dst from src, two addressable expressions of the pair's Go
// types; errors are prefixed with ptr, the parts of a JSON Pointer.
func (c *converter) assign(dir ir.Direction, from, to *ir.Type, src, dst jen.Code, ptr pointer, depth int) []jen.Code {
	toNewer := dir == ir.Request
	switch {
	case sameGoType(from, to):
		return []jen.Code{jen.Add(dst).Op("=").Add(src)}
	case asJSON(dir, to, from):
		c.jsonCarried = true
		return []jen.Code{jen.If(jen.Err().Op(":=").Id("fromNewerJSON").Call(jen.Op("&").Add(src), jen.Op("&").Add(dst), jen.Lit(minMembers(to))), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("conversionError").Call(jen.Err(), ptr.expr())))}
	case from.Kind == ir.Struct || from.Kind == ir.Union:
		k := c.pair(dir, from, to)
		return []jen.Code{jen.If(jen.Err().Op(":=").Id("s").Dot(c.funcFor(k)).Call(jen.Op("&").Add(src), jen.Op("&").Add(dst)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("conversionError").Call(jen.Err(), ptr.expr())))}
	case from.Kind == ir.Array:
		i := jen.Id(fmt.Sprintf("i%d", depth))
		elem := ptr.dynamic(jen.Qual(strconvPkg, "Itoa").Call(i))
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(
			jen.Add(dst).Op("=").Make(c.side(to, toNewer), jen.Len(src)),
			jen.For(jen.Add(i).Op(":=").Range().Add(src)).Block(
				c.assign(dir, from.Elem, to.Elem, jen.Add(src).Index(i), jen.Add(dst).Index(i), elem, depth+1)...),
		)}
	case from.Kind == ir.Map:
		k, v, e := jen.Id(fmt.Sprintf("k%d", depth)), jen.Id(fmt.Sprintf("v%d", depth)), jen.Id(fmt.Sprintf("e%d", depth))
		elem := ptr.dynamic(jen.Qual(rpcerrPkg, "EscapeToken").Call(jen.String().Call(k)))
		var key jen.Code = k
		if to.Key != nil && !sameGoType(from.Key, to.Key) {
			key = jen.Add(c.side(to.Key, toNewer)).Call(k)
		}
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(
			jen.Add(dst).Op("=").Make(c.side(to, toNewer), jen.Len(src)),
			jen.For(jen.List(k, v).Op(":=").Range().Add(src)).Block(
				append(append([]jen.Code{jen.Var().Add(e).Add(c.side(to.Elem, toNewer))},
					c.assign(dir, from.Elem, to.Elem, v, e, elem, depth+1)...),
					jen.Add(dst).Index(key).Op("=").Add(e))...),
		)}
	}
	return []jen.Code{jen.Add(dst).Op("=").Add(c.side(to, toNewer)).Call(src)}
}

// pair is the key of converting from into to in direction dir.
func (c *converter) pair(dir ir.Direction, from, to *ir.Type) pairKey {
	if dir == ir.Request {
		return pairKey{dir, from, to}
	}
	return pairKey{dir, to, from}
}

// pointer is a JSON Pointer being built for an error prefix: code parts
// computed at run time (indices, keys) followed by a literal tail.
type pointer struct {
	parts []jen.Code
	tail  string
}

// literal extends p by a token known when generating.
func (p pointer) literal(token string) pointer {
	return pointer{parts: p.parts, tail: p.tail + "/" + bindPointerToken(token)}
}

// dynamic extends p by a token computed at run time.
func (p pointer) dynamic(token jen.Code) pointer {
	part := jen.Lit(p.tail + "/").Op("+").Add(token)
	return pointer{parts: append(slices.Clone(p.parts), part)}
}

// expr is p as one string expression.
func (p pointer) expr() jen.Code {
	parts := p.parts
	if p.tail != "" || len(parts) == 0 {
		parts = append(slices.Clone(parts), jen.Lit(p.tail))
	}
	s := jen.Add(parts[0])
	for _, q := range parts[1:] {
		s = s.Op("+").Add(q)
	}
	return s
}

// refuseNewerMembers refuses a request member that this version does not
// define but the newer one does: at this version it is an unknown member,
// which the newer version would read with its own meaning. The violation is
// this version's: its pointer names the member as sent, and its keyword is
// "unsupported", the one every refused unknown operand member carries.
func (c *converter) refuseNewerMembers(k pairKey) []jen.Code {
	if k.dir != ir.Request || !k.older.KeepUnknown {
		return nil
	}
	var out []jen.Code
	for _, g := range k.newer.Fields {
		if fieldNamed(k.older, g.JSONName) != nil {
			continue
		}
		msg := fmt.Sprintf("%s is not a member at version %s; only a newer version defines it", g.JSONName, c.version)
		out = append(out, jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("in").Dot("Unknown").Index(jen.Lit(g.JSONName)), jen.Id("ok")).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit("/"+bindPointerToken(g.JSONName)), jen.Lit("unsupported"), jen.Lit(msg)))))
	}
	return out
}

// unknown carries the members neither schema lists.
func (c *converter) unknown(k pairKey) []jen.Code {
	if k.dir == ir.Request {
		if !k.older.KeepUnknown {
			return nil
		}
		if k.newer.KeepUnknown {
			return []jen.Code{jen.Id("out").Dot("Unknown").Op("=").Id("in").Dot("Unknown")}
		}
		return []jen.Code{jen.For(jen.Id("name").Op(":=").Range().Id("in").Dot("Unknown")).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit("/").Op("+").Qual(rpcerrPkg, "EscapeToken").Call(jen.Id("name")), jen.Lit(""),
				jen.Lit("the newer version this one is served from does not accept unknown members here"))))}
	}
	if !k.older.KeepUnknown || !k.newer.KeepUnknown {
		return nil // a newer answer's extra members are not this version's
	}
	var drop []jen.Code
	for _, f := range k.older.Fields {
		if fieldNamed(k.newer, f.JSONName) == nil {
			drop = append(drop, jen.Delete(jen.Id("out").Dot("Unknown"), jen.Lit(f.JSONName)))
		}
	}
	if len(drop) == 0 {
		return []jen.Code{jen.Id("out").Dot("Unknown").Op("=").Id("in").Dot("Unknown")}
	}
	return append([]jen.Code{jen.Id("out").Dot("Unknown").Op("=").Qual(bindMapsPkg, "Clone").Call(jen.Id("in").Dot("Unknown"))}, drop...)
}

// unionBody converts the one variant that is set.
func (c *converter) unionBody(k pairKey) ([]jen.Code, error) {
	var body []jen.Code
	from, to := k.newer, k.older
	if k.dir == ir.Request {
		from, to = k.older, k.newer
	}
	for _, v := range from.Variants {
		w := variantNamed(to, v.GoName)
		if w == nil {
			return nil, fmt.Errorf("serve from %s: union %s has no variant %s there", c.pkg, k.older.Name, v.GoName)
		}
		in, out := jen.Id("in").Dot(v.GoName), jen.Id("out").Dot(w.GoName)
		set := c.assign(k.dir, v.Type, w.Type, jen.Parens(jen.Op("*").Add(in)), jen.Parens(jen.Op("*").Add(out)), pointer{}, 0)
		if kind := v.Type.Kind; (kind == ir.Struct || kind == ir.Union) && !asJSON(k.dir, w.Type, v.Type) {
			// Both variants are pointers already: no &*.
			set = []jen.Code{jen.Return(jen.Id("s").Dot(c.funcFor(c.pair(k.dir, v.Type, w.Type))).Call(in, out))}
		}
		body = append(body, jen.If(jen.Add(in).Op("!=").Nil()).Block(
			append([]jen.Code{jen.Add(out).Op("=").New(c.side(w.Type, k.dir == ir.Request))}, set...)...))
	}
	return body, nil
}

// conversionInterface declares one method per changed member.
func (c *converter) conversionInterface() (jen.Code, error) {
	var methods []jen.Code
	seen := map[string]bool{}
	for _, ch := range c.changes {
		if seen[ch.Method] {
			return nil, fmt.Errorf("serve from %s: conversion method %s is needed in both directions; the types need distinct names", c.pkg, ch.Method)
		}
		seen[ch.Method] = true
		loc, holders := fieldLoc(ch.Field), strings.Join(ch.Holders, " and ")
		var doc string
		var params []jen.Code
		switch {
		case ch.Counterpart != nil && ch.Dir == ir.Request:
			doc = fmt.Sprintf("%s converts the %s member of a request's %s, %s. Schema: %s.", ch.Method, ch.Field.JSONName, holders, ch.Reason, loc)
			params = []jen.Code{jen.Id("in").Add(fieldType(ch.Field)), jen.Id("out").Op("*").Add(c.newerFieldType(ch.Counterpart))}
		case ch.Counterpart != nil:
			doc = fmt.Sprintf("%s converts the %s member of an answer's %s, %s. Schema: %s.", ch.Method, ch.Field.JSONName, holders, ch.Reason, loc)
			params = []jen.Code{jen.Id("in").Add(c.newerFieldType(ch.Counterpart)), jen.Id("out").Op("*").Add(fieldType(ch.Field))}
		case ch.Dir == ir.Request:
			doc = fmt.Sprintf("%s carries the %s member of a request's %s, %s, into out. Schema: %s.", ch.Method, ch.Field.JSONName, holders, ch.Reason, loc)
			params = []jen.Code{jen.Id("in").Op("*").Id(ch.Older.Name), jen.Id("out").Op("*").Add(c.newer(ch.Newer))}
		default:
			doc = fmt.Sprintf("%s sets the %s member of an answer's %s, %s, from in. Schema: %s.", ch.Method, ch.Field.JSONName, holders, ch.Reason, loc)
			params = []jen.Code{jen.Id("in").Op("*").Add(c.newer(ch.Newer)), jen.Id("out").Op("*").Id(ch.Older.Name)}
		}
		methods = append(methods, lineComments(wrap(doc, docWidth-4)), jen.Id(ch.Method).Params(params...).Error())
	}
	return jen.Comment("Conversion is what a Business writes to serve this version from the newer").Line().
		Comment("package " + c.pkg + ": one method per member whose shape").Line().
		Comment("differs between the two versions. Every other member is converted by ServeFrom.").Line().
		Comment("An answer's member kept here as any JSON object is carried by its JSON, and the").Line().
		Comment("ucp version and capabilities, which the runtime writes into every answer, are left to it.").Line().
		Comment("A request method's *rpcerr.InvalidParams is answered with -32602, its pointers").Line().
		Comment("relative to in.").Line().
		Type().Id("Conversion").Interface(methods...), nil
}

// newerField is the servedFrom field holding the newer hooks of group g.
func newerField(g *capabilityGroup) string { return lowerFirst(g.Iface) }

// serveFromFunc declares ServeFrom and the type behind it. The type has
// every hook method of this version, so ServeFrom narrows it to the
// capabilities whose every tool the newer hooks serve: a capability the
// Business did not implement in the newer version is not served in this
// one either.
func (c *converter) serveFromFunc() jen.Code {
	pkg := c.pkg
	body := []jen.Code{
		jen.If(jen.Id("conv").Op("==").Nil()).Block(jen.Return(jen.Op("&").Id("servedFrom").Values(jen.Dict{
			jen.Err(): jen.Qual("errors", "New").Call(jen.Lit("serve from the newer version: conversion is nil")),
		}))),
		jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(pkg, "Tools").Call(jen.Id("hooks")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Op("&").Id("servedFrom").Values(jen.Dict{
				jen.Err(): jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("serve from the newer version: %w"), jen.Err()),
			})),
		),
		jen.Id("s").Op(":=").Op("&").Id("servedFrom").Values(jen.Dict{jen.Id("conv"): jen.Id("conv")}),
	}
	fields := []jen.Code{
		jen.Id("conv").Id("Conversion"),
		jen.Comment("served are the capabilities of this version the newer hooks answer, and err"),
		jen.Comment("why none can be served."),
		jen.Id("served").Index().String(),
		jen.Err().Error(),
	}
	used := map[*capabilityGroup]bool{}
	for _, g := range c.olderGroups {
		for _, t := range g.Tools {
			used[groupOf(c.newerGroups, t.Name)] = true
		}
	}
	var okNames []jen.Code
	for _, ng := range c.newerGroups {
		if !used[ng] {
			continue
		}
		fields = append(fields, jen.Id(newerField(ng)).Qual(pkg, ng.Iface))
		okNames = append(okNames, jen.Id("has"+ng.Iface))
	}
	body = append(body, jen.Var().List(okNames...).Bool())
	for _, ng := range c.newerGroups {
		if !used[ng] {
			continue
		}
		body = append(body, jen.List(jen.Id("s").Dot(newerField(ng)), jen.Id("has"+ng.Iface)).Op("=").
			Qual(capabilityPkg, "Find").Types(jen.Qual(pkg, ng.Iface)).Call(jen.Id("hooks"), jen.Lit(ng.Name)))
	}
	for _, g := range c.olderGroups {
		var conds []jen.Code
		seen := map[*capabilityGroup]bool{}
		for _, t := range g.Tools {
			ng := groupOf(c.newerGroups, t.Name)
			if !seen[ng] {
				seen[ng] = true
				conds = append(conds, jen.Id("has"+ng.Iface))
			}
		}
		body = append(body, jen.If(andAll(conds)).Block(jen.Id("s").Dot("served").Op("=").Append(jen.Id("s").Dot("served"), jen.Lit(g.Name))))
	}
	body = append(body, jen.Return(jen.Id("s")))
	return jen.Comment("ServeFrom implements this version's Hooks over the newer version's hooks: each").Line().
		Comment("request is converted to the newer shapes, answered there, and the answer is").Line().
		Comment("converted back, with conv doing the members whose shape changed. It serves the").Line().
		Comment("capabilities whose every tool the newer hooks serve; invalid newer hooks or a nil").Line().
		Comment("conv are reported when the result is served. The result has every hook method").Line().
		Comment("of this version.").Line().
		Func().Id("ServeFrom").Params(jen.Id("hooks").Qual(pkg, "Hooks"), jen.Id("conv").Id("Conversion")).Id("Hooks").Block(body...).Line().Line().
		Comment("servedFrom implements every hook of this version through the newer version's").Line().
		Comment("hooks of the same tools.").Line().
		Type().Id("servedFrom").Struct(fields...).Line().Line().
		Comment("ServedCapabilities tells the runtime which of this version's capabilities the").Line().
		Comment("newer hooks answer, since servedFrom has the methods of all of them.").Line().
		Func().Params(jen.Id("s").Op("*").Id("servedFrom")).Id("ServedCapabilities").Params().Params(jen.Index().String(), jen.Error()).Block(
		jen.Return(jen.Id("s").Dot("served"), jen.Id("s").Dot("err")),
	)
}

// andAll joins conditions with &&.
func andAll(conds []jen.Code) jen.Code {
	s := jen.Add(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("&&").Add(c)
	}
	return s
}

// newServiceFromFunc declares NewServiceFrom: this version served from the
// newer package's Source through its NewService.
func newServiceFromFunc(pkg string) jen.Code {
	return jen.Comment("NewServiceFrom serves this version from a Source of the newer package: the").Line().
		Comment("newer NewService answers, and ServeFrom converts, so one data source serves both.").Line().
		Func().Id("NewServiceFrom").Params(jen.Id("src").Qual(pkg, "Source"), jen.Id("opts").Qual(pkg, "ServiceOptions"), jen.Id("conv").Id("Conversion")).Params(jen.Id("Hooks"), jen.Error()).Block(
		jen.If(jen.Id("conv").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit("new service from the newer version: conversion is nil")))),
		jen.List(jen.Id("h"), jen.Err()).Op(":=").Qual(pkg, "NewService").Call(jen.Id("src"), jen.Id("opts")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("ServeFrom").Call(jen.Id("h"), jen.Id("conv")), jen.Nil()),
	)
}

// conversionErrorFunc declares the helper that nests a conversion's -32602
// pointers under the member it converted.
func conversionErrorFunc() jen.Code {
	return jen.Comment("conversionError nests an invalid-params error under prefix; other errors pass.").Line().
		Func().Id("conversionError").Params(jen.Err().Error(), jen.Id("prefix").String()).Error().Block(
		jen.If(jen.List(jen.Id("ip"), jen.Id("ok")).Op(":=").Qual(rpcerrPkg, "AsInvalidParams").Call(jen.Err()), jen.Id("ok")).Block(
			jen.Return(jen.Id("ip").Dot("Prefix").Call(jen.Id("prefix"))),
		),
		jen.Return(jen.Err()),
	)
}

// fromNewerJSONFunc declares the helper that carries a newer typed value into
// a member this version keeps as a plain JSON object (asJSON).
func fromNewerJSONFunc(version string) jen.Code {
	raw := jen.Map(jen.String()).Qual("encoding/json", "RawMessage")
	label := "this version"
	if version != "" {
		label = "version " + version
	}
	return jen.Comment("fromNewerJSON sets out to the JSON object the newer value in encodes to, the").Line().
		Comment("members the newer version sends, for a member this version types as any object;").Line().
		Comment("fewer than least members, which this version's schema refuses, is an error.").Line().
		Func().Id("fromNewerJSON").Params(jen.Id("in").Any(), jen.Id("out").Op("*").Add(raw), jen.Id("least").Int()).Error().Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("encode the newer value: %w"), jen.Err()))),
		jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("b"), jen.Id("out")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("decode the newer value as an object: %w"), jen.Err()))),
		jen.If(jen.Len(jen.Op("*").Id("out")).Op("<").Id("least")).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("minProperties"),
				jen.Lit("has %d members in the newer answer; "+label+" requires at least %d"), jen.Len(jen.Op("*").Id("out")), jen.Id("least")))),
		jen.Return(jen.Nil()),
	)
}
