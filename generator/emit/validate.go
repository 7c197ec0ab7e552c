package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
)

const (
	checkPkg  = "github.com/ucpgen/ucpgen/runtime/schemacheck"
	rpcerrPkg = "github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// schemaKey names one compiled schema: the same source schema compiles
// differently per direction and operation because ucp_request/ucp_response
// rewrite the required list and drop omitted members.
type schemaKey struct {
	loc string
	dir ir.Direction
	op  string
}

// schemaTable collects the schemacheck.Schema variables of one generated
// package; each source schema becomes one variable, assigned in init so that
// recursive references cannot form an initialisation cycle.
type schemaTable struct {
	names  map[schemaKey]string
	used   map[string]bool
	assign []jen.Code
	decls  []jen.Code
}

func newSchemaTable() *schemaTable {
	return &schemaTable{names: map[schemaKey]string{}, used: map[string]bool{}}
}

// varFor returns the variable holding s compiled for dir and op, compiling it
// on first use.
func (st *schemaTable) varFor(s *load.Schema, dir ir.Direction, op string) (string, error) {
	k := schemaKey{loc: s.Loc.String(), dir: dir, op: op}
	if n, ok := st.names[k]; ok {
		return n, nil
	}
	n := st.newName(s.Loc, dir, op)
	st.names[k] = n
	st.decls = append(st.decls, jen.Id(n).Qual(checkPkg, "Schema"))
	body, err := st.compile(s, dir, op)
	if err != nil {
		return "", err
	}
	st.assign = append(st.assign, jen.Commentf("%s (%s %s)", s.Loc, dir, opLabel(op)).Line().Id(n).Op("=").Qual(checkPkg, "Schema").Values(body))
	return n, nil
}

func opLabel(op string) string {
	if op == "" {
		return "any operation"
	}
	return op
}

func (st *schemaTable) newName(loc load.Loc, dir ir.Direction, op string) string {
	base := strings.TrimSuffix(loc.File[strings.LastIndex(loc.File, "/")+1:], ".json") + loc.Pointer
	var b strings.Builder
	b.WriteString("schema")
	up := true
	for _, r := range base {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			if up && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		} else {
			up = true
		}
	}
	b.WriteString(strings.Title(dir.String()))
	b.WriteString(strings.Title(op))
	n := b.String()
	for i := 2; st.used[n]; i++ {
		n = fmt.Sprintf("%s%d", b.String(), i)
	}
	st.used[n] = true
	return n
}

// annotation reads a property schema's ucp_request/ucp_response value for a
// direction and operation: "omit", "required", "optional" or "".
func annotation(s *load.Schema, dir ir.Direction, op string) (string, error) {
	n := s.UcpRequest
	if dir == ir.Response {
		n = s.UcpResponse
	}
	if n == nil {
		return "", nil
	}
	if n.Kind == load.Object {
		n = n.Get(op)
		if n == nil {
			return "", nil
		}
		if n.Kind == load.Object {
			n = n.Get("from")
		}
	}
	if n == nil || n.Kind != load.String {
		return "", fmt.Errorf("%s: annotation must be a string, an operation map or a transition with \"from\"", s.Loc)
	}
	switch n.Str {
	case "omit", "required", "optional":
		return n.Str, nil
	}
	return "", fmt.Errorf("%s: unknown annotation value %q", s.Loc, n.Str)
}

func (st *schemaTable) ptr(s *load.Schema, dir ir.Direction, op string) (jen.Code, error) {
	n, err := st.varFor(s, dir, op)
	if err != nil {
		return nil, err
	}
	return jen.Op("&").Id(n), nil
}

func (st *schemaTable) list(ss []*load.Schema, dir ir.Direction, op string) (jen.Code, error) {
	var items []jen.Code
	for _, s := range ss {
		p, err := st.ptr(s, dir, op)
		if err != nil {
			return nil, err
		}
		items = append(items, p)
	}
	return jen.Index().Op("*").Qual(checkPkg, "Schema").Values(items...), nil
}

func nodeText(s *load.Schema, key string) string {
	if n := s.Node.Get(key); n != nil && n.Kind == load.Number {
		return n.Num.String()
	}
	return ""
}

func intField(v *int) int {
	if v == nil {
		return -1
	}
	return *v
}

