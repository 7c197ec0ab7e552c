package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// decodeMethod emits (*T).decodeValue, which fills T from a parsed
// schemacheck.Value by exact member names: no case folding, no duplicate
// members (the parser refuses them), unknown members kept verbatim.
func decodeMethod(t *ir.Type, entry map[*ir.Type]string, use *decodeUse) jen.Code {
	v := jen.Id("v")
	var body []jen.Code
	switch t.Kind {
	case ir.Struct:
		body = structDecode(t, use)
	case ir.Union:
		body = unionDecode(t, entry, use)
	case ir.String, ir.Number, ir.Boolean, ir.Integer:
		body = []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Qual(checkPkg, scalarDecoder[t.Kind]).Call(v),
			jen.Op("*").Id("x").Op("=").Id(t.Name).Call(jen.Id("out")),
			jen.Return(jen.Err()),
		}
	default:
		unnamed := *t
		unnamed.Name = ""
		body = append(valueInto(use, &unnamed, place{expr: jen.Id("out")}, operandOf(v), true), jen.Op("*").Id("x").Op("=").Id(t.Name).Call(jen.Id("out")), jen.Return(jen.Nil()))
		body = append([]jen.Code{jen.Var().Id("out").Add(goType(&unnamed))}, body...)
	}
	method := jen.Commentf("decodeValue fills %s from v, matching member names exactly.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("decodeValue").Params(jen.Id("v").Op("*").Qual(checkPkg, "Value")).Error().Block(body...)
	if t.Kind == ir.Union {
		for _, vr := range t.Variants {
			if entry[vr.Type] == "" {
				method.Line().Line().Add(variantDecoder(t, vr, use))
			}
		}
	}
	return method
}

// variantDecoderName names the function that tries one untagged variant
// without a schema of its own.
func variantDecoderName(t *ir.Type, vr *ir.Variant) string {
	return "decode" + t.Name + vr.GoName
}

// variantDecoder emits that function: the strict decoder for the variant's
// Go type, reporting whether the value fits it.
func variantDecoder(t *ir.Type, vr *ir.Variant, use *decodeUse) jen.Code {
	body := append(valueInto(use, vr.Type, place{expr: jen.Op("*").Id("out"), ptr: jen.Id("out")}, operandOf(jen.Id("v")), false), jen.Return(jen.Nil()))
	return jen.Commentf("%s tries v as the %s variant of %s.", variantDecoderName(t, vr), vr.GoName, t.Name).Line().
		Func().Id(variantDecoderName(t, vr)).Params(jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("out").Op("*").Add(goType(vr.Type))).Error().Block(body...)
}

