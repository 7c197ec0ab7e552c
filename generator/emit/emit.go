package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/templates"
)

// Options name the generated package and say where its input came from.
type Options struct {
	Package string
	// Source is the input path written into headers (slash form, relative).
	Source string
	// Generator and UCPVersion are the ucpgen and UCP versions named in
	// headers; VersionFrom says where UCPVersion was read.
	Generator, UCPVersion, VersionFrom string
	// ServeFrom, when set, adds convert.go: this package served from the
	// newer package it names (see emitConversion).
	ServeFrom *ServeFrom
}

// errSkipFile tells Files that an emitter has nothing to write for this
// model (e.g. MCP stubs for an OpenRPC file that is not a UCP binding).
var errSkipFile = errors.New("no output for this model")

// output is one generated file: its name and the function that fills it.
type output struct {
	name  string
	build func(f *jen.File, m *ir.Model) error
}

// outputs lists every generated file and its emitter, in the order they are
// built; an emitter returns errSkipFile when the model has nothing for it.
// convert.go, which needs the package served from, is added by Files.
var outputs = []output{
	{"types.go", emitTypes},
	{"validate.go", emitValidators},
	{"binding.go", emitBinding},
	{"encode.go", emitEncoders},
	{"mcp.go", emitMCP},
	{"methods.go", emitMethods},
	{"rest.go", emitREST},
	{"service.go", emitService},
	{"client.go", emitClient},
}

// emitTypes writes every named type with its JSON methods.
func emitTypes(f *jen.File, m *ir.Model) error {
	for _, t := range sortedTypes(m) {
		f.Add(typeDecl(t, memoOf(m, t)))
		if c := codecMethods(t); c != nil {
			f.Add(c)
		}
	}
	return nil
}

// CheckPackage rejects a package name the generated files could not be
// compiled under: it must be a Go identifier, not a keyword, and not the
// blank identifier.
func CheckPackage(name string) error {
	switch {
	case name == "":
		return errors.New("package name is empty")
	case !token.IsIdentifier(name):
		return fmt.Errorf("package name %q is not a Go identifier", name)
	case name == "_":
		return errors.New("package name must not be the blank identifier _")
	}
	return nil
}

// Files renders every output file of the model, keyed by file name. Output
// is deterministic: the same model always gives the same bytes.
func Files(m *ir.Model, opts Options) (map[string][]byte, error) {
	if err := CheckPackage(opts.Package); err != nil {
		return nil, err
	}
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
		src, err := groupImports(b.Bytes())
		if err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		out[name] = wrapComments(src)
		return nil
	}
	for _, o := range outputs {
		o := o
		if err := add(o.name, func(f *jen.File) error { return o.build(f, m) }); err != nil {
			return nil, err
		}
	}
	if opts.ServeFrom != nil {
		if err := add("convert.go", func(f *jen.File) error { return emitConversion(f, m, opts.ServeFrom) }); err != nil {
			return nil, err
		}
	}
	// mcp.go embeds the tools' schema files.
	if _, ok := out["mcp.go"]; ok {
		schemaFiles, err := ToolSchemas(m, true)
		if err != nil {
			return nil, err
		}
		for name, data := range schemaFiles {
			out[name] = data
		}
	}
	return out, nil
}

func newFile(opts Options, m *ir.Model, withDoc bool) (*jen.File, error) {
	d := templates.Data{Package: opts.Package, Source: opts.Source, Title: m.Title, Generator: opts.Generator, UCPVersion: opts.UCPVersion, VersionFrom: opts.VersionFrom}
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
