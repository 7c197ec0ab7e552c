package emit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
)

const jsonencPkg = "github.com/ucpgen/ucpgen/runtime/jsonenc"

// emitEncoders writes AppendJSON for every named struct and union: one pass
// straight to bytes, with the exact output of json.Marshal, so a response is
// encoded once instead of once per nesting level.
func emitEncoders(f *jen.File, m *ir.Model) error {
	f.ImportName(jsonencPkg, "jsonenc")
	envelopes := map[*ir.Type]bool{}
	for _, tool := range m.Tools {
		if r := tool.Result; r != nil && r.Type != nil && r.Type.Kind == ir.Struct && ucpField(r.Type) != nil {
			envelopes[r.Type] = true
		}
	}
	for _, t := range sortedTypes(m) {
		var code jen.Code
		var err error
		switch t.Kind {
		case ir.Struct:
			code, err = structEncoder(t, envelopes[t], memoOf(m, t))
		case ir.Union:
			code, err = unionEncoder(t)
		default:
			continue
		}
		if err != nil {
			return fmt.Errorf("encoder for %s: %w", t.Name, err)
		}
		f.Add(code).Line()
	}
	return nil
}

// encoderFunc declares AppendJSON on *name around body, which ends in a
// return.
func encoderFunc(name, doc string, body []jen.Code) jen.Code {
	return jen.Comment(doc).Line().
		Func().Params(jen.Id("x").Op("*").Id(name)).Id("AppendJSON").
		Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// wrapErr returns the error of the value just written, naming where it sits.
func wrapErr(where string) jen.Code {
	return jen.If(jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Id("b"), jen.Qual("fmt", "Errorf").Call(jen.Lit(where+": %w"), jen.Err())),
	)
}

// ucpField is the required ucp member of a tool result, which the runtime
// fills from negotiation, or nil.
func ucpField(t *ir.Type) *ir.Field {
	for _, f := range t.Fields {
		if f.JSONName == "ucp" && f.Required {
			return f
		}
	}
	return nil
}

// structEncoder writes AppendJSON; for a tool result (envelope) it also
// writes AppendJSONWithUCP, so the runtime can put the negotiated ucp member
// in while encoding instead of re-parsing the encoded response, and for an
// envelope with a memo (memo.go), AppendJSONSpans.
func structEncoder(t *ir.Type, envelope bool, memo *ir.Field) (jen.Code, error) {
	if !envelope {
		memo = nil
	}
	fails := t.KeepUnknown || t.Extra != nil && mayFail(t.Extra)
	for _, f := range t.Fields {
		fails = fails || mayFail(f.Type)
	}
	var body []jen.Code
	if fails {
		body = append(body, jen.Var().Err().Error())
	}
	body = append(body, jen.List(jen.Id("b"), jen.Id("obj")).Op(":=").Qual(jsonencPkg, "Open").Call(jen.Id("b")))
	for _, f := range t.Fields {
		key := jen.Id("b").Op("=").Qual(jsonencPkg, "Key").Call(jen.Id("b"), quotedName(f.JSONName))
		if f.Required {
			v, err := appendValue(f.Type, jen.Id("x").Dot(f.GoName), true, f.JSONName, true, 0)
			if f == memo {
				v, err = memoArray(f)
			}
			if err != nil {
				return nil, err
			}
			if envelope && f == ucpField(t) {
				v = []jen.Code{jen.If(jen.Id("ucp").Op("!=").Nil()).Block(
					jen.Id("b").Op("=").Append(jen.Id("b"), jen.Id("ucp").Op("...")),
				).Else().Block(v...)}
			}
			body = append(body, key)
			body = append(body, v...)
			continue
		}
		v, err := appendValue(f.Type, jen.Id("x").Dot(f.GoName).Dot("V"), true, f.JSONName, false, 0)
		if err != nil {
			return nil, err
		}
		body = append(body, jen.If(jen.Id("x").Dot(f.GoName).Dot("Set")).Block(append([]jen.Code{key}, v...)...))
	}
	switch {
	case t.Extra != nil:
		v, err := appendValue(t.Extra, jen.Id("x").Dot("Unknown").Index(jen.Id("k")), false, "additional member", false, 1)
		if err != nil {
			return nil, err
		}
		loop := []jen.Code{
			jen.If(jen.Id(knownName(t)).Call(jen.Id("k"))).Block(
				jen.Return(jen.Id("b"), jen.Qual("fmt", "Errorf").Call(jen.Lit("unknown member %q duplicates a typed field"), jen.Id("k"))),
			),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')),
			jen.Id("b").Op("=").Qual(jsonencPkg, "AppendString").Call(jen.Id("b"), jen.Id("k")),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
		}
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(sortedUnknown("x"))).Block(append(loop, v...)...))
	case t.KeepUnknown:
		body = append(body,
			jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(jsonencPkg, "AppendMembers").Call(jen.Id("b"), jen.Id("x").Dot("Unknown"), jen.Id(knownName(t))),
			wrapErr("unknown members"),
		)
	}
	// Every error returned where it arose, so none is left to return here.
	body = append(body, jen.Return(jen.Id("obj").Dot("Close").Call(jen.Id("b")), jen.Nil()))
	doc := fmt.Sprintf("AppendJSON appends the JSON of %s to b, byte for byte what json.Marshal writes, in one pass.", t.Name)
	if !envelope {
		return encoderFunc(t.Name, doc, body), nil
	}
	if memo != nil {
		return memoEncoders(t, doc, body), nil
	}
	plain := encoderFunc(t.Name, doc, []jen.Code{jen.Return(jen.Id("x").Dot("AppendJSONWithUCP").Call(jen.Id("b"), jen.Nil()))})
	with := jen.Commentf("AppendJSONWithUCP is AppendJSON with ucp, already encoded, written as the ucp member in place of x.UCP (nil keeps x.UCP).").Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("AppendJSONWithUCP").
		Params(jen.Id("b"), jen.Id("ucp").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
	return jen.Add(plain).Line().Line().Add(with), nil
}

