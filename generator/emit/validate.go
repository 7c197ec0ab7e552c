package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

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
	first := newCheckTable(nil)
	if _, _, err := compileEntries(first, m); err != nil {
		return err
	}
	st := newCheckTable(first.namePlan())
	entry, args, err := compileEntries(st, m)
	if err != nil {
		return err
	}
	types := sortedTypes(m)
	// Union variants are chosen by their schema, so they need matchX.
	for _, t := range types {
		for _, vr := range t.Variants {
			if entry[vr.Type] != "" {
				st.markBranch(entry[vr.Type])
			}
		}
	}
	into := false
	for _, t := range types {
		into = into || entry[t] != "" && reusesContainers(t)
	}
	f.Add(checkHelpers(into)).Line()
	use := &decodeUse{}
	for _, t := range types {
		f.Add(decodeMethod(t, entry, use)).Line()
		n := entry[t]
		if n == "" {
			continue
		}
		f.Add(decodeFunc(t, n)).Line()
		f.Add(decodeValueFunc(t, n)).Line()
		if reusesContainers(t) {
			f.Add(decodeValueIntoFunc(t, n)).Line()
		}
		f.Add(validateMethod(t, n)).Line()
	}
	if len(args) > 0 {
		f.Add(argumentHelper()).Line()
	}
	for _, tool := range m.Tools {
		for _, p := range tool.Params {
			if n, ok := args[p]; ok {
				f.Add(argumentDecoder(tool, p, n, use)).Line()
			}
		}
	}
	for _, fn := range decodeHelpers(use) {
		f.Add(fn).Line()
	}
	for _, fn := range st.funcs {
		f.Add(fn).Line()
	}
	for _, fn := range st.branchFuncs() {
		f.Add(fn).Line()
	}
	if len(st.vars) > 0 {
		f.Var().Defs(st.vars...)
	}
	return nil
}

// compileEntries compiles the schema of every named type into st and
// returns each type's check suffix. Tool parameters and results validate
// against the schema the tool names, compiled for the tool's direction and
// operation; other types against their merged sources. Parameters of an
// unnamed type (a plain string id) and parameters whose schema depends on
// the operation (see opDependent) get a check of their own, returned in
// args.
func compileEntries(st *checkTable, m *ir.Model) (entry map[*ir.Type]string, args map[*ir.Param]string, err error) {
	entry, args = map[*ir.Type]string{}, map[*ir.Param]string{}
	for _, tool := range m.Tools {
		params := append([]*ir.Param(nil), tool.Params...)
		dirs := make([]ir.Direction, len(params))
		if tool.Result != nil {
			params = append(params, tool.Result)
			dirs = append(dirs, ir.Response)
		}
		for i, p := range params {
			if i < len(tool.Params) && (!p.Type.IsNamed() || opDependent(p.Schema)) {
				n, err := st.suffixFor(p.Schema, dirs[i], tool.Op)
				if err != nil {
					return nil, nil, fmt.Errorf("tool %s param %s: %w", tool.Name, p.Name, err)
				}
				args[p] = n
				if p.Type.IsNamed() && entry[p.Type] == "" {
					entry[p.Type] = n // DecodeT reads the schema as the first operation does
				}
				continue
			}
			if !p.Type.IsNamed() || entry[p.Type] != "" {
				continue
			}
			n, err := st.suffixFor(p.Schema, dirs[i], tool.Op)
			if err != nil {
				return nil, nil, fmt.Errorf("tool %s param %s: %w", tool.Name, p.Name, err)
			}
			entry[p.Type] = n
		}
	}
	ops := typeOps(m)
	for _, t := range sortedTypes(m) {
		if entry[t] != "" || len(t.Sources) == 0 {
			continue
		}
		n, err := st.suffixFor(&load.Schema{Loc: load.Loc{File: "type", Pointer: "/" + t.Name}, AllOf: outermost(t.Sources), Node: &load.Node{}}, t.Direction, ops[t])
		if err != nil {
			return nil, nil, fmt.Errorf("type %s: %w", t.Name, err)
		}
		entry[t] = n
	}
	return entry, args, nil
}