// strictUnmarshal routes encoding/json through the strict decoder so that
// json.Unmarshal into a generated type matches member names as the schema
// does.
func strictUnmarshal(t *ir.Type) jen.Code {
	return jen.Commentf("UnmarshalJSON decodes strictly (exact names, no duplicates) without validating; see Decode%s.", t.Name).Line().
		Func().Params(jen.Id("x").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		// A pooled document, as Decode uses: a store decoding Locations on
		// every request would otherwise allocate each parse tree anew.
		jen.Id("doc").Op(":=").Qual(checkPkg, "NewDocument").Call(),
		jen.Defer().Id("doc").Dot("Release").Call(),
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("doc").Dot("Parse").Call(jen.Id("data")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		fresh(t),
		jen.Return(jen.Id("x").Dot("decodeValue").Call(jen.Id("v"))),
	)
}

// fresh empties x before a decode that must not refill the lists and maps
// it holds (only DecodeTValueInto does), so that a value unmarshalled over
// another shares nothing with the copies made of it; nil when T holds none.
func fresh(t *ir.Type) jen.Code {
	if !reusesContainers(t) {
		return jen.Null()
	}
	return jen.Op("*").Id("x").Op("=").Id(t.Name).Values()
}

func mismatch(v jen.Code, want string) jen.Code {
	return jen.Return(jen.Qual(checkPkg, "Mismatch").Call(v, jen.Lit(want)))
}

// scalarDecoder names the schemacheck function that reads each basic kind.
var scalarDecoder = map[ir.Kind]string{ir.String: "AsString", ir.Number: "AsNumber", ir.Boolean: "AsBool", ir.Integer: "Int64"}

// decodeUse records whether the decoders call decodeList, so that it is
// emitted only then. (A generic map decoder would move each member's value
// to the heap, as it calls decodeValue through a type parameter; maps are
// decoded in line instead.)
type decodeUse struct{ list bool }

// memberInto decodes the member value m.Value into target with one
// assignment that sets err, which the member loop then returns under the
// member's name; ok is false for the types that need more than that.
func memberInto(t *ir.Type, target place, use *decodeUse) (stmt jen.Code, ok bool) {
	mv := jen.Op("&").Id("m").Dot("Value")
	switch {
	case t.IsNamed():
		return jen.Err().Op("=").Add(target.method("decodeValue", mv)), true
	case scalarDecoder[t.Kind] != "":
		return jen.List(target.expr, jen.Err()).Op("=").Qual(checkPkg, scalarDecoder[t.Kind]).Call(mv), true
	}
	if call := containerCall(t, mv, use, target.reuse); call != nil {
		return jen.List(target.expr, jen.Err()).Op("=").Add(call), true
	}
	return nil, false
}

// containerCall is the call that decodes v when t is a list of a named type
// (decodeList, into the list reuse when it is not nil), a list of strings or
// a list or map of raw JSON, or nil.
func containerCall(t *ir.Type, v jen.Code, use *decodeUse, reuse jen.Code) jen.Code {
	switch {
	case t.Kind == ir.Array && plainElem(t, ir.String):
		return jen.Qual(checkPkg, "AsStrings").Call(v)
	case t.Kind == ir.Array && plainElem(t, ir.Any):
		return jen.Qual(checkPkg, "AsRawItems").Call(v)
	case rawMembers(t):
		return jen.Qual(checkPkg, "AsRawMembers").Call(v)
	case t.Kind == ir.Array && t.Elem.IsNamed():
		use.list = true
		if reuse == nil {
			reuse = jen.Nil()
		}
		return jen.Id("decodeList").Types(jen.Id(t.Elem.Name)).Call(reuse, v)
	}
	return nil
}

// reusable reports whether a struct field of type t is a container its
// decoder can refill in place (a list of a named type, or a map decoded in
// line), so that decoding into a value that held one allocates no other.
func reusable(t *ir.Type) bool {
	if t.IsNamed() {
		return false
	}
	switch t.Kind {
	case ir.Array:
		return t.Elem != nil && t.Elem.IsNamed()
	case ir.Map:
		return !rawMembers(t)
	}
	return false
}

// rawMembers reports whether t is a map of raw JSON by member name, which
// schemacheck.AsRawMembers decodes whole rather than a map decoded in line.
func rawMembers(t *ir.Type) bool {
	return t.Kind == ir.Map && t.Key == nil && plainElem(t, ir.Any)
}

// plainElem reports whether t's elements are of kind k and of no named type.
func plainElem(t *ir.Type, k ir.Kind) bool {
	return t.Elem != nil && t.Elem.Kind == k && !t.Elem.IsNamed()
}

// reusesContainers reports whether any field of the struct t is reusable.
func reusesContainers(t *ir.Type) bool {
	if t.Kind != ir.Struct {
		return false
	}
	for _, f := range t.Fields {
		if reusable(f.Type) {
			return true
		}
	}
	return false
}

// decodeHelpers emits the generic decoders memberInto and valueAt called.
func decodeHelpers(use *decodeUse) []jen.Code {
	var out []jen.Code
	val := func() jen.Code { return jen.Id("v").Op("*").Qual(checkPkg, "Value") }
	if use.list {
		out = append(out, jen.Comment("decodeList decodes an array of T, naming the index of an item that does not fit;").Line().
			Comment("it refills dst when dst is not nil and has room, and otherwise makes the list.").Line().
			Func().Id("decodeList").Types(jen.Id("T").Any(), jen.Id("P").Id("decoder").Types(jen.Id("T"))).Params(jen.Id("dst").Index().Id("T"), val()).Params(jen.Index().Id("T"), jen.Error()).Block(
			jen.If(jen.Id("v").Dot("Kind").Op("!=").Qual(checkPkg, "Array")).Block(jen.Return(jen.Nil(), jen.Qual(checkPkg, "Mismatch").Call(jen.Id("v"), jen.Lit("array")))),
			jen.Var().Id("out").Index().Id("T"),
			jen.If(jen.Id("dst").Op("==").Nil().Op("||").Cap(jen.Id("dst")).Op("<").Len(jen.Id("v").Dot("Items"))).Block(
				jen.Id("out").Op("=").Make(jen.Index().Id("T"), jen.Len(jen.Id("v").Dot("Items"))),
			).Else().Block(
				jen.Id("out").Op("=").Id("dst").Index(jen.Empty(), jen.Len(jen.Id("v").Dot("Items"))),
			),
			jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Items")).Block(
				jen.If(jen.Err().Op(":=").Id("P").Call(jen.Op("&").Id("out").Index(jen.Id("i"))).Dot("decodeValue").Call(jen.Op("&").Id("v").Dot("Items").Index(jen.Id("i"))), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Qual(checkPkg, "At").Call(jen.Err(), jen.Qual("strconv", "Itoa").Call(jen.Id("i")))),
				),
			),
			jen.Return(jen.Id("out"), jen.Nil()),
		))
	}
	return out
}

