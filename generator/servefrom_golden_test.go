package generator_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/schemas"
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

// TestServeFromPreviousConversion generates schemas/2026-08-21 served from the
// bundled tree and checks that its Conversion names only members a Location
// answer or request carries in another shape: the payment handlers of an
// answer's ucp member keep constraints as any object at 2026-08-21, so the
// newer Constraint Expression is carried by its JSON, not by the Business.
func TestServeFromPreviousConversion(t *testing.T) {
	files, err := generator.Generate(generator.Config{
		FS:      schemas.Previous,
		OpenRPC: schemas.OpenRPCPath,
		Package: "location20260821",
		ServeFrom: &generator.ServeFrom{
			ImportPath: "github.com/ucpgen/ucpgen/generated/location",
			FS:         schemas.FS,
			OpenRPC:    schemas.OpenRPCPath,
		},
	})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	got := interfaceMethods(t, files["convert.go"], "Conversion")
	want := []string{"LocationAmenities", "LocationFilterInventory", "MetaIdempotencyKey"}
	if !slices.Equal(got, want) {
		t.Errorf("Conversion methods = %v, want %v", got, want)
	}
}

// interfaceMethods lists, sorted, the methods of the named interface type
// declared in the Go source src.
func interfaceMethods(t *testing.T, src []byte, name string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "convert.go", src, 0)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out []string
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != name {
			return true
		}
		it, ok := ts.Type.(*ast.InterfaceType)
		if !ok {
			t.Fatalf("%s is not an interface", name)
		}
		found = true
		for _, m := range it.Methods.List {
			for _, id := range m.Names {
				out = append(out, id.Name)
			}
		}
		return false
	})
	if !found {
		t.Fatalf("no type %s in the generated source", name)
	}
	slices.Sort(out)
	return out
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