// argumentHelper emits decodeArgument, which the decoder of every argument
// of an unnamed type shares: parse, check, and only then fill the value.
func argumentHelper() jen.Code {
	return jen.Comment("decodeArgument parses data, runs check over it and only then hands the value to").Line().
		Comment("fill, so that a tool argument of an unnamed type is held to its schema as named").Line().
		Comment("types are by decodeChecked.").Line().
		Func().Id("decodeArgument").Params(
		jen.Id("data").Index().Byte(),
		jen.Id("check").Func().Params(jen.Op("*").Qual(checkPkg, "Checker"), jen.Op("*").Qual(checkPkg, "Value"), jen.Op("*").Qual(checkPkg, "Path")),
		jen.Id("fill").Func().Params(jen.Op("*").Qual(checkPkg, "Value")).Error(),
	).Error().Block(
		jen.Id("doc").Op(":=").Qual(checkPkg, "NewDocument").Call(),
		jen.Defer().Id("doc").Dot("Release").Call(),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("doc").Dot("Parse").Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(checkPkg, "SyntaxError").Call(jen.Err()))),
		jen.If(jen.Err().Op(":=").Id("runCheck").Call(jen.Id("v"), jen.Id("check")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("fill").Call(jen.Id("v"))),
	)
}

// opDependent reports whether a schema, or one it reaches, carries a
// per-operation ucp_request or ucp_response annotation, so that it
// validates differently for create_checkout and complete_checkout. One Go
// type serves every operation, but the argument of each tool is then held
// to its own operation's rules by a decoder of its own (see paramDecoder).
func opDependent(s *load.Schema) bool {
	seen := map[*load.Schema]bool{}
	var walk func(x *load.Schema) bool
	walk = func(x *load.Schema) bool {
		if x == nil || seen[x] {
			return false
		}
		seen[x] = true
		for _, a := range []*load.Node{x.UcpRequest, x.UcpResponse} {
			if a != nil && a.Kind == load.Object {
				return true
			}
		}
		subs := []*load.Schema{x.Ref, x.Items, x.AdditionalProperties, x.PropertyNames, x.Contains, x.Not, x.If, x.Then, x.Else}
		subs = append(append(append(subs, x.AllOf...), x.AnyOf...), x.OneOf...)
		for _, p := range x.Properties {
			subs = append(subs, p.Schema)
		}
		for _, sub := range subs {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(s)
}

// paramDecoder names the function that decodes param p of tool t: the
// param type's DecodeT, or the param's own decoder when its type has no
// declaration or its schema depends on the operation.
func paramDecoder(t *ir.Tool, p *ir.Param) string {
	if p.Type.IsNamed() && !opDependent(p.Schema) {
		return "Decode" + p.Type.Name
	}
	return argDecoderName(t, p)
}

// argumentDecoder emits the decoder of one tool argument whose type has no
// declaration (and so no DecodeT), such as a plain string id, or whose
// schema validates per operation.
func argumentDecoder(tool *ir.Tool, p *ir.Param, suffix string, use *decodeUse) jen.Code {
	name := argDecoderName(tool, p)
	if p.Type.IsNamed() {
		return jen.Commentf("%s parses data as the %s argument of %s, checked against its schema as that operation reads it.", name, p.Name, tool.Name).Line().
			Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(p.Type.Name), jen.Error()).Block(
			jen.Return(jen.Id("decodeChecked").Types(jen.Id(p.Type.Name)).Call(jen.Id("data"), jen.Id("check"+suffix))),
		)
	}
	fill := append(valueInto(use, p.Type, place{expr: jen.Id("x")}, operandOf(jen.Id("v")), false), jen.Return(jen.Nil()))
	return jen.Commentf("%s parses data as the %s argument of %s, checked against its schema.", name, p.Name, tool.Name).Line().
		Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(goType(p.Type), jen.Error()).Block(
		jen.Var().Id("x").Add(goType(p.Type)),
		jen.Err().Op(":=").Id("decodeArgument").Call(jen.Id("data"), jen.Id("check"+suffix),
			jen.Func().Params(jen.Id("v").Op("*").Qual(checkPkg, "Value")).Error().Block(fill...)),
		jen.Return(jen.Id("x"), jen.Err()),
	)
}

// checkHelpers emits the generic functions that every DecodeT and Validate
// share, so that each type adds one line of each instead of a copy of the
// parse-check-decode sequence; into adds the one DecodeTValueInto shares.
func checkHelpers(into bool) jen.Code {
	checkFn := func() jen.Code {
		return jen.Func().Params(jen.Op("*").Qual(checkPkg, "Checker"), jen.Op("*").Qual(checkPkg, "Value"), jen.Op("*").Qual(checkPkg, "Path"))
	}
	parse := func(fail ...jen.Code) []jen.Code {
		return []jen.Code{
			jen.Id("doc").Op(":=").Qual(checkPkg, "NewDocument").Call(),
			jen.Defer().Id("doc").Dot("Release").Call(),
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("doc").Dot("Parse").Call(jen.Id("data")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(fail...)),
		}
	}
	decode := append(parse(jen.Nil(), jen.Qual(checkPkg, "SyntaxError").Call(jen.Err())),
		jen.Return(jen.Id("decodeParsed").Types(jen.Id("T"), jen.Id("P")).Call(jen.Id("v"), jen.Id("check"))),
	)
	decodeParsed := []jen.Code{
		jen.If(jen.Err().Op(":=").Id("runCheck").Call(jen.Id("v"), jen.Id("check")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("x").Op(":=").New(jen.Id("T")),
		jen.If(jen.Err().Op(":=").Id("P").Call(jen.Id("x")).Dot("decodeValue").Call(jen.Id("v")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("x"), jen.Nil()),
	}
	validate := append([]jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("type"), jen.Lit("must be %s, got nothing"), jen.Id("name"))),
		),
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("x")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("cannot be encoded: %v"), jen.Err())),
		),
	}, parse(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("encodes to invalid JSON: %v"), jen.Err()))...)
	validate = append(validate, jen.Return(jen.Id("runCheck").Call(jen.Id("v"), jen.Id("check"))))
	helpers := jen.Comment("decoder is a generated type that fills itself from a parsed JSON value.").Line().
		Type().Id("decoder").Types(jen.Id("T").Any()).Interface(
		jen.Op("*").Id("T"),
		jen.Id("decodeValue").Params(jen.Op("*").Qual(checkPkg, "Value")).Error(),
	).Line().Line().
		Comment("checkers recycles Checkers: check functions are called through a function").Line().
		Comment("value here, which would otherwise move every Checker to the heap.").Line().
		Var().Id("checkers").Op("=").Qual("sync", "Pool").Values(jen.Dict{
		jen.Id("New"): jen.Func().Params().Any().Block(jen.Return(jen.New(jen.Qual(checkPkg, "Checker")))),
	}).Line().Line().
		Comment("runCheck runs check over v and returns its violations as one error.").Line().
		Func().Id("runCheck").Params(jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("check").Add(checkFn())).Error().Block(
		jen.Id("c").Op(":=").Id("checkers").Dot("Get").Call().Assert(jen.Op("*").Qual(checkPkg, "Checker")),
		jen.Id("check").Call(jen.Id("c"), jen.Id("v"), jen.Nil()),
		jen.Err().Op(":=").Id("c").Dot("Err").Call(),
		jen.Op("*").Id("c").Op("=").Qual(checkPkg, "Checker").Values(),
		jen.Id("checkers").Dot("Put").Call(jen.Id("c")),
		jen.Return(jen.Err()),
	).Line().Line().
		Comment("decodeChecked parses data, runs check over it and only then decodes it into a").Line().
		Comment("new T, so that no caller sees a value the schema rejects; violations are a").Line().
		Comment("*rpcerr.InvalidParams with pointers relative to the value.").Line().
		Func().Id("decodeChecked").Types(jen.Id("T").Any(), jen.Id("P").Id("decoder").Types(jen.Id("T"))).
		Params(jen.Id("data").Index().Byte(), jen.Id("check").Add(checkFn())).Params(jen.Op("*").Id("T"), jen.Error()).Block(decode...).Line().Line().
		Comment("decodeParsed is decodeChecked for a value parsed already.").Line().
		Func().Id("decodeParsed").Types(jen.Id("T").Any(), jen.Id("P").Id("decoder").Types(jen.Id("T"))).
		Params(jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("check").Add(checkFn())).Params(jen.Op("*").Id("T"), jen.Error()).Block(decodeParsed...).Line().Line().
		Comment("validateChecked encodes x, a value built in code, and runs check over the").Line().
		Comment("result, so that a hook's response is held to the schema its decoder enforces.").Line().
		Func().Id("validateChecked").Types(jen.Id("T").Any()).
		Params(jen.Id("x").Op("*").Id("T"), jen.Id("name").String(), jen.Id("check").Add(checkFn())).Error().Block(validate...)
	if into {
		helpers.Line().Line().
			Comment("decodeParsedInto is decodeParsed writing into x, whose lists and maps the decoders refill.").Line().
			Func().Id("decodeParsedInto").Types(jen.Id("T").Any(), jen.Id("P").Id("decoder").Types(jen.Id("T"))).
			Params(jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("x").Op("*").Id("T"), jen.Id("name").String(), jen.Id("check").Add(checkFn())).Error().Block(
			jen.If(jen.Id("x").Op("==").Nil()).Block(
				jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("type"), jen.Lit("must be decoded into %s, got nil"), jen.Id("name"))),
			),
			jen.If(jen.Err().Op(":=").Id("runCheck").Call(jen.Id("v"), jen.Id("check")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Return(jen.Id("P").Call(jen.Id("x")).Dot("decodeValue").Call(jen.Id("v"))),
		)
	}
	return helpers
}

