package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// codecMethods emits the JSON methods of a struct or union: a strict
// UnmarshalJSON and a MarshalJSON that is the one-pass AppendJSON.
func codecMethods(t *ir.Type) jen.Code {
	switch {
	case t.Kind == ir.Struct && (t.KeepUnknown || t.Extra != nil):
		return jen.Add(knownFunc(t)).Line().Line().Add(strictUnmarshal(t)).Line().Line().Add(marshalVia(t))
	case t.Kind == ir.Struct:
		return jen.Add(strictUnmarshal(t)).Line().Line().Add(marshalVia(t))
	case t.Kind == ir.Union:
		return jen.Add(marshalVia(t)).Line().Line().Add(strictUnmarshal(t))
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

// marshalVia is MarshalJSON as a call of AppendJSON (see encode.go), so that
// encoding/json and the runtime write one encoding of every type.
func marshalVia(t *ir.Type) jen.Code {
	return jen.Comment("MarshalJSON is AppendJSON, so encoding/json and the runtime agree on every byte.").Line().
		Func().Params(jen.Id("x").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("AppendJSON").Call(jen.Nil())),
	)
}
