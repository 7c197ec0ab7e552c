package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits the memo of the search response: the generated service
// copies each Location of a page from its Source, and a Source that keeps
// its Locations decoded also keeps their encodings (finder.Candidate.
// Encoded). The response remembers which element came from which Location
// (jsonenc.Memo), so its encoder copies the encoding of every element still
// equal to its Location, and AppendJSONSpans says where the copies lie so
// the MCP text block copies their escaped text too.

// memoSite is the response member whose elements carry a memo.
type memoSite struct {
	resp  *ir.Type
	field *ir.Field
}

// findMemo is the search response's locations member when the service is
// generated and the member is a required array of the Locations the
// service copies; ok is false otherwise (then nothing is memoised).
func findMemo(m *ir.Model) (memoSite, bool) {
	s, ok := findService(m)
	if !ok {
		return memoSite{}, false
	}
	return serviceMemo(s)
}

// serviceMemo is findMemo for the service s.
func serviceMemo(s serviceModel) (memoSite, bool) {
	f := fieldNamed(s.searchResp, "locations")
	if f == nil || !f.Required || f.Type.Kind != ir.Array || f.Type.Elem != s.loc || ucpField(s.searchResp) == nil {
		return memoSite{}, false
	}
	return memoSite{resp: s.searchResp, field: f}, true
}

// memoOf is the memo site of t, or nil.
func memoOf(m *ir.Model, t *ir.Type) *ir.Field {
	if site, ok := findMemo(m); ok && site.resp == t {
		return site.field
	}
	return nil
}

// memoName is the unexported field that holds f's memo.
func memoName(f *ir.Field) string { return "memo" + f.GoName }

// memoField declares the memo after the members.
func memoField(f *ir.Field) []jen.Code {
	doc := memoName(f) + " holds the Source's encodings of the elements of " + f.GoName + " the service copied, which AppendJSON copies for those still unchanged. It makes a service's response differ from a decoded one under reflect.DeepEqual: compare responses by their JSON."
	return []jen.Code{
		jen.Line(),
		lineComments(wrap(doc, docWidth-4)),
		jen.Id(memoName(f)).Qual(jsonencPkg, "Memo").Types(jen.Id(f.Type.Elem.Name)),
	}
}

// memoArray encodes f, a memoised array member, as appendValue would, with
// each element written from the memo when it applies.
func memoArray(f *ir.Field) ([]jen.Code, error) {
	v := jen.Id("x").Dot(f.GoName)
	elem, err := appendValue(f.Type.Elem, v.Clone().Index(jen.Id("i0")), true, f.JSONName, false, 1)
	if err != nil {
		return nil, err
	}
	loop := append([]jen.Code{
		jen.If(jen.Id("i0").Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
		memoElement(f, "i0"),
	}, elem...)
	return nilOr(v, true, "[]", []jen.Code{
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
		jen.For(jen.Id("i0").Op(":=").Range().Add(v)).Block(loop...),
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(']')),
	}), nil
}

// memoElement writes element i of f from its memo when it still applies;
// otherwise the statements after it encode the element.
func memoElement(f *ir.Field, i string) jen.Code {
	return jen.If(
		jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Id("x").Dot(memoName(f)).Dot("Append").Call(
			jen.Id("b"), jen.Id(i), jen.Op("&").Id("x").Dot(f.GoName).Index(jen.Id(i)), jen.Id("spans")),
		jen.Id("ok"),
	).Block(
		jen.Id("b").Op("=").Id("m"),
		jen.Continue(),
	)
}

// memoSet is the service's statement that records where resp's elements
// came from.
func memoSet(f *ir.Field) jen.Code {
	return jen.Id("resp").Dot(memoName(f)).Dot("Set").Call(jen.Id("page").Dot("Locations"), jen.Id("page").Dot("Encoded"))
}

// memoEncoders are the entry points of a memoised envelope: AppendJSON and
// AppendJSONWithUCP call AppendJSONSpans, which holds body.
func memoEncoders(t *ir.Type, doc string, body []jen.Code) jen.Code {
	plain := encoderFunc(t.Name, doc, []jen.Code{jen.Return(jen.Id("x").Dot("AppendJSONSpans").Call(jen.Id("b"), jen.Nil(), jen.Nil()))})
	with := jen.Comment("AppendJSONWithUCP is AppendJSON with ucp, already encoded, written as the ucp member in place of x.UCP (nil keeps x.UCP).").Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("AppendJSONWithUCP").
		Params(jen.Id("b"), jen.Id("ucp").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(jen.Return(jen.Id("x").Dot("AppendJSONSpans").Call(jen.Id("b"), jen.Id("ucp"), jen.Nil())))
	spans := jen.Comment("AppendJSONSpans is AppendJSONWithUCP that also appends to spans (when not nil) where it copied a Source's encoding, so a transport can copy the escaped text it keeps too.").Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("AppendJSONSpans").
		Params(jen.Id("b"), jen.Id("ucp").Index().Byte(), jen.Id("spans").Op("*").Index().Qual(jsonencPkg, "Span")).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
	return jen.Add(plain).Line().Line().Add(with).Line().Line().Add(spans)
}