func decodeFunc(t *ir.Type, suffix string) jen.Code {
	name := "Decode" + t.Name
	return jen.Commentf("%s parses data as %s its schema accepts.", name, withArticle(t.Name)).Line().
		Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(t.Name), jen.Error()).Block(
		jen.Return(jen.Id("decodeChecked").Types(jen.Id(t.Name)).Call(jen.Id("data"), jen.Id("check"+suffix))),
	)
}

// decodeValueFunc emits DecodeTValue, DecodeT for a value already parsed
// (a loader that parses each record where it reads it), so the text is
// not parsed twice.
func decodeValueFunc(t *ir.Type, suffix string) jen.Code {
	name := "Decode" + t.Name + "Value"
	return jen.Commentf("%s is Decode%s for a value parsed already, so its text is read once.", name, t.Name).Line().
		Func().Id(name).Params(jen.Id("v").Op("*").Qual(checkPkg, "Value")).Params(jen.Op("*").Id(t.Name), jen.Error()).Block(
		jen.Return(jen.Id("decodeParsed").Types(jen.Id(t.Name)).Call(jen.Id("v"), jen.Id("check"+suffix))),
	)
}

// decodeValueIntoFunc emits DecodeTValueInto, DecodeTValue into a T the
// caller keeps, for a type holding lists or maps: a loader decoding a
// million values one after another, each dropped once read, refills the
// same ones instead of leaving them all to the collector.
func decodeValueIntoFunc(t *ir.Type, suffix string) jen.Code {
	name := "Decode" + t.Name + "ValueInto"
	return jen.Commentf("%s is Decode%sValue writing into x, whose lists and maps it refills (what they held is overwritten), so that decoding one value after another allocates them once; on an error x holds what was decoded so far.", name, t.Name).Line().
		Func().Id(name).Params(jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("x").Op("*").Id(t.Name)).Error().Block(
		jen.Return(jen.Id("decodeParsedInto").Call(jen.Id("v"), jen.Id("x"), jen.Lit(withArticle(t.Name)), jen.Id("check"+suffix))),
	)
}