func unionEncoder(t *ir.Type) (jen.Code, error) {
	var body []jen.Code
	for _, v := range t.Variants {
		if mayFail(v.Type) {
			body = append(body, jen.Var().Err().Error())
			break
		}
	}
	body = append(body, jen.Id("n").Op(":=").Lit(0))
	for _, v := range t.Variants {
		body = append(body, jen.If(jen.Id("x").Dot(v.GoName).Op("!=").Nil()).Block(jen.Id("n").Op("++")))
	}
	body = append(body, jen.If(jen.Id("n").Op("!=").Lit(1)).Block(
		jen.Return(jen.Id("b"), jen.Qual("fmt", "Errorf").Call(jen.Lit(t.Name+": exactly one variant must be set, got %d"), jen.Id("n"))),
	))
	var cases []jen.Code
	for _, v := range t.Variants {
		where := "variant " + v.GoName
		// A struct or union calls AppendJSON through the pointer itself; a
		// list or map is read through a local, which indexes without parentheses.
		var at *jen.Statement
		var bind []jen.Code
		switch v.Type.Kind {
		case ir.Struct, ir.Union:
			at = jen.Id("x").Dot(v.GoName)
		case ir.Array, ir.Map:
			bind = []jen.Code{jen.Id("v").Op(":=").Op("*").Id("x").Dot(v.GoName)}
			at = jen.Id("v")
		default:
			at = jen.Op("*").Id("x").Dot(v.GoName)
		}
		val, err := appendValue(v.Type, at, true, where, false, 0)
		if err != nil {
			return nil, err
		}
		val = append(bind, val...)
		cases = append(cases, jen.Case(jen.Id("x").Dot(v.GoName).Op("!=").Nil()).Block(val...))
	}
	body = append(body, jen.Switch().Block(cases...), jen.Return(jen.Id("b"), jen.Nil()))
	doc := fmt.Sprintf("AppendJSON appends the JSON of the one variant of %s that is set, as json.Marshal writes it.", t.Name)
	return encoderFunc(t.Name, doc, body), nil
}

