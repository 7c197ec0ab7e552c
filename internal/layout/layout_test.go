package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/internal/version"
)

// libraryPatterns are the packages of the library: everything but the
// examples.
var libraryPatterns = []string{"./cmd/...", "./generator/...", "./generated/...", "./runtime/...", "./internal/..."}

// TestLibraryImportsNothingUnderExamples lists the dependencies of every
// library package and of its tests, and requires none of them to live
// under examples/: the examples import the library, never the reverse.
func TestLibraryImportsNothingUnderExamples(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testshared.Missing(t, "the go command is not on PATH")
	}
	out := testshared.GoOutput(t, goBin, testshared.RepoRoot(t), nil, append([]string{"list", "-deps", "-test", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}, libraryPatterns...)...)
	examples := version.ModulePath + "/examples/"
	var bad []string
	listed := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		listed++
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, examples) {
				bad = append(bad, f[0]+" imports "+imp)
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	if listed < 100 {
		t.Fatalf("go list named %d packages; the patterns %v matched too little to prove anything", listed, libraryPatterns)
	}
}

// openAPIReaders are the packages that may import libopenapi: the
// generator's reader of REST bindings, and the tests' checker of REST
// exchanges.
var openAPIReaders = []string{
	version.ModulePath + "/generator/load/internal/openapidoc",
	version.ModulePath + "/internal/openapicheck",
}

// TestOnlyTheOpenAPIReadersImportLibOpenAPI requires every package of the
// module but openAPIReaders, tests included, to leave libopenapi alone. Its
// model is made of generic ordered maps: a package whose API shows them
// makes each importer compile their methods again, which had made every
// generator package, and the biggest test packages, take seconds to
// compile.
func TestOnlyTheOpenAPIReadersImportLibOpenAPI(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testshared.Missing(t, "the go command is not on PATH")
	}
	out := testshared.GoOutput(t, goBin, testshared.RepoRoot(t), nil, "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}", "./...")
	var bad []string
	readers := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, "github.com/pb33f/libopenapi") {
				continue
			}
			if slices.Contains(openAPIReaders, f[0]) {
				readers[f[0]] = true
			} else {
				bad = append(bad, f[0]+" imports "+imp)
			}
		}
	}
	sort.Strings(bad)
	for _, b := range slices.Compact(bad) {
		t.Error(b)
	}
	for _, r := range openAPIReaders {
		if !readers[r] {
			t.Errorf("%s does not import libopenapi: the rule guards nothing there (moved?)", r)
		}
	}
}

// TestRaceExemptPackagesRunOnOneGoroutine holds .ci/race-exempt, the
// packages the race pass leaves out, to the two rules that make leaving
// them out safe: no go statement in their own (non-test) code, and no
// package outside the list imports them, so no concurrent code runs
// theirs.
func TestRaceExemptPackagesRunOnOneGoroutine(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testshared.Missing(t, "the go command is not on PATH")
	}
	root := testshared.RepoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, ".ci", "race-exempt"))
	if err != nil {
		t.Fatal(err)
	}
	exempt := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			exempt[line] = true
		}
	}
	if len(exempt) == 0 {
		t.Fatal(".ci/race-exempt lists no package")
	}
	out := testshared.GoOutput(t, goBin, root, nil, "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}", "./...")
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("go list line %q", line)
		}
		pkg, dir, files, imports := f[0], f[1], strings.Fields(f[2]), strings.Fields(f[3])
		listed[pkg] = true
		if !exempt[pkg] {
			for _, imp := range imports {
				if exempt[imp] {
					t.Errorf("%s imports %s, which the race pass leaves out: remove it from .ci/race-exempt", pkg, imp)
				}
			}
			continue
		}
		for _, name := range files {
			path := filepath.Join(dir, name)
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("%s starts a goroutine (%s); the race pass leaves the package out: remove it from .ci/race-exempt", pkg, fset.Position(g.Pos()))
				}
				return true
			})
		}
	}
	for pkg := range exempt {
		if !listed[pkg] {
			t.Errorf(".ci/race-exempt names %s, which is no package of the module", pkg)
		}
	}
}
