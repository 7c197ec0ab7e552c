package generator_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
)

// TestServeFromGolden pins convert.go for each case under
// testdata/servefrom: an older and a newer OpenRPC file whose members are
// renamed, retyped, made optional, added and kept, so that the generated
// converters and the Conversion interface are reviewed as code.
func TestServeFromGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "servefrom", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no serve-from cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, err := generator.Generate(generator.Config{
				FS:      os.DirFS(filepath.Join(dir, "older")),
				OpenRPC: "openrpc.json",
				Package: "older",
				ServeFrom: &generator.ServeFrom{
					ImportPath: "example.com/places/newer",
					FS:         os.DirFS(filepath.Join(dir, "newer")),
					OpenRPC:    "openrpc.json",
				},
			})
			if err != nil {
				t.Fatalf("generate %s: %v", dir, err)
			}
			compareGolden(t, files, dir, "convert.go", true)
		})
	}
}

// TestServeFromErrors checks that a newer input the older one cannot be
// served from stops generation with a message naming what is missing.
func TestServeFromErrors(t *testing.T) {
	dir := filepath.Join("testdata", "servefrom", "basic")
	tests := []struct {
		name, newer, want string
	}{
		{"newer input missing", "absent", "serve from example.com/places/newer"},
		{"tool missing there", "older-tool-missing", "tool find_places does not exist there"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			newer := os.DirFS(filepath.Join(dir, "newer"))
			rpc := "openrpc.json"
			switch tc.newer {
			case "absent":
				rpc = "missing.json"
			case "older-tool-missing":
				newer = os.DirFS(filepath.Join("testdata", "golden", "map"))
			}
			_, err := generator.Generate(generator.Config{
				FS:        os.DirFS(filepath.Join(dir, "older")),
				OpenRPC:   "openrpc.json",
				Package:   "older",
				ServeFrom: &generator.ServeFrom{ImportPath: "example.com/places/newer", FS: newer, OpenRPC: rpc},
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
