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

func openUnmarshal(t *ir.Type) jen.Code {
	decodeUnknown := jen.List(jen.Id("u"), jen.Err()).Op(":=").Qual(jsonobjPkg, "Unknown").Call(jen.Id("data"), jen.Id(knownName(t)))
	assign := jen.Id("x").Dot("Unknown").Op("=").Id("u")
	if t.Extra != nil {
		decodeUnknown = jen.List(jen.Id("raw"), jen.Err()).Op(":=").Qual(jsonobjPkg, "Unknown").Call(jen.Id("data"), jen.Id(knownName(t)))
		assign = jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("raw")).Block(
			jen.Var().Id("e").Add(goType(t.Extra)),
			jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("v"), jen.Op("&").Id("e")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("member %q: %w"), jen.Id("k"), jen.Err())),
			),
			jen.If(jen.Id("x").Dot("Unknown").Op("==").Nil()).Block(
				jen.Id("x").Dot("Unknown").Op("=").Map(jen.String()).Add(goType(t.Extra)).Values(),
			),
			jen.Id("x").Dot("Unknown").Index(jen.Id("k")).Op("=").Id("e"),
		)
	}
	return jen.Commentf("UnmarshalJSON decodes %s and keeps members the schema does not list.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.Var().Id("p").Id("plain"),
		jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("p")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		decodeUnknown,
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("x").Op("=").Id(t.Name).Call(jen.Id("p")),
		assign,
		jen.Return(jen.Nil()),
	)
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
	body = append(body, prep...)
	body = append(body,
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("plain").Call(jen.Id("x"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(jsonobjPkg, "Merge").Call(jen.Id("b"), unknown, jen.Id(knownName(t)))),
	)
	return jen.Commentf("MarshalJSON encodes %s followed by its unknown members in name order.", t.Name).Line().
		Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// closedUnmarshal rejects members the schema does not list, as
// additionalProperties: false demands.
func closedUnmarshal(t *ir.Type) jen.Code {
	return jen.Commentf("UnmarshalJSON decodes %s and rejects members the schema does not list.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.Id("dec").Op(":=").Qual(jsonPkg, "NewDecoder").Call(jen.Qual("bytes", "NewReader").Call(jen.Id("data"))),
		jen.Id("dec").Dot("DisallowUnknownFields").Call(),
		jen.Return(jen.Id("dec").Dot("Decode").Call(jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("x")))),
	)
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

func unionUnmarshal(t *ir.Type) jen.Code {
	head := jen.Commentf("UnmarshalJSON decodes the variant the data matches.").Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error()
	reset := jen.Op("*").Id("x").Op("=").Id(t.Name).Values()
	if t.Discriminator != "" {
		var cases []jen.Code
		for _, v := range t.Variants {
			cases = append(cases, jen.Case(jen.Lit(v.Tag)).Block(
				jen.Id("x").Dot(v.GoName).Op("=").New(goType(v.Type)),
				jen.Return(jen.Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Id("x").Dot(v.GoName))),
			))
		}
		cases = append(cases, jen.Default().Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("%s: unknown %s %%q", t.Name, t.Discriminator)), jen.Id("tag"))),
		))
		return head.Block(
			reset,
			jen.List(jen.Id("tag"), jen.Id("ok"), jen.Err()).Op(":=").Qual(jsonobjPkg, "StringMember").Call(jen.Id("data"), jen.Lit(t.Discriminator)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("%s: missing string member %q", t.Name, t.Discriminator))))),
			jen.Switch(jen.Id("tag")).Block(cases...),
		)
	}
	var tries []jen.Code
	for _, v := range t.Variants {
		tries = append(tries, jen.Block(
			jen.Var().Id("v").Add(goType(v.Type)),
			jen.If(jen.Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("v")).Op("==").Nil()).Block(
				jen.Id("x").Dot(v.GoName).Op("=").Op("&").Id("v"),
				jen.Return(jen.Nil()),
			),
		))
	}
	body := append([]jen.Code{reset}, tries...)
	body = append(body, jen.Return(jen.Qual("errors", "New").Call(jen.Lit(t.Name+": value matches none of the alternatives"))))
	return head.Block(body...)
}
