package generator_test

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/schemas"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// TestGolden generates one small schema per keyword or feature and compares
// the output with testdata/golden/<case>/<file>.golden for every golden file
// the case holds (types.go is required). A case folder holds its own
// openrpc.json, or none: then it pins the spec of the same name under
// testdata/ (the keywords spec, which the conformance differential also
// runs), so that spec is not copied. The case "bundled" pins mcp.go,
// binding.go and client.go of the bundled UCP tree, the only input with MCP
// tools.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := generator.Config{FS: os.DirFS(dir), OpenRPC: "openrpc.json", Package: "golden"}
			if filepath.Base(dir) == "bundled" {
				cfg = generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath, Package: "golden"}
			} else if _, err := os.Stat(filepath.Join(dir, "openrpc.json")); errors.Is(err, fs.ErrNotExist) {
				cfg.FS = os.DirFS(filepath.Join("testdata", filepath.Base(dir)))
			}
			files, err := generator.Generate(cfg)
			if err != nil {
				t.Fatalf("generate %s: %v", dir, err)
			}
			compareGolden(t, files, dir, "types.go", filepath.Base(dir) != "bundled")
			for _, name := range []string{"validate.go", "mcp.go", "binding.go", "client.go"} {
				compareGolden(t, files, dir, name, false)
			}
		})
	}
}

// compareGolden compares one generated file with <dir>/<name>.golden,
// rewriting it under -update. An optional golden is compared (and
// rewritten) only when it exists; create it empty to start pinning a file.
func compareGolden(t *testing.T, files map[string][]byte, dir, name string, required bool) {
	t.Helper()
	path := filepath.Join(dir, name+".golden")
	if !required {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
	got, ok := files[name]
	if !ok {
		t.Fatalf("the generator produced no %s", name)
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from %s (run `go test ./generator -run TestGolden -update` to accept):\n%s", name, path, lineDiff(string(want), string(got)))
	}
}

// lineDiff shows where two texts part: the lines around the first
// difference, "-" for the golden file and "+" for the new output.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	// Skip the common tail so that an insertion shows as one block.
	jw, jg := len(w), len(g)
	for jw > i && jg > i && w[jw-1] == g[jg-1] {
		jw, jg = jw-1, jg-1
	}
	var b strings.Builder
	from := max(i-3, 0)
	fmt.Fprintf(&b, "@@ line %d @@\n", i+1)
	for _, l := range w[from:i] {
		b.WriteString("  " + l + "\n")
	}
	const most = 20
	for k, l := range w[i:jw] {
		if k == most {
			fmt.Fprintf(&b, "- ... %d more\n", jw-i-most)
			break
		}
		b.WriteString("- " + l + "\n")
	}
	for k, l := range g[i:jg] {
		if k == most {
			fmt.Fprintf(&b, "+ ... %d more\n", jg-i-most)
			break
		}
		b.WriteString("+ " + l + "\n")
	}
	return b.String()
}
