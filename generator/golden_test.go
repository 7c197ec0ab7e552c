package generator_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// TestGolden generates one small schema per keyword or feature and compares
// the output with testdata/golden/<case>/types.go.golden.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, err := generator.Generate(generator.Config{FS: os.DirFS(dir), OpenRPC: "openrpc.json", Package: "golden"})
			if err != nil {
				t.Fatalf("generate: %v", err)
			}
			got := files["types.go"]
			path := filepath.Join(dir, "types.go.golden")
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
				t.Errorf("types.go differs from %s; run `go test ./generator -run TestGolden -update` and review the diff", path)
			}
		})
	}
}