// appendValue returns statements that append v, an expression of t's Go
// type, to b. addressable says whether methods with pointer receivers can
// be called on v directly; required turns a nil list or map into [] or {}
// instead of null, as the MarshalJSON methods do; depth names loop
// variables uniquely in nested containers.
func appendValue(t *ir.Type, v *jen.Statement, addressable bool, where string, required bool, depth int) ([]jen.Code, error) {
	b := jen.Id("b")
	switch t.Kind {
	case ir.Struct, ir.Union:
		if !t.IsNamed() {
			return nil, fmt.Errorf("%s: anonymous %s has no encoder", where, typeLabel(t))
		}
		if addressable {
			return []jen.Code{jen.List(b, jen.Err()).Op("=").Add(v).Dot("AppendJSON").Call(b), wrapErr(where)}, nil
		}
		tmp := fmt.Sprintf("v%d", depth)
		return []jen.Code{jen.Block(
			jen.Id(tmp).Op(":=").Add(v),
			jen.List(b, jen.Err()).Op("=").Id(tmp).Dot("AppendJSON").Call(b),
			wrapErr(where),
		)}, nil
	case ir.String:
		return []jen.Code{b.Clone().Op("=").Qual(jsonencPkg, "AppendString").Call(jen.Id("b"), asBasic(t, jen.String(), v))}, nil
	case ir.Integer:
		return []jen.Code{jen.Id("b").Op("=").Qual(jsonencPkg, "AppendInt").Call(jen.Id("b"), asBasic(t, jen.Int64(), v))}, nil
	case ir.Boolean:
		return []jen.Code{jen.Id("b").Op("=").Qual(jsonencPkg, "AppendBool").Call(jen.Id("b"), asBasic(t, jen.Bool(), v))}, nil
	case ir.Number:
		return []jen.Code{
			jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(jsonencPkg, "AppendFloat").Call(jen.Id("b"), asBasic(t, jen.Float64(), v)),
			wrapErr(where),
		}, nil
	case ir.Any:
		return []jen.Code{
			jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(jsonencPkg, "AppendRaw").Call(jen.Id("b"), asBasic(t, jen.Qual(jsonPkg, "RawMessage"), v)),
			wrapErr(where),
		}, nil
	case ir.Array:
		i := fmt.Sprintf("i%d", depth)
		elem, err := appendValue(t.Elem, v.Clone().Index(jen.Id(i)), true, where, false, depth+1)
		if err != nil {
			return nil, err
		}
		loop := append([]jen.Code{jen.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')))}, elem...)
		return nilOr(v, required, "[]", []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
			jen.For(jen.Id(i).Op(":=").Range().Add(v)).Block(loop...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(']')),
		}), nil
	case ir.Map:
		j, k := fmt.Sprintf("j%d", depth), fmt.Sprintf("k%d", depth)
		var key jen.Code = jen.String()
		if t.Key != nil {
			key = goType(t.Key)
		}
		elem, err := appendValue(t.Elem, v.Clone().Index(jen.Id(k)), false, where, false, depth+1)
		if err != nil {
			return nil, err
		}
		loop := append([]jen.Code{
			jen.If(jen.Id(j).Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
			jen.Id("b").Op("=").Qual(jsonencPkg, "AppendString").Call(jen.Id("b"), keyString(t.Key, jen.Id(k))),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
		}, elem...)
		return nilOr(v, required, "{}", []jen.Code{
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')),
			// The keys go to a buffer on the stack when they fit in it.
			jen.For(jen.List(jen.Id(j), jen.Id(k)).Op(":=").Range().Qual(jsonencPkg, "SortedKeys").Call(v, jen.Make(jen.Index().Add(key), jen.Lit(0), jen.Lit(sortedKeysRoom)))).Block(loop...),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}')),
		}), nil
	}
	return nil, fmt.Errorf("%s: no encoder for kind %d", where, t.Kind)
}

// asBasic converts v, an expression of t's Go type, to the basic type the
// jsonenc function takes; only a named type needs the conversion.
func asBasic(t *ir.Type, basic *jen.Statement, v *jen.Statement) jen.Code {
	if t.IsNamed() {
		return basic.Call(v)
	}
	return v
}

// keyString is the map key k as a string: the key type, when the schema
// names one, is a named string type.
func keyString(key *ir.Type, k *jen.Statement) jen.Code {
	if key == nil {
		return k
	}
	return asBasic(key, jen.String(), k)
}

// mayFail reports whether appending a value of type t can return an error:
// nested encoders, floats (NaN and infinities) and raw JSON can.
func mayFail(t *ir.Type) bool {
	switch t.Kind {
	case ir.Struct, ir.Union, ir.Number, ir.Any:
		return true
	case ir.Array, ir.Map:
		return mayFail(t.Elem)
	}
	return false
}

// sortedKeysRoom is how many keys of a map the generated encoder sorts on
// the stack; a larger map allocates its key list.
const sortedKeysRoom = 16

// sortedUnknown is the names of recv's unknown members in order, sorted in
// a buffer on the stack as the generated map encoders do; an empty map (the
// common case on every request) costs nothing.
func sortedUnknown(recv string) jen.Code {
	return jen.Qual(jsonencPkg, "SortedKeys").Call(jen.Id(recv).Dot("Unknown"), jen.Make(jen.Index().String(), jen.Lit(0), jen.Lit(sortedKeysRoom)))
}

// nilOr writes null (or empty, for a required member) when the list or map
// v is nil, else runs body.
func nilOr(v *jen.Statement, required bool, empty string, body []jen.Code) []jen.Code {
	none := "null"
	if required {
		none = empty
	}
	return []jen.Code{jen.If(v.Clone().Op("==").Nil()).Block(
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(none).Op("...")),
	).Else().Block(body...)}
}

// quotedName is the member name as a JSON string literal in Go source: a raw
// string where that reads well, an escaped one otherwise.
func quotedName(name string) jen.Code {
	q := string(jsonenc.AppendString(nil, name))
	if strings.ContainsAny(q, "`\\") || !utf8.ValidString(q) {
		return jen.Lit(q)
	}
	return jen.Op("`" + q + "`")
}
