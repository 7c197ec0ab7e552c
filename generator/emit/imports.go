package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// groupImports rewrites the import declaration of a rendered file the way
// goimports lays it out, so generated files read like hand-written ones:
// standard-library packages first, a blank line, then every other module,
// each group sorted, and no alias that merely repeats the path's last
// element (jennifer names every package it was told the name of).
func groupImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.ImportsOnly)
	if err != nil {
		return nil, fmt.Errorf("group imports: %w", err)
	}
	var decl *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			if decl != nil {
				return src, nil // several import declarations: leave them as written
			}
			decl = g
		}
	}
	if decl == nil {
		return src, nil
	}
	var std, other []string
	for _, s := range decl.Specs {
		spec := s.(*ast.ImportSpec)
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("group imports: path %s: %w", spec.Path.Value, err)
		}
		line := spec.Path.Value
		if spec.Name != nil && spec.Name.Name != path.Base(p) {
			line = spec.Name.Name + " " + line
		}
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	byPath := func(list []string) {
		sort.Slice(list, func(i, j int) bool { return importPath(list[i]) < importPath(list[j]) })
	}
	byPath(std)
	byPath(other)
	var b bytes.Buffer
	if lines := append(append([]string{}, std...), other...); len(lines) == 1 {
		b.WriteString("import " + lines[0])
		return replaceDecl(fset, decl, src, b.Bytes())
	}
	b.WriteString("import (\n")
	for _, l := range std {
		b.WriteString("\t" + l + "\n")
	}
	if len(std) > 0 && len(other) > 0 {
		b.WriteString("\n")
	}
	for _, l := range other {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString(")")
	return replaceDecl(fset, decl, src, b.Bytes())
}

// replaceDecl puts text in place of decl in src and formats the result.
func replaceDecl(fset *token.FileSet, decl *ast.GenDecl, src, text []byte) ([]byte, error) {
	start, end := fset.Position(decl.Pos()).Offset, fset.Position(decl.End()).Offset
	out := append(append(append([]byte{}, src[:start]...), text...), src[end:]...)
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("group imports: %w", err)
	}
	return formatted, nil
}

// importPath is the quoted path of one import line, alias or not.
func importPath(line string) string {
	if i := strings.IndexByte(line, '"'); i >= 0 {
		return line[i:]
	}
	return line
}
