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
	st := newCheckTable()
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
			n, err := st.suffixFor(p.Schema, dirs[i], tool.Op)
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
		n, err := st.suffixFor(&load.Schema{Loc: load.Loc{File: "type", Pointer: "/" + t.Name}, AllOf: t.Sources, Node: &load.Node{}}, t.Direction, ops[t])
		if err != nil {
			return fmt.Errorf("type %s: %w", t.Name, err)
		}
		entry[t] = n
	}
	// Union variants are chosen by their schema, so they need matchX.
	for _, t := range types {
		for _, vr := range t.Variants {
			if entry[vr.Type] != "" {
				st.markBranch(entry[vr.Type])
			}
		}
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

// checkCall emits the statements that run checkX over the parsed value v and
// return its violations as the function's error.
func checkCall(suffix string, ret ...jen.Code) []jen.Code {
	return []jen.Code{
		jen.Var().Id("c").Qual(checkPkg, "Checker"),
		jen.Id("check"+suffix).Call(jen.Op("&").Id("c"), jen.Id("v"), jen.Nil()),
		jen.If(jen.Err().Op(":=").Id("c").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(append(ret, jen.Err())...)),
	}
}

func decodeFunc(t *ir.Type, suffix string) jen.Code {
	name := "Decode" + t.Name
	body := []jen.Code{
		jen.Id("doc").Op(":=").Qual(checkPkg, "NewDocument").Call(),
		jen.Defer().Id("doc").Dot("Release").Call(),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("doc").Dot("Parse").Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(checkPkg, "SyntaxError").Call(jen.Err()))),
	}
	body = append(body, checkCall(suffix, jen.Nil())...)
	body = append(body,
		jen.Var().Id("x").Id(t.Name),
		jen.If(jen.Err().Op(":=").Id("x").Dot("decodeValue").Call(jen.Id("v")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Op("&").Id("x"), jen.Nil()),
	)
	return jen.Commentf("%s parses data as %s and checks it against the schema in one call, so a handler never sees a value the schema rejects; failures are a *rpcerr.InvalidParams with pointers relative to the value.", name, t.Name).Line().
		Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(t.Name), jen.Error()).Block(body...)
}

func validateMethod(t *ir.Type, suffix string) jen.Code {
	body := []jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("type"), jen.Lit("must be a "+t.Name+", got nothing"))),
		),
		jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("x")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("cannot be encoded: %v"), jen.Err())),
		),
		jen.Id("doc").Op(":=").Qual(checkPkg, "NewDocument").Call(),
		jen.Defer().Id("doc").Dot("Release").Call(),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("doc").Dot("Parse").Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(rpcerrPkg, "Invalid").Call(jen.Lit(""), jen.Lit("encode"), jen.Lit("encodes to invalid JSON: %v"), jen.Err())),
		),
	}
	body = append(body, checkCall(suffix)...)
	body = append(body, jen.Return(jen.Nil()))
	return jen.Commentf("Validate checks a %s built in code (for example a hook's response) against the same schema DecodeT enforces, so nothing invalid is sent.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("Validate").Params().Error().Block(body...)
}