func structDecode(t *ir.Type, use *decodeUse) []jen.Code {
	var cases, keep []jen.Code
	setsErr := false
	for _, f := range t.Fields {
		field := func() *jen.Statement {
			if f.Required {
				return jen.Id("x").Dot(f.GoName)
			}
			return jen.Id("x").Dot(f.GoName).Dot("V")
		}
		at := place{expr: field()}
		if reusable(f.Type) {
			// Kept across the reset below, to be refilled.
			prev := "prev" + f.GoName
			keep = append(keep, jen.Id(prev).Op(":=").Add(field()))
			at.reuse = jen.Id(prev)
		}
		var stmts []jen.Code
		if stmt, ok := memberInto(f.Type, at, use); ok {
			stmts, setsErr = []jen.Code{stmt}, true
		} else {
			stmts = valueInto(use, f.Type, at, memberValue(), false, jen.Lit(f.JSONName))
		}
		if !f.Required {
			stmts = append(stmts, jen.Id("x").Dot(f.GoName).Dot("Set").Op("=").True())
		}
		cases = append(cases, jen.Case(jen.Lit(f.JSONName)).Block(stmts...))
	}
	var def []jen.Code
	switch {
	case t.Extra != nil:
		def = []jen.Code{jen.Var().Id("e").Add(goType(t.Extra))}
		if stmt, ok := memberInto(t.Extra, place{expr: jen.Id("e")}, use); ok {
			def, setsErr = append(def, stmt), true
		} else {
			def = append(def, valueInto(use, t.Extra, place{expr: jen.Id("e")}, memberValue(), false, jen.Id("m").Dot("Name"))...)
		}
		def = append(def,
			jen.If(jen.Id("x").Dot("Unknown").Op("==").Nil()).Block(jen.Id("x").Dot("Unknown").Op("=").Map(jen.String()).Add(goType(t.Extra)).Values()),
			jen.Id("x").Dot("Unknown").Index(jen.Id("m").Dot("Name")).Op("=").Id("e"))
	case t.KeepUnknown:
		def = []jen.Code{jen.Id("x").Dot("Unknown").Op("=").Qual(checkPkg, "Keep").Call(jen.Id("x").Dot("Unknown"), jen.Id("m"))}
	default:
		def = []jen.Code{jen.Return(jen.Qual(checkPkg, "Unexpected").Call(jen.Id("m").Dot("Name")))}
	}
	cases = append(cases, jen.Default().Block(def...))
	loop := []jen.Code{jen.Id("m").Op(":=").Op("&").Id("v").Dot("Members").Index(jen.Id("i"))}
	if setsErr {
		loop = append(loop, jen.Var().Err().Error())
	}
	loop = append(loop, jen.Switch(jen.Id("m").Dot("Name")).Block(cases...))
	if setsErr {
		loop = append(loop, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(checkPkg, "At").Call(jen.Err(), jen.Id("m").Dot("Name")))))
	}
	body := []jen.Code{jen.If(jen.Id("v").Dot("Kind").Op("!=").Qual(checkPkg, "Object")).Block(mismatch(jen.Id("v"), "object"))}
	body = append(body, keep...)
	return append(body,
		jen.Op("*").Id("x").Op("=").Id(t.Name).Values(),
		jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Members")).Block(loop...),
		jen.Return(jen.Nil()),
	)
}

