package layout

import (
	"os/exec"
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
