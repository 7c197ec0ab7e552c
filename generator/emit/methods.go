package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits methods.go for a JSON-RPC service that is not an MCP
// binding (see isMCPService), such as UCP's embedded checkout and cart
// protocols between a host and an embedded page, or payment actions: for
// each method, a params struct with DecodeXParams, which splits the params
// sent by name and decodes each one against its own schema, and
// DecodeXResult for a method that answers. Such services get no tools.

func emitMethods(f *jen.File, m *ir.Model) error {
	if mcp, err := isMCPService(m); mcp || err != nil {
		return errSkipFile // served as MCP tools (or refused by mcp.go)
	}
	if len(m.Tools) == 0 {
		return errSkipFile
	}
	taken := map[string]bool{}
	for _, t := range m.Types {
		taken[t.Name] = true
	}
	for _, t := range m.Tools {
		code, err := methodDecoders(t, taken)
		if err != nil {
			return fmt.Errorf("method %s: %w", t.Name, err)
		}
		f.Add(code)
	}
	return nil
}

// methodDecoders emits the params struct and decoders of one method.
func methodDecoders(t *ir.Tool, taken map[string]bool) (jen.Code, error) {
	base := ir.GoName(t.Name)
	params := base + "Params"
	if taken[params] {
		return nil, fmt.Errorf("the params struct %s would collide with the generated type of that name", params)
	}
	taken[params] = true
	var fields, names, required, decode []jen.Code
	seen := map[string]string{}
	for i, p := range t.Params {
		goName := ir.GoName(p.Name)
		if other, dup := seen[goName]; dup {
			return nil, fmt.Errorf("params %q and %q both map to Go field %s", other, p.Name, goName)
		}
		seen[goName] = p.Name
		doc := fmt.Sprintf("%s is the %s param", goName, p.Name)
		if p.Required {
			doc += " (required)"
		}
		fields = append(fields, lineComments(wrap(doc+".", docWidth-1)), jen.Id(goName).Add(argType(p)))
		names = append(names, jen.Lit(p.Name))
		required = append(required, jen.Lit(p.Required))
		raw := jen.Id("raw").Index(jen.Lit(i))
		field := jen.Id("x").Dot(goName)
		errI := jen.Id("errs").Index(jen.Lit(i))
		var body jen.Code
		switch {
		case p.Type.IsNamed(), p.Required:
			body = jen.List(field, errI).Op("=").Id(paramDecoder(t, p)).Call(raw)
		default:
			body = jen.Block(
				jen.List(jen.Id("v"), jen.Err()).Op(":=").Id(paramDecoder(t, p)).Call(raw),
				jen.List(field, errI).Op("=").Op("&").Id("v"), jen.Err(),
			)
		}
		decode = append(decode, jen.If(raw.Clone().Op("!=").Nil()).Block(body))
	}
	kind := "request"
	if t.Result == nil {
		kind = "notification"
	}
	doc := fmt.Sprintf("%s holds the params of the %s %s, by name.", params, t.Name, kind)
	if t.Summary != "" {
		doc = fmt.Sprintf("%s holds the params of the %s %s (%s), by name.", params, t.Name, kind, t.Summary)
	}
	namesVar := jen.Index().String().Values(names...)
	out := jen.Add(lineComments(wrap(doc, docWidth-1))).Line().
		Type().Id(params).Struct(fields...).Line().Line().
		Add(lineComments(wrap(fmt.Sprintf("Decode%s parses the params of one %s message, sent by name, and decodes each "+
			"checked against its own schema; violations are one *rpcerr.InvalidParams with pointers under the param's name.", params, t.Name), docWidth-1))).Line().
		Func().Id("Decode"+params).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(params), jen.Error()).Block(
		append(append([]jen.Code{
			jen.Id("names").Op(":=").Add(namesVar),
			jen.List(jen.Id("raw"), jen.Err()).Op(":=").Qual(checkPkg, "Params").Call(jen.Id("data"), jen.Id("names"), jen.Index().Bool().Values(required...)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("x").Op(":=").Op("&").Id(params).Values(),
			jen.Var().Id("errs").Index(jen.Lit(len(t.Params))).Error(),
		}, decode...),
			jen.If(jen.Err().Op(":=").Qual(checkPkg, "ParamErrors").Call(jen.Id("names"), jen.Id("errs").Index(jen.Empty(), jen.Empty()).Op("...")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("x"), jen.Nil()),
		)...,
	)
	if t.Result == nil {
		return out, nil
	}
	rt := t.Result.Type
	if !rt.IsNamed() {
		return nil, fmt.Errorf("the result schema %s has no generated type to decode into", t.Result.Schema.Loc)
	}
	name := "Decode" + base + "Result"
	if rt.Name == base+"Result" {
		return out, nil // DecodeXResult is the result type's own decoder
	}
	if taken[base+"Result"] {
		return nil, fmt.Errorf("%s would collide with the decoder of the generated type %sResult", name, base)
	}
	return jen.Add(out).Line().Line().
		Commentf("%s parses the result of a %s request, checked against its schema.", name, t.Name).Line().
		Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(rt.Name), jen.Error()).Block(
		jen.Return(jen.Id("Decode" + rt.Name).Call(jen.Id("data"))),
	), nil
}
