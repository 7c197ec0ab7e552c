// Package servicenames holds the test that keeps runtime packages free of
// any one UCP service's member names, so each package that must serve any
// service checks itself with the same rule.
package servicenames

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Check reads the non-test Go files of the current directory (a test's
// package folder) and fails on any string literal (struct tags included)
// naming a Location member, or naming meta anywhere but in MetaParam: every
// other argument name must come from the Params of generated tools, so the
// runtime serves any UCP service.
func Check(t *testing.T) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		var allowed *ast.BasicLit
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "MetaParam" && len(vs.Values) == 1 {
				allowed, _ = vs.Values[0].(*ast.BasicLit)
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			value, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
			}
			for _, word := range strings.FieldsFunc(value, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
				switch {
				case strings.Contains(strings.ToLower(word), "location"):
					t.Errorf("%s: literal %s names a Location member", fset.Position(lit.Pos()), lit.Value)
				case word == "meta" && lit != allowed:
					t.Errorf("%s: literal %s names meta; use MetaParam", fset.Position(lit.Pos()), lit.Value)
				}
			}
			return true
		})
	}
}
