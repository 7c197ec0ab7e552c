package emit

import (
	"fmt"
	"go/token"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits what each MCP tool knows of its arguments: the parameter
// list the runtime reads, the Bind function that decodes them in method
// order, and the Go names and types the Hooks methods take them as.

// metaParam is the argument the UCP MCP binding defines for request
// metadata on every tool (ucpcore.MetaParam).
const metaParam = "meta"

// isMCPService reports whether m's methods are MCP tools of the UCP
// binding: each takes a required meta and returns a result. A service none
// of whose methods takes meta is of another transport (the embedded
// protocols) and gets no tools; one that mixes the two shapes is refused,
// naming the method, rather than half served.
func isMCPService(m *ir.Model) (bool, error) {
	withMeta := 0
	for _, t := range m.Tools {
		for _, p := range t.Params {
			if p.Name == metaParam {
				withMeta++
				break
			}
		}
	}
	if withMeta == 0 {
		return false, nil
	}
	for i, t := range m.Tools {
		var meta *ir.Param
		for _, p := range t.Params {
			if p.Name == metaParam {
				meta = p
			}
		}
		switch {
		case meta == nil:
			return false, fmt.Errorf("methods/%d (%s): has no %s param, which every other MCP tool of the service takes", i, t.Name, metaParam)
		case !meta.Required:
			return false, fmt.Errorf("methods/%d (%s): param %s must be required (it carries ucp-agent.profile)", i, t.Name, metaParam)
		case t.Result == nil:
			return false, fmt.Errorf("methods/%d (%s): an MCP tool needs a result", i, t.Name)
		}
	}
	return true, nil
}

// reservedArgs are the identifiers the generated Bind and Hooks methods use
// besides the arguments, which an argument's Go name must not shadow.
var reservedArgs = map[string]bool{"ctx": true, "args": true, "hooks": true, "err": true, "resp": true, "v": true}

// argIdents are the Go identifiers of t's arguments, in param order:
// lowerCamel forms of the param names (meta, id, ucpAgent), made unique and
// kept clear of Go keywords and the generated code's own names.
func argIdents(t *ir.Tool) []string {
	used := map[string]bool{}
	out := make([]string, len(t.Params))
	for i, p := range t.Params {
		name := lowerCamel(p.Name)
		if token.IsKeyword(name) || reservedArgs[name] || strings.HasSuffix(name, "Err") {
			name += "Arg"
		}
		for base, n := name, 2; used[name] || used[name+"Err"]; n++ {
			name = fmt.Sprintf("%s%d", base, n)
		}
		used[name], used[name+"Err"] = true, true
		out[i] = name
	}
	return out
}

// lowerCamel turns a param name into a Go identifier: its words joined,
// the first all lower case and the rest capitalised.
func lowerCamel(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(strings.ToLower(w))
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	name := b.String()
	if name == "" || unicode.IsDigit([]rune(name)[0]) {
		name = "arg" + name
	}
	return name
}

// argType is the Go type a Hooks method takes an argument as: a pointer to
// a declared type, an unnamed type (a plain string) by value when the call
// must carry it, and a pointer to one otherwise, so absence is nil.
func argType(p *ir.Param) jen.Code {
	if p.Type.IsNamed() || !p.Required {
		return jen.Op("*").Add(goType(p.Type))
	}
	return goType(p.Type)
}

// argDecoderName is the generated decoder of an argument whose type has no
// declaration of its own (see argumentDecoder).
func argDecoderName(t *ir.Tool, p *ir.Param) string {
	return "decode" + ir.GoName(t.Name) + ir.GoName(p.Name) + "Argument"
}

// argDecode is the call that decodes argument i of t from args[i].
func argDecode(t *ir.Tool, p *ir.Param, i int) jen.Code {
	return jen.Id(paramDecoder(t, p)).Call(jen.Id("args").Index(jen.Lit(i)))
}

// paramList is the tool's parameter list for the runtime.
func paramList(t *ir.Tool) jen.Code {
	var ps []jen.Code
	for _, p := range t.Params {
		ps = append(ps, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(p.Name), jen.Id("Required"): jen.Lit(p.Required)}))
	}
	return jen.Index().Qual(ucpcorePkg, "Param").Values(ps...)
}

// bindFunc is the tool's Bind: it decodes every argument before reporting
// any, so that one -32602 lists the violations of all of them under their
// pointers, and returns the hook call.
func bindFunc(t *ir.Tool) jen.Code {
	ids := argIdents(t)
	var body, errs []jen.Code
	names := make([]jen.Code, len(t.Params))
	for i, p := range t.Params {
		id, idErr := jen.Id(ids[i]), jen.Id(ids[i]+"Err")
		names[i] = jen.Lit(p.Name)
		errs = append(errs, idErr)
		switch {
		case p.Required:
			body = append(body, jen.List(id, idErr).Op(":=").Add(argDecode(t, p, i)))
		case p.Type.IsNamed():
			body = append(body,
				jen.Var().Add(id).Add(argType(p)),
				jen.Var().Add(idErr).Error(),
				jen.If(jen.Id("args").Index(jen.Lit(i)).Op("!=").Nil()).Block(
					jen.List(id, idErr).Op("=").Add(argDecode(t, p, i)),
				))
		default:
			body = append(body,
				jen.Var().Add(id).Add(argType(p)),
				jen.Var().Add(idErr).Error(),
				jen.If(jen.Id("args").Index(jen.Lit(i)).Op("!=").Nil()).Block(
					jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(argDecode(t, p, i)),
					jen.List(id, idErr).Op("=").List(jen.Op("&").Id("v"), jen.Err()),
				))
		}
	}
	call := []jen.Code{jen.Id("ctx")}
	for _, id := range ids {
		call = append(call, jen.Id(id))
	}
	body = append(body,
		jen.If(jen.Err().Op(":=").Qual(ucpcorePkg, "ArgumentErrors").Call(append([]jen.Code{jen.Index().String().Values(names...)}, errs...)...), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Params(jen.Any(), jen.Error()).Block(
			jen.List(jen.Id("resp"), jen.Err()).Op(":=").Id("hooks").Dot(hookName(t)).Call(call...),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.If(jen.Id("resp").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(t.Name+" hook returned neither a response nor an error")))),
			jen.Return(jen.Id("resp"), jen.Nil()),
		), jen.Nil()),
	)
	return jen.Func().Params(jen.Id("args").Index().Qual(jsonPkg, "RawMessage")).Params(jen.Qual(ucpcorePkg, "Run"), jen.Error()).Block(body...)
}
