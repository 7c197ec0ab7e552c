package generator_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// releaseVersion overlays fsys's OpenRPC file with info.version set: the
// upstream trees leave out that OpenRPC-required member, which names the
// release in generated code.
func releaseVersion(t *testing.T, fsys fs.FS, version string) fs.FS {
	t.Helper()
	data, err := fs.ReadFile(fsys, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	data, ok := bytes.CutPrefix(bytes.TrimSpace(data), []byte("{"))
	if !ok {
		t.Fatalf("%s is not a JSON object", schemas.OpenRPCPath)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(append([]byte("{"), data...), &doc); err != nil || doc["info"] == nil {
		t.Fatalf("%s has no info object (%v)", schemas.OpenRPCPath, err)
	}
	info := bytes.Replace(doc["info"], []byte("{"), []byte(`{"version": "`+version+`", `), 1)
	edited := bytes.Replace(append([]byte("{"), data...), doc["info"], info, 1)
	return overlayFS{FS: fsys, path: schemas.OpenRPCPath, data: edited}
}

// overlayFS serves one file's bytes in place of fsys's.
type overlayFS struct {
	fs.FS
	path string
	data []byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if name != o.path {
		return o.FS.Open(name)
	}
	return fstest.MapFS{name: &fstest.MapFile{Data: o.data, Mode: 0o644}}.Open(name)
}

func ours() generator.Config {
	return generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath, Package: "location"}
}

func TestDeterministic(t *testing.T) {
	a, err := generator.Generate(ours())
	if err != nil {
		t.Fatal(err)
	}
	b, err := generator.Generate(ours())
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("file sets differ: %d vs %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestCommittedOutputFresh is the freshness check CI relies on.
func TestCommittedOutputFresh(t *testing.T) {
	files, err := generator.Generate(ours())
	if err != nil {
		t.Fatal(err)
	}
	stale, err := generator.Check(filepath.Join("..", "generated", "location"), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		t.Errorf("%s is stale (%s); run `go run ./cmd/ucpgen generate`:\n%s", s.Name, s.Reason, s.Diff)
	}
}

// apiSummary renders the exported declarations of Go source without
// comments: type names, field names, field types, tags and method sets.
func apiSummary(t *testing.T, files map[string][]byte) string {
	t.Helper()
	fset := token.NewFileSet()
	var lines []string
	for name, src := range files {
		if !strings.HasSuffix(name, ".go") {
			continue // the tools' schema files
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var b bytes.Buffer
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						printer.Fprint(&b, fset, s)
					case *ast.ValueSpec:
						if !s.Names[0].IsExported() {
							continue
						}
						printer.Fprint(&b, fset, s)
					default:
						continue
					}
					lines = append(lines, b.String())
				}
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				var b bytes.Buffer
				d.Body, d.Doc = nil, nil
				printer.Fprint(&b, fset, d)
				lines = append(lines, b.String())
			}
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestEquivalentToRelease proves schemas/ and the upstream release give the
// same Go API (descriptions, and so doc comments, are allowed to differ).
func TestEquivalentToRelease(t *testing.T) {
	up := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	a, err := generator.Generate(ours())
	if err != nil {
		t.Fatal(err)
	}
	// The release's source tree has no REST binding; its published one
	// stands beside the OpenRPC file, as in ours.
	rest, err := os.ReadFile(testshared.Path(t, "ucp-upstream", "2026-08-25", "published", "services", "common", "rest.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	upFS := overlayFS{FS: releaseVersion(t, os.DirFS(up), "2026-08-25"), path: "services/common/rest.openapi.json", data: rest}
	b, err := generator.Generate(generator.Config{FS: upFS, OpenRPC: schemas.OpenRPCPath, Package: "location"})
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := apiSummary(t, a), apiSummary(t, b)
	if sa != sb {
		la, lb := strings.Split(sa, "\n"), strings.Split(sb, "\n")
		for i := 0; i < len(la) && i < len(lb); i++ {
			if la[i] != lb[i] {
				t.Fatalf("APIs differ first at line %d:\nours:     %s\nupstream: %s", i, la[i], lb[i])
			}
		}
		t.Fatalf("APIs differ in length: %d vs %d lines", len(la), len(lb))
	}
	if !strings.Contains(sa, "LookupLocation struct {") || !strings.Contains(sa, "IDs\t[]string") {
		t.Fatalf("API summary lacks expected declarations:\n%s", sa)
	}
}

// TestSpecBumpDraftCompiles generates the pre-release draft (amenities as a
// list, filters.inventory) into a package inside this module and builds it.
func TestSpecBumpDraftCompiles(t *testing.T) {
	draft := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	files, err := generator.Generate(generator.Config{FS: releaseVersion(t, os.DirFS(draft), "2026-08-21"), OpenRPC: schemas.OpenRPCPath, Package: "draft"})
	if err != nil {
		t.Fatal(err)
	}
	src := string(files["types.go"])
	for _, want := range []string{"Amenities opt.Value[[]AmenityType]", "Inventory opt.Value[[]InventoryFilter]", "type InventoryFilter struct"} {
		if !strings.Contains(src, want) {
			t.Errorf("draft output lacks %q", want)
		}
	}
	// The predicate binding must follow the draft's shapes: amenities read
	// from a list, and the draft-only inventory filter passed on as an
	// extension so the engine rejects it unless a handler is registered.
	bind := string(files["binding.go"])
	for _, want := range []string{
		"func (r *SearchRequest) PredicateQuery() (predicate.Query, error)",
		"func (r *LookupRequest) PredicateQuery() (predicate.Query, error)",
		"func (l *Location) PredicateCandidate() predicate.Candidate",
		"for _, e := range v {\n\t\t\tc.Amenities = append(c.Amenities, string(e))",
		"Key: \"inventory\",",
	} {
		if !strings.Contains(bind, want) {
			t.Errorf("draft binding.go lacks %q", want)
		}
	}
	dir := testshared.ScratchDir(t, "_draft")
	if err := generator.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		t.Skip("skipping go build in -short mode")
	}
	cmd := exec.Command("go", "build", "./"+filepath.Base(dir))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("draft output does not compile: %v\n%s", err, out)
	}
}

// TestLocationCodeKeyedOnCapability shows that PredicateQuery, NewService
// and the conversions follow the Location capability's name, not member
// names: the same schemas under another capability name keep their
// distance, serves and locations members but get none of that code.
func TestLocationCodeKeyedOnCapability(t *testing.T) {
	const file = "schemas/common/location_search.json"
	data, err := fs.ReadFile(schemas.FS, file)
	if err != nil {
		t.Fatal(err)
	}
	renamed := bytes.Replace(data, []byte(`"dev.ucp.common.location.search"`), []byte(`"dev.ucp.common.places.search"`), 1)
	if bytes.Equal(renamed, data) {
		t.Fatalf("%s does not declare dev.ucp.common.location.search", file)
	}
	files, err := generator.Generate(generator.Config{FS: overlayFS{FS: schemas.FS, path: file, data: renamed}, OpenRPC: schemas.OpenRPCPath, Package: "location"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["service.go"]; ok {
		t.Error("service.go generated without the Location search capability")
	}
	bind := string(files["binding.go"])
	if strings.Contains(bind, "func (r *SearchRequest) PredicateQuery()") {
		t.Error("SearchRequest.PredicateQuery generated for a capability other than Location")
	}
	if !strings.Contains(bind, "func (r *LookupRequest) PredicateQuery()") {
		t.Error("LookupRequest.PredicateQuery missing although lookup keeps the Location capability")
	}
	if !strings.Contains(string(files["types.go"]), "Distance opt.Value[") {
		t.Error("the renamed capability lost its distance member; the test proves nothing")
	}
}