func unionDecode(t *ir.Type, entry map[*ir.Type]string, use *decodeUse) []jen.Code {
	body := []jen.Code{jen.Op("*").Id("x").Op("=").Id(t.Name).Values()}
	if t.Discriminator != "" {
		var cases []jen.Code
		for _, vr := range t.Variants {
			cases = append(cases, jen.Case(jen.Lit(vr.Tag)).Block(
				append(append([]jen.Code{jen.Id("x").Dot(vr.GoName).Op("=").New(goType(vr.Type))},
					valueInto(use, vr.Type, place{expr: jen.Op("*").Id("x").Dot(vr.GoName), ptr: jen.Id("x").Dot(vr.GoName)}, operandOf(jen.Id("v")), false)...),
					jen.Return(jen.Nil()))...,
			))
		}
		cases = append(cases, jen.Default().Block(jen.Return(jen.Qual(checkPkg, "UnknownTag").Call(jen.Lit(t.Discriminator), jen.Id("tag").Dot("Str")))))
		return append(body,
			jen.If(jen.Id("v").Dot("Kind").Op("!=").Qual(checkPkg, "Object")).Block(mismatch(jen.Id("v"), "object")),
			jen.Id("tag").Op(":=").Id("v").Dot("Get").Call(jen.Lit(t.Discriminator)),
			jen.If(jen.Id("tag").Op("==").Nil().Op("||").Id("tag").Dot("Kind").Op("!=").Qual(checkPkg, "String")).Block(
				jen.Return(jen.Qual(checkPkg, "UnknownTag").Call(jen.Lit(t.Discriminator), jen.Lit(""))),
			),
			jen.Switch(jen.Id("tag").Dot("Str")).Block(cases...),
		)
	}
	for _, vr := range t.Variants {
		decode := append(append([]jen.Code{jen.Id("x").Dot(vr.GoName).Op("=").New(goType(vr.Type))},
			valueInto(use, vr.Type, place{expr: jen.Op("*").Id("x").Dot(vr.GoName), ptr: jen.Id("x").Dot(vr.GoName)}, operandOf(jen.Id("v")), false)...), jen.Return(jen.Nil()))
		if n := entry[vr.Type]; n != "" {
			body = append(body, jen.If(matchCall(n, jen.Id("v"), jen.Nil())).Block(decode...))
			continue
		}
		// Without a schema of its own the variant is tried by decoding.
		body = append(body, jen.Block(
			jen.Var().Id("try").Add(goType(vr.Type)),
			jen.If(jen.Id(variantDecoderName(t, vr)).Call(jen.Id("v"), jen.Op("&").Id("try")).Op("==").Nil()).Block(
				jen.Id("x").Dot(vr.GoName).Op("=").Op("&").Id("try"),
				jen.Return(jen.Nil()),
			),
		))
	}
	return append(body, jen.Return(jen.Qual(checkPkg, "NoVariant").Call(jen.Lit(t.Name))))
}

