package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// codecMethods emits the JSON methods a type needs beyond encoding/json's
// defaults: unknown-member preservation, strict closed objects and unions.
func codecMethods(t *ir.Type) jen.Code {
	switch {
	case t.Kind == ir.Struct && (t.KeepUnknown || t.Extra != nil):
		return jen.Add(knownFunc(t)).Line().Line().Add(strictUnmarshal(t)).Line().Line().Add(openMarshal(t))
	case t.Kind == ir.Struct && len(emptyContainers(t)) > 0:
		return jen.Add(strictUnmarshal(t)).Line().Line().Add(closedMarshal(t))
	case t.Kind == ir.Struct:
		return strictUnmarshal(t)
	case t.Kind == ir.Union:
		return jen.Add(unionMarshal(t)).Line().Line().Add(strictUnmarshal(t))
	}
	return jen.Null()
}

func knownName(t *ir.Type) string { return "is" + t.Name + "Member" }

// knownFunc lists the schema's member names for exact-case matching.
func knownFunc(t *ir.Type) jen.Code {
	var names []jen.Code
	for _, f := range t.Fields {
		names = append(names, jen.Lit(f.JSONName))
	}
	body := jen.Return(jen.False())
	if len(names) > 0 {
		body = jen.Switch(jen.Id("name")).Block(
			jen.Case(names...).Block(jen.Return(jen.True())),
		).Line().Return(jen.False())
	}
	return jen.Func().Id(knownName(t)).Params(jen.Id("name").String()).Bool().Block(body)
}

func openMarshal(t *ir.Type) jen.Code {
	unknown := jen.Id("x").Dot("Unknown")
	var prep []jen.Code
	if t.Extra != nil {
		prep = append(prep,
			jen.Var().Id("raw").Map(jen.String()).Qual(jsonPkg, "RawMessage"),
			jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("x").Dot("Unknown")).Block(
				jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("v")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("member %q: %w"), jen.Id("k"), jen.Err()))),
				jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Id("raw").Op("=").Map(jen.String()).Qual(jsonPkg, "RawMessage").Values()),
				jen.Id("raw").Index(jen.Id("k")).Op("=").Id("b"),
			),
		)
		unknown = jen.Id("raw")
	}
	body := []jen.Code{
		jen.Type().Id("plain").Id(t.Name),
	}
	body = append(body, emptyContainers(t)...)
	body = append(body, prep...)
	body = append(body,
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("plain").Call(jen.Id("x"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(jsonobjPkg, "Merge").Call(jen.Id("b"), unknown, jen.Id(knownName(t)))),
	)
	return jen.Commentf("MarshalJSON encodes %s followed by its unknown members in name order.", t.Name).Line().
		Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// emptyContainers returns, for each required member whose Go type is a
// slice or map, "if x.F == nil { x.F = T{} }": a nil slice would encode as
// null, which the schema's array or object type rejects, and a hook that
// found nothing naturally leaves it nil.
func emptyContainers(t *ir.Type) []jen.Code {
	var out []jen.Code
	for _, f := range t.Fields {
		if !f.Required || f.Type == nil || f.Type.Kind != ir.Array && f.Type.Kind != ir.Map {
			continue
		}
		out = append(out, jen.If(jen.Id("x").Dot(f.GoName).Op("==").Nil()).Block(
			jen.Id("x").Dot(f.GoName).Op("=").Add(goType(f.Type)).Values(),
		))
	}
	return out
}

// closedMarshal is MarshalJSON for a struct without unknown members whose
// required slices and maps must encode as [] and {} when nil.
func closedMarshal(t *ir.Type) jen.Code {
	body := []jen.Code{jen.Type().Id("plain").Id(t.Name)}
	body = append(body, emptyContainers(t)...)
	body = append(body, jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("plain").Call(jen.Id("x")))))
	return jen.Commentf("MarshalJSON encodes %s, writing a nil required list or map as empty rather than null.", t.Name).Line().
		Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

func unionMarshal(t *ir.Type) jen.Code {
	var cases []jen.Code
	for _, v := range t.Variants {
		cases = append(cases, jen.Case(jen.Id("x").Dot(v.GoName).Op("!=").Nil()).Block(
			jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("x").Dot(v.GoName))),
		))
	}
	count := jen.Id("n").Op(":=").Lit(0)
	var counts []jen.Code
	for _, v := range t.Variants {
		counts = append(counts, jen.If(jen.Id("x").Dot(v.GoName).Op("!=").Nil()).Block(jen.Id("n").Op("++")))
	}
	return jen.Commentf("MarshalJSON encodes the one variant that is set.").Line().
		Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		append(append([]jen.Code{count}, counts...),
			jen.If(jen.Id("n").Op("!=").Lit(1)).Block(
				jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("%s: exactly one variant must be set, got %%d", t.Name)), jen.Id("n"))),
			),
			jen.Switch().Block(cases...),
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit("unreachable"))),
		)...,
	)
}