func validateMethod(t *ir.Type, suffix string) jen.Code {
	return jen.Commentf("Validate holds x to the schema Decode%s enforces.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("Validate").Params().Error().Block(
		jen.Return(jen.Id("validateChecked").Call(jen.Id("x"), jen.Lit(withArticle(t.Name)), jen.Id("check"+suffix))),
	)
}

// outermost returns the sources no other source already requires through
// $ref or allOf, in their order. A merged type's sources include every
// schema its outer schema pulls in, and the outer schema's check runs
// those already, so checking them again as siblings would only repeat the
// work (the Location's own check ran twice over). Of sources that require
// each other (a cycle), the first stays.
func outermost(sources []*load.Schema) []*load.Schema {
	reach := make([]map[*load.Schema]bool, len(sources))
	for i, s := range sources {
		reach[i] = requiredBy(s)
	}
	var keep []*load.Schema
	for i, s := range sources {
		covered := false
		for j, r := range sources {
			if j == i || r == s || !reach[j][s] {
				continue
			}
			// r requires s; when s requires r too, the earlier one stays.
			if !reach[i][r] || j < i {
				covered = true
				break
			}
		}
		if !covered {
			keep = append(keep, s)
		}
	}
	return keep
}

// requiredBy is every schema s's check runs besides its own keywords: the
// targets of its $ref and its allOf branches, transitively (s itself only
// through a cycle).
func requiredBy(s *load.Schema) map[*load.Schema]bool {
	seen := map[*load.Schema]bool{}
	var walk func(x *load.Schema)
	walk = func(x *load.Schema) {
		next := append([]*load.Schema{x.Ref}, x.AllOf...)
		for _, n := range next {
			if n != nil && !seen[n] {
				seen[n] = true
				walk(n)
			}
		}
	}
	walk(s)
	return seen
}