// place is an addressable Go location that decoded values go into: expr
// reads or assigns it, and ptr, when set, already points at it, so that a
// method call on it needs no &*. reuse, when set, is the container the
// place held before, which a list or map decoder refills.
type place struct{ expr, ptr, reuse jen.Code }

// method calls name on the place with args.
func (p place) method(name string, args ...jen.Code) jen.Code {
	if p.ptr != nil {
		return jen.Add(p.ptr).Dot(name).Call(args...)
	}
	return jen.Add(p.expr).Dot(name).Call(args...)
}

// operand is a *schemacheck.Value expression: ptr passes it on and val
// selects its fields, so generated code reads m.Value.Kind, not (&m.Value).Kind.
type operand struct{ ptr, val jen.Code }

// operandOf is an operand held in a pointer variable such as v.
func operandOf(v jen.Code) operand { return operand{ptr: v, val: v} }

// addrOf is an operand held in an addressable value such as m.Value.
func addrOf(x func() jen.Code) operand { return operand{ptr: jen.Op("&").Add(x()), val: x()} }

// memberValue is the value of the object member m being decoded.
func memberValue() operand { return addrOf(func() jen.Code { return jen.Id("m").Dot("Value") }) }

// valueInto emits statements that decode the *schemacheck.Value v into the
// addressable target of type t; they return an error from the enclosing
// function on a JSON type the Go type cannot hold.
func valueInto(use *decodeUse, t *ir.Type, target place, v operand, unnamedOnly bool, path ...jen.Code) []jen.Code {
	return valueAt(use, t, target, v, unnamedOnly, 0, path)
}

// fail returns err nested under the token path.
func fail(err jen.Code, path []jen.Code) jen.Code {
	if len(path) == 0 {
		return jen.Return(err)
	}
	return jen.Return(jen.Qual(checkPkg, "At").Call(append([]jen.Code{err}, path...)...))
}