// compile turns one schema object into the fields of a schemacheck.Schema
// literal; every assertion keyword the loader accepts is either compiled or
// refused here, so nothing is silently dropped.
func (st *schemaTable) compile(s *load.Schema, dir ir.Direction, op string) (jen.Dict, error) {
	d := jen.Dict{}
	if s.Bool != nil {
		if !*s.Bool {
			d[jen.Id("Never")] = jen.True()
		}
		return d, nil
	}
	if s.MultipleOf != nil {
		return nil, fmt.Errorf("%s: multipleOf is not supported by the validator", s.Loc)
	}
	set := func(name string, c jen.Code) { d[jen.Id(name)] = c }
	one := func(name string, x *load.Schema) error {
		if x == nil {
			return nil
		}
		p, err := st.ptr(x, dir, op)
		if err == nil {
			set(name, p)
		}
		return err
	}
	many := func(name string, xs []*load.Schema) error {
		if len(xs) == 0 {
			return nil
		}
		l, err := st.list(xs, dir, op)
		if err == nil {
			set(name, l)
		}
		return err
	}
	if err := one("Ref", s.Ref); err != nil {
		return nil, err
	}
	if len(s.Types) > 0 {
		var bits []jen.Code
		for _, t := range s.Types {
			bits = append(bits, jen.Qual(checkPkg, "Type"+strings.Title(t)))
		}
		set("Types", jen.Add(joinOr(bits)))
	}
	required := append([]string(nil), s.Required...)
	var props []jen.Code
	for _, p := range s.Properties {
		ann, err := annotation(p.Schema, dir, op)
		if err != nil {
			return nil, err
		}
		switch ann {
		case "omit":
			required = without(required, p.Name)
			continue
		case "optional":
			required = without(required, p.Name)
		case "required":
			if !hasString(required, p.Name) {
				required = append(required, p.Name)
			}
		}
		ps, err := st.ptr(p.Schema, dir, op)
		if err != nil {
			return nil, err
		}
		props = append(props, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(p.Name), jen.Id("Schema"): ps}))
	}
	if len(props) > 0 {
		set("Properties", jen.Index().Qual(checkPkg, "Prop").Values(props...))
	}
	if len(required) > 0 {
		var lits []jen.Code
		for _, r := range required {
			lits = append(lits, jen.Lit(r))
		}
		set("Required", jen.Index().String().Values(lits...))
	}
	switch ap := s.AdditionalProperties; {
	case ap == nil || ap.IsBool(true):
	case ap.IsBool(false):
		set("AdditionalFalse", jen.True())
	default:
		if err := one("Additional", ap); err != nil {
			return nil, err
		}
	}
	if err := one("PropertyNames", s.PropertyNames); err != nil {
		return nil, err
	}
	if s.MinProperties != nil {
		set("MinProperties", jen.Lit(*s.MinProperties))
	}
	set("MaxProperties", jen.Lit(intField(s.MaxProperties)))
	if len(s.DependentRequired) > 0 {
		var deps []jen.Code
		for _, dr := range s.DependentRequired {
			var req []jen.Code
			for _, r := range dr.Requires {
				req = append(req, jen.Lit(r))
			}
			deps = append(deps, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(dr.Property), jen.Id("Requires"): jen.Index().String().Values(req...)}))
		}
		set("DependentRequired", jen.Index().Qual(checkPkg, "Dependent").Values(deps...))
	}
	if err := one("Items", s.Items); err != nil {
		return nil, err
	}
	if s.MinItems != nil {
		set("MinItems", jen.Lit(*s.MinItems))
	}
	set("MaxItems", jen.Lit(intField(s.MaxItems)))
	if s.UniqueItems {
		set("UniqueItems", jen.True())
	}
	if s.MinLength != nil {
		set("MinLength", jen.Lit(*s.MinLength))
	}
	set("MaxLength", jen.Lit(intField(s.MaxLength)))
	if s.Pattern != "" {
		if _, err := schemacheck.TranslatePattern(s.Pattern); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Loc, err)
		}
		set("Pattern", jen.Qual(checkPkg, "Pattern").Call(jen.Lit(s.Pattern)))
		set("PatternSource", jen.Lit(s.Pattern))
	}
	if s.Format != "" {
		set("Format", jen.Lit(s.Format))
	}
	for _, b := range []struct {
		name string
		has  bool
	}{{"minimum", s.Minimum != nil}, {"maximum", s.Maximum != nil}, {"exclusiveMinimum", s.ExclusiveMinimum != nil}, {"exclusiveMaximum", s.ExclusiveMaximum != nil}} {
		if !b.has {
			continue
		}
		text := nodeText(s, b.name)
		v, err := schemacheck.Parse([]byte(text))
		if err != nil || v.Kind != schemacheck.Number {
			return nil, fmt.Errorf("%s: %s must be a number", s.Loc, b.name)
		}
		set(strings.ToUpper(b.name[:1])+b.name[1:], jen.Op("&").Qual(checkPkg, "Bound").Values(jen.Dict{
			jen.Id("F"):    jen.Lit(v.Num),
			jen.Id("Text"): jen.Lit(text),
		}))
	}
	if s.Const != nil {
		set("Const", jen.Qual(checkPkg, "Literal").Call(jen.Lit(string(s.Const.JSON()))))
	}
	if s.Enum != nil {
		var vals []jen.Code
		for _, e := range s.Enum {
			vals = append(vals, jen.Qual(checkPkg, "MustValue").Call(jen.Lit(string(e.JSON()))))
		}
		set("Enum", jen.Index().Qual(checkPkg, "Value").Values(vals...))
	}
	for _, m := range []struct {
		name string
		xs   []*load.Schema
	}{{"AllOf", s.AllOf}, {"AnyOf", s.AnyOf}, {"OneOf", s.OneOf}} {
		if err := many(m.name, m.xs); err != nil {
			return nil, err
		}
	}
	for _, o := range []struct {
		name string
		x    *load.Schema
	}{{"Not", s.Not}, {"If", s.If}, {"Then", s.Then}, {"Else", s.Else}} {
		if err := one(o.name, o.x); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func joinOr(bits []jen.Code) jen.Code {
	c := jen.Add(bits[0])
	for _, b := range bits[1:] {
		c = c.Op("|").Add(b)
	}
	return c
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// typeOps assigns each named type the operation of the first tool that
// reaches it, so per-operation annotations resolve as that tool sees them.
func typeOps(m *ir.Model) map[*ir.Type]string {
	ops := map[*ir.Type]string{}
	var walk func(t *ir.Type, op string)
	walk = func(t *ir.Type, op string) {
		if t == nil {
			return
		}
		if _, ok := ops[t]; ok {
			return
		}
		ops[t] = op
		for _, f := range t.Fields {
			walk(f.Type, op)
		}
		for _, v := range t.Variants {
			walk(v.Type, op)
		}
		walk(t.Extra, op)
		walk(t.Key, op)
		walk(t.Elem, op)
	}
	for _, tool := range m.Tools {
		for _, p := range tool.Params {
			walk(p.Type, tool.Op)
		}
		if tool.Result != nil {
			walk(tool.Result.Type, tool.Op)
		}
	}
	return ops
}

// emitValidators writes, for every named type T, DecodeT (strict decode and
// validation of raw JSON in one call) and (*T).Validate, both returning
// *rpcerr.InvalidParams with pointers relative to the value.
func emitValidators(f *jen.File, m *ir.Model) error {
	st := newSchemaTable()
	entry := map[*ir.Type]string{}
	// Tool parameters and results validate against the schema the tool names,
	// compiled for the tool's direction and operation.
	for _, tool := range m.Tools {
		params := append([]*ir.Param(nil), tool.Params...)
		dirs := make([]ir.Direction, len(params))
		if tool.Result != nil {
			params = append(params, tool.Result)
			dirs = append(dirs, ir.Response)
		}
		for i, p := range params {
			if !p.Type.IsNamed() || entry[p.Type] != "" {
				continue
			}
			n, err := st.varFor(p.Schema, dirs[i], tool.Op)
			if err != nil {
				return fmt.Errorf("tool %s param %s: %w", tool.Name, p.Name, err)
			}
			entry[p.Type] = n
		}
	}
	ops := typeOps(m)
	types := sortedTypes(m)
	for _, t := range types {
		if entry[t] != "" || len(t.Sources) == 0 {
			continue
		}
		n, err := st.varFor(&load.Schema{Loc: load.Loc{File: "type", Pointer: "/" + t.Name}, AllOf: t.Sources, Node: &load.Node{}}, t.Direction, ops[t])
		if err != nil {
			return fmt.Errorf("type %s: %w", t.Name, err)
		}
		entry[t] = n
	}
	for _, t := range types {
		f.Add(decodeMethod(t, entry)).Line()
		n := entry[t]
		if n == "" {
			continue
		}
		f.Add(decodeFunc(t, n)).Line()
		f.Add(validateMethod(t, n)).Line()
	}
	f.Var().DefsFunc(func(g *jen.Group) {
		sort.SliceStable(st.decls, func(i, j int) bool { return false })
		for _, d := range st.decls {
			g.Add(d)
		}
	})
	f.Func().Id("init").Params().Block(st.assign...)
	return nil
}

func decodeFunc(t *ir.Type, schemaVar string) jen.Code {
	name := "Decode" + t.Name
	return jen.Commentf("%s parses data as %s and checks it against the schema in one call, so a handler never sees a value the schema rejects; failures are a *rpcerr.InvalidParams with pointers relative to the value.", name, t.Name).Line().
		Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(t.Name), jen.Error()).Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(checkPkg, "Decode").Call(jen.Op("&").Id(schemaVar), jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Var().Id("x").Id(t.Name),
		jen.If(jen.Err().Op(":=").Id("x").Dot("decodeValue").Call(jen.Id("v")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Op("&").Id("x"), jen.Nil()),
	)
}

func validateMethod(t *ir.Type, schemaVar string) jen.Code {
	return jen.Commentf("Validate checks a %s built in code (for example a hook's response) against the same schema DecodeT enforces, so nothing invalid is sent.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("Validate").Params().Error().Block(
		jen.If(jen.Id("x").Op("==").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("type"), jen.Lit("must be a "+t.Name+", got nothing"))),
		),
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("x")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("cannot be encoded: %v"), jen.Err())),
		),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(checkPkg, "Parse").Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("encodes to invalid JSON: %v"), jen.Err())),
		),
		jen.Return(jen.Qual(checkPkg, "Error").Call(jen.Qual(checkPkg, "Check").Call(jen.Op("&").Id(schemaVar), jen.Op("&").Id("v")))),
	)
}
