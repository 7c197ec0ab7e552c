package generator_test

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// TestGolden generates one small schema per keyword or feature and compares
// the output with testdata/golden/<case>/types.go.golden and, when the case
// has one, validate.go.golden. A case folder holds its own openrpc.json, or
// none: then it pins the spec of the same name under testdata/ (the keywords
// spec, which the conformance differential also runs), so that spec is not
// copied.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			spec := dir
			if _, err := os.Stat(filepath.Join(dir, "openrpc.json")); errors.Is(err, fs.ErrNotExist) {
				spec = filepath.Join("testdata", filepath.Base(dir))
			}
			files, err := generator.Generate(generator.Config{FS: os.DirFS(spec), OpenRPC: "openrpc.json", Package: "golden"})
			if err != nil {
				t.Fatalf("generate %s: %v", spec, err)
			}
			compareGolden(t, files, dir, "types.go", true)
			compareGolden(t, files, dir, "validate.go", false)
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
		t.Errorf("%s differs from %s; run `go test ./generator -run TestGolden -update` and review the diff", name, path)
	}
}