func valueAt(use *decodeUse, t *ir.Type, target place, v operand, unnamedOnly bool, depth int, path []jen.Code) []jen.Code {
	idx := fmt.Sprintf("i%d", depth)
	src := fmt.Sprintf("src%d", depth)
	mismatch := func(v jen.Code, want string) jen.Code {
		return fail(jen.Qual(checkPkg, "Mismatch").Call(v, jen.Lit(want)), path)
	}
	if t.IsNamed() && !unnamedOnly {
		return []jen.Code{jen.If(jen.Err().Op(":=").Add(target.method("decodeValue", v.ptr)), jen.Err().Op("!=").Nil()).Block(fail(jen.Err(), path))}
	}
	kind := func(k string) jen.Code {
		return jen.Add(v.val).Dot("Kind").Op("!=").Qual(checkPkg, k)
	}
	switch t.Kind {
	case ir.String:
		return []jen.Code{jen.If(kind("String")).Block(mismatch(v.ptr, "string")), jen.Add(target.expr).Op("=").Add(v.val).Dot("Str")}
	case ir.Number:
		return []jen.Code{jen.If(kind("Number")).Block(mismatch(v.ptr, "number")), jen.Add(target.expr).Op("=").Add(v.val).Dot("Num")}
	case ir.Integer:
		return []jen.Code{jen.Block(
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Qual(checkPkg, "Int64").Call(v.ptr),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err(), path)),
			jen.Add(target.expr).Op("=").Id("n"),
		)}
	case ir.Boolean:
		return []jen.Code{jen.If(kind("Bool")).Block(mismatch(v.ptr, "boolean")), jen.Add(target.expr).Op("=").Add(v.val).Dot("Bool")}
	case ir.Array, ir.Map:
		if call := containerCall(t, v.ptr, use, nil); call != nil {
			out := fmt.Sprintf("out%d", depth)
			return []jen.Code{
				jen.List(jen.Id(out), jen.Err()).Op(":=").Add(call),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err(), path)),
				jen.Add(target.expr).Op("=").Id(out),
			}
		}
	}
	switch t.Kind {
	case ir.Array:
		return []jen.Code{
			jen.If(kind("Array")).Block(mismatch(v.ptr, "array")),
			jen.Block(
				jen.Id(src).Op(":=").Add(v.val).Dot("Items"),
				jen.Id("items"+idx).Op(":=").Make(jen.Index().Add(goType(t.Elem)), jen.Len(jen.Id(src))),
				jen.For(jen.Id(idx).Op(":=").Range().Id(src)).Block(
					valueAt(use, t.Elem, place{expr: jen.Id("items" + idx).Index(jen.Id(idx))}, addrOf(func() jen.Code { return jen.Id(src).Index(jen.Id(idx)) }), false, depth+1, append(append([]jen.Code{}, path...), jen.Qual("strconv", "Itoa").Call(jen.Id(idx))))...,
				),
				jen.Add(target.expr).Op("=").Id("items"+idx),
			),
		}
	case ir.Map:
		mem := "mem" + idx
		var key jen.Code = jen.Id(mem).Dot("Name")
		if t.Key != nil {
			key = goType(t.Key).(*jen.Statement).Clone().Call(jen.Id(mem).Dot("Name"))
		}
		var keyType jen.Code = jen.String()
		if t.Key != nil {
			keyType = goType(t.Key)
		}
		e := "e" + idx
		memPath := append(append([]jen.Code{}, path...), jen.Id(mem).Dot("Name"))
		inner := []jen.Code{jen.Id(mem).Op(":=").Op("&").Id(src).Index(jen.Id(idx))}
		if call := containerCall(t.Elem, jen.Op("&").Id(mem).Dot("Value"), use, nil); call != nil {
			inner = append(inner,
				jen.List(jen.Id(e), jen.Err()).Op(":=").Add(call),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err(), memPath)))
		} else {
			inner = append(inner, jen.Var().Id(e).Add(goType(t.Elem)))
			inner = append(inner, valueAt(use, t.Elem, place{expr: jen.Id(e)}, addrOf(func() jen.Code { return jen.Id(mem).Dot("Value") }), false, depth+1, memPath)...)
		}
		inner = append(inner, jen.Id("out"+idx).Index(key).Op("=").Id(e))
		fresh := jen.Make(jen.Map(keyType).Add(goType(t.Elem)), jen.Len(jen.Id(src)))
		made := []jen.Code{jen.Id("out" + idx).Op(":=").Add(fresh)}
		if target.reuse != nil {
			// The map the value held is emptied and refilled.
			made = []jen.Code{
				jen.Id("out" + idx).Op(":=").Add(target.reuse),
				jen.If(jen.Id("out" + idx).Op("==").Nil()).Block(jen.Id("out" + idx).Op("=").Add(fresh)).Else().Block(jen.Clear(jen.Id("out" + idx))),
			}
		}
		block := append(append([]jen.Code{jen.Id(src).Op(":=").Add(v.val).Dot("Members")}, made...),
			jen.For(jen.Id(idx).Op(":=").Range().Id(src)).Block(inner...),
			jen.Add(target.expr).Op("=").Id("out"+idx))
		return []jen.Code{
			jen.If(kind("Object")).Block(mismatch(v.ptr, "object")),
			jen.Block(block...),
		}
	case ir.Any:
		return []jen.Code{jen.Add(target.expr).Op("=").Qual(jsonPkg, "RawMessage").Call(jen.Add(v.val).Dot("Raw"))}
	}
	// Anonymous structs and unions have no decoder of their own.
	return []jen.Code{jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Index().Byte().Parens(jen.Add(v.val).Dot("Raw")), jen.Op("&").Add(target.expr)), jen.Err().Op("!=").Nil()).Block(fail(jen.Err(), path))}
}
