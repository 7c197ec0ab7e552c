package securitydoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// cited is a backticked test name in the doc, with the part after the
// first slash (a subtest) dropped.
var cited = regexp.MustCompile("^(Test|Fuzz|Benchmark)[A-Za-z0-9_]*")

// TestEveryCitedTestExists reads each table row of docs/security.md and
// requires every test it cites to be a top-level test function of the
// package named before it in the row (by its path or, for the shorthands
// the doc lists, its last element), or of some package when the row names
// none. A row that promises something must cite at least one test.
func TestEveryCitedTestExists(t *testing.T) {
	root := testshared.RepoRoot(t)
	funcs := testFuncs(t, root)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, checked := 0, 0
	inTable := false // in a table whose last column is "Test"
	for n, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(strings.TrimSuffix(strings.TrimSpace(line), "|"), "|")
		switch {
		case !strings.HasPrefix(line, "|"):
			inTable = false
			continue
		case strings.HasPrefix(line, "|---"):
			continue
		case !inTable && strings.TrimSpace(cells[len(cells)-1]) == "Test":
			inTable = true
			continue
		case !inTable:
			continue
		}
		rows++
		pkg, proofs := "", 0
		for _, tok := range backticked(cells[len(cells)-1]) {
			name := cited.FindString(tok)
			if name == "" || name != strings.SplitN(tok, "/", 2)[0] {
				if dirs := packageDirs(funcs, tok); len(dirs) > 0 {
					pkg = tok
				} else if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(tok), "main.go")); err == nil && !st.IsDir() {
					proofs++ // a command that is the proof (a tool run by hand)
				}
				continue
			}
			proofs++
			checked++
			dirs := packageDirs(funcs, pkg)
			if pkg == "" {
				dirs = allDirs(funcs)
			}
			found := false
			for _, d := range dirs {
				found = found || funcs[d][name]
			}
			if !found {
				where := "any package"
				if pkg != "" {
					where = "package " + pkg
				}
				t.Errorf("docs/security.md line %d cites %s, which is not a test function of %s", n+1, tok, where)
			}
		}
		if proofs == 0 {
			t.Errorf("docs/security.md line %d promises something without citing a test: %.120s", n+1, line)
		}
	}
	if rows < 50 || checked < rows {
		t.Fatalf("read %d rows citing %d tests; the table format changed under this test", rows, checked)
	}
	t.Logf("%d promises cite %d tests, each found in its package", rows, checked)
}

// backticked returns the code spans of a Markdown cell, in order.
func backticked(cell string) []string {
	parts := strings.Split(cell, "`")
	var out []string
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// testFuncs maps each package directory (slash-separated, relative to
// root) to the names of the top-level functions of its _test.go files.
func testFuncs(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if out[rel] == nil {
			out[rel] = map[string]bool{}
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[rel][fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// packageDirs returns the directories a package reference in the doc can
// mean: its exact path, or every directory whose last element it is.
func packageDirs(funcs map[string]map[string]bool, ref string) []string {
	if ref == "" || strings.ContainsAny(ref, " .-=") {
		return nil
	}
	if _, ok := funcs[ref]; ok {
		return []string{ref}
	}
	var dirs []string
	for d := range funcs {
		if d == ref || strings.HasSuffix(d, "/"+ref) {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

func allDirs(funcs map[string]map[string]bool) []string {
	dirs := make([]string, 0, len(funcs))
	for d := range funcs {
		dirs = append(dirs, d)
	}
	return dirs
}
