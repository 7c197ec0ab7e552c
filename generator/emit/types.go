// Package emit turns the intermediate model into Go source with jennifer.
// Each file of output has its own emitter file here; every function returns
// jen.Code so the pieces stay small and testable.
package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

const (
	optPkg     = "github.com/ucpgen/ucpgen/runtime/opt"
	jsonobjPkg = "github.com/ucpgen/ucpgen/runtime/jsonobj"
	jsonPkg    = "encoding/json"
)

// goType is the Go type expression of a model type.
func goType(t *ir.Type) jen.Code {
	if t.IsNamed() {
		return jen.Id(t.Name)
	}
	switch t.Kind {
	case ir.Array:
		return jen.Index().Add(goType(t.Elem))
	case ir.Map:
		var key jen.Code = jen.String()
		if t.Key != nil {
			key = goType(t.Key)
		}
		return jen.Map(key).Add(goType(t.Elem))
	case ir.String:
		return jen.String()
	case ir.Number:
		return jen.Float64()
	case ir.Integer:
		return jen.Int64()
	case ir.Boolean:
		return jen.Bool()
	default:
		return jen.Qual(jsonPkg, "RawMessage")
	}
}

// fieldType wraps optional members in opt.Value so absence survives.
func fieldType(f *ir.Field) jen.Code {
	if f.Required {
		return goType(f.Type)
	}
	return jen.Qual(optPkg, "Value").Types(goType(f.Type))
}

func fieldTag(f *ir.Field) map[string]string {
	if f.Required {
		return map[string]string{"json": f.JSONName}
	}
	return map[string]string{"json": f.JSONName + ",omitzero"}
}

// typeDecl declares one named type with its doc comment and, for enums,
// its constants; memo, when not nil, is the member whose elements carry a
// memo (see memo.go).
func typeDecl(t *ir.Type, memo *ir.Field) jen.Code {
	g := jen.Add(docComment(t.Name, t.Doc, t.Loc.String())).Line()
	switch t.Kind {
	case ir.Struct:
		fields := structFields(t)
		if memo != nil {
			fields = append(fields, memoField(memo)...)
		}
		g.Type().Id(t.Name).Struct(fields...)
	case ir.Union:
		g.Type().Id(t.Name).Struct(unionFields(t)...)
	case ir.String:
		g.Type().Id(t.Name).String()
		if len(t.Enum) > 0 {
			g.Line().Line().Add(enumConsts(t))
		}
	case ir.Array:
		g.Type().Id(t.Name).Index().Add(goType(t.Elem))
	case ir.Map:
		unnamed := *t
		unnamed.Name = ""
		g.Type().Id(t.Name).Add(goType(&unnamed))
	case ir.Number:
		g.Type().Id(t.Name).Float64()
	case ir.Integer:
		g.Type().Id(t.Name).Int64()
	case ir.Boolean:
		g.Type().Id(t.Name).Bool()
	default:
		g.Type().Id(t.Name).Qual(jsonPkg, "RawMessage")
	}
	return g
}

func structFields(t *ir.Type) []jen.Code {
	var out []jen.Code
	for i, f := range t.Fields {
		if i > 0 {
			out = append(out, jen.Line())
		}
		if f.Doc != "" {
			out = append(out, lineComments(wrap(f.Doc, docWidth-4)))
		}
		out = append(out, jen.Id(f.GoName).Add(fieldType(f)).Tag(fieldTag(f)))
	}
	switch {
	case t.Extra != nil:
		out = append(out, jen.Line(), jen.Comment("Unknown holds members not listed in the schema, typed by its additionalProperties."),
			jen.Id("Unknown").Map(jen.String()).Add(goType(t.Extra)).Tag(map[string]string{"json": "-"}))
	case t.KeepUnknown:
		out = append(out, jen.Line(), jen.Comment("Unknown holds members the schema does not list; they are kept on decode and written back on encode."),
			jen.Id("Unknown").Map(jen.String()).Qual(jsonPkg, "RawMessage").Tag(map[string]string{"json": "-"}))
	}
	return out
}

