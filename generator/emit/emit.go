package emit

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/templates"
)

// Options name the generated package and say where its input came from.
type Options struct {
	Package string
	// Source is the input path written into headers (slash form, relative).
	Source string
	// Generator and UCPVersion are the ucpgen and UCP versions named in headers.
	Generator, UCPVersion string
}

// errSkipFile tells Files that an emitter has nothing to write for this
// model (e.g. MCP stubs for an OpenRPC file that is not a UCP binding).
var errSkipFile = errors.New("no output for this model")

// output is one generated file: its name and the function that fills it.
// Each emitter file of this package contributes one entry.
type output struct {
	name  string
	build func(f *jen.File, m *ir.Model) error
}

// outputs lists the generated files in a fixed order.
var outputs = []output{
	{"types.go", emitTypes},
	{"validate.go", emitValidators},
	{"binding.go", emitBinding},
	{"encode.go", emitEncoders},
}

// emitTypes writes every named type with its JSON methods.
func emitTypes(f *jen.File, m *ir.Model) error {
	for _, t := range sortedTypes(m) {
		f.Add(typeDecl(t))
		if c := codecMethods(t); c != nil {
			f.Add(c)
		}
	}
	return nil
}

// Files renders every output file of the model, keyed by file name. Output
// is deterministic: the same model always gives the same bytes.
func Files(m *ir.Model, opts Options) (map[string][]byte, error) {
	out := map[string][]byte{}
	add := func(name string, build func(f *jen.File) error) error {
		f, err := newFile(opts, m, name == "types.go")
		if err != nil {
			return err
		}
		if err := build(f); err != nil {
			if errors.Is(err, errSkipFile) {
				return nil
			}
			return fmt.Errorf("emit %s: %w", name, err)
		}
		var b bytes.Buffer
		if err := f.Render(&b); err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		out[name] = b.Bytes()
		return nil
	}
	for _, o := range outputs {
		o := o
		if err := add(o.name, func(f *jen.File) error { return o.build(f, m) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func newFile(opts Options, m *ir.Model, withDoc bool) (*jen.File, error) {
	d := templates.Data{Package: opts.Package, Source: opts.Source, Title: m.Title, Generator: opts.Generator, UCPVersion: opts.UCPVersion}
	header, err := templates.Render("header.tmpl", d)
	if err != nil {
		return nil, err
	}
	f := jen.NewFile(opts.Package)
	f.HeaderComment(header)
	if withDoc {
		doc, err := templates.Render("package.tmpl", d)
		if err != nil {
			return nil, err
		}
		f.PackageComment(doc)
	}
	f.ImportName(optPkg, "opt")
	f.ImportName(jsonobjPkg, "jsonobj")
	return f, nil
}