func unionFields(t *ir.Type) []jen.Code {
	var out []jen.Code
	for _, v := range t.Variants {
		doc := fmt.Sprintf("%s is set when the value is %s.", v.GoName, withArticle(typeLabel(v.Type)))
		if v.Tag != "" {
			doc = fmt.Sprintf("%s is set when %s is %q.", v.GoName, t.Discriminator, v.Tag)
		}
		out = append(out, jen.Comment(doc), jen.Id(v.GoName).Op("*").Add(goType(v.Type)))
	}
	return out
}

func typeLabel(t *ir.Type) string {
	if t.IsNamed() {
		return t.Name
	}
	return []string{"object", "map", "array", "string", "number", "integer", "boolean", "JSON value", "union"}[t.Kind]
}

func enumConsts(t *ir.Type) jen.Code {
	var defs []jen.Code
	for _, e := range t.Enum {
		defs = append(defs, jen.Id(t.Name+ir.GoName(e)).Id(t.Name).Op("=").Lit(e))
	}
	return jen.Commentf("Values of %s.", t.Name).Line().Const().Defs(defs...)
}

// docComment renders a type's description under a first line that names
// the type and the schema it came from.
func docComment(name, doc, source string) jen.Code {
	text := fmt.Sprintf("%s is generated from %s.", name, source)
	if doc != "" {
		text += "\n\n" + wrap(doc, docWidth)
	}
	return lineComments(text)
}

// lineComments renders text as // comment lines (jennifer would use a
// block comment for multi-line text).
func lineComments(text string) jen.Code {
	g := jen.Null()
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			g.Line()
		}
		if l == "" {
			g.Comment("")
			continue
		}
		g.Comment(l)
	}
	return g
}

// wrap breaks text into lines of at most width runes at spaces.
func wrap(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		words := strings.Fields(para)
		line := ""
		for _, w := range words {
			// A word wider than a whole line overflows wherever it goes, and
			// a line of one word would be a stub: both stay where they are.
			if line != "" && len([]rune(line))+1+len([]rune(w)) > width && len([]rune(w)) <= width && strings.Contains(line, " ") {
				out = append(out, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}

// sortedTypes returns the model's named types in name order.
func sortedTypes(m *ir.Model) []*ir.Type {
	out := append([]*ir.Type{}, m.Types...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// docWidth is the width, in runes after the "// " marker, that generated doc
// comments wrap at, so that they read in a 100-column editor.
const docWidth = 97

// wrapComments rewraps every // comment line of rendered Go source that is
// wider than 100 columns (a tab counting 4), keeping its indentation, so
// that no generated doc needs a wide editor. Directives (//go:...) and words
// longer than a line are left whole.
func wrapComments(src []byte) []byte {
	const limit = 100
	lines := strings.Split(string(src), "\n")
	var out []string
	for _, l := range lines {
		indent := l[:len(l)-len(strings.TrimLeft(l, "\t"))]
		text, isComment := strings.CutPrefix(l[len(indent):], "// ")
		width := len([]rune(l)) + 3*len(indent)
		if !isComment || width <= limit {
			out = append(out, l)
			continue
		}
		for _, w := range strings.Split(wrap(text, limit-3-4*len(indent)), "\n") {
			out = append(out, indent+"// "+w)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// withArticle puts "a" or "an" before a Go type or JSON type name by how it
// is spoken: an Amenity, an array, a UCPResponse (initialisms starting with
// U are read "you"), an Unknown.
func withArticle(name string) string {
	if name == "" {
		return name
	}
	lower := strings.ToLower(name)
	an := strings.ContainsRune("aeio", rune(lower[0]))
	if lower[0] == 'u' && len(name) > 1 {
		// "Un..." reads as a vowel (an Unknown), "Uni"/"Usu" and initialisms
		// (UCP, URL) as "you".
		an = name[1] >= 'a' && name[1] <= 'z' && !strings.HasPrefix(lower, "uni") && !strings.HasPrefix(lower, "us")
	}
	if an {
		return "an " + name
	}
	return "a " + name
}
