package generator_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/schemas"
)

// specBumpProgram is a Business on the data-source path, written against
// the bumped schema: it refers to the new Location member and the new enum
// value by their generated names (so it only compiles if both were
// generated), serves one Location carrying the member, and prints the
// search and lookup responses.
const specBumpProgram = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"specbump/loc"
)

type source struct{ l *loc.Location }

func (s source) Capabilities() loc.SourceCapabilities { return loc.SourceCapabilities{} }

func (s source) Candidates(_ context.Context, h loc.Hints) ([]loc.Candidate, error) {
	if h.After != nil || h.Limit == 0 {
		return nil, nil
	}
	return []loc.Candidate{{Location: s.l}}, nil
}

func (s source) Resolve(_ context.Context, keys []string) (map[string][]loc.Candidate, error) {
	out := map[string][]loc.Candidate{}
	for _, k := range keys {
		if k == s.l.ID {
			out[k] = []loc.Candidate{{Location: s.l}}
		}
	}
	return out, nil
}

func (source) Serves(context.Context, loc.ServesTarget, []loc.Candidate) ([]bool, error) { return nil, nil }
func (source) Items(context.Context, []string, []loc.Candidate) ([]bool, error)         { return nil, nil }

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	l, err := loc.DecodeLocation([]byte(` + "`" + `{"id":"s1","name":"Store one","parking_spaces":12}` + "`" + `))
	if err != nil {
		return err
	}
	if !l.ParkingSpaces.Set || l.ParkingSpaces.V != 12 {
		return fmt.Errorf("parking_spaces was not decoded into its typed member: %+v", l)
	}
	var _ = loc.LookupLocation{}.ParkingSpaces
	_ = loc.MessageInfoContentTypeHtml
	svc, err := loc.NewService(source{l}, loc.ServiceOptions{})
	if err != nil {
		return err
	}
	sreq, err := loc.DecodeSearchRequest([]byte(` + "`{}`" + `))
	if err != nil {
		return err
	}
	sresp, err := svc.SearchLocations(context.Background(), nil, sreq)
	if err != nil {
		return err
	}
	lreq, err := loc.DecodeLookupRequest([]byte(` + "`" + `{"ids":["s1"]}` + "`" + `))
	if err != nil {
		return err
	}
	lresp, err := svc.LookupLocations(context.Background(), nil, lreq)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"search": sresp, "lookup": lresp})
}
`

// TestSpecBumpFlowsThroughNewService: generate from a copy of the bundled
// tree with an added optional Location member and a new
// enum value, build a Business on NewService against it in a temporary
// module, and check that search and lookup both return the member, with no
// hand change anywhere.
func TestSpecBumpFlowsThroughNewService(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temporary module; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	tmp := t.TempDir()
	tree := filepath.Join(tmp, "schemas")
	if err := os.CopyFS(tree, schemas.FS); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(tree, "schemas/common/types/location.json"), func(doc map[string]any) {
		branch := doc["allOf"].([]any)[1].(map[string]any)
		branch["properties"].(map[string]any)["parking_spaces"] = map[string]any{
			"type": "integer", "minimum": 0, "ucp_request": "omit",
			"description": "Number of parking spaces (added by the spec-bump test).",
		}
	})
	editJSON(t, filepath.Join(tree, "schemas/common/types/message_info.json"), func(doc map[string]any) {
		ct := doc["properties"].(map[string]any)["content_type"].(map[string]any)
		ct["enum"] = append(ct["enum"].([]any), "html")
	})

	files, err := generator.Generate(generator.Config{FS: os.DirFS(tree), OpenRPC: schemas.OpenRPCPath, Package: "loc"})
	if err != nil {
		t.Fatalf("generate from the bumped schemas: %v", err)
	}
	mod := filepath.Join(tmp, "mod")
	if err := generator.Write(filepath.Join(mod, "loc"), files); err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// Same requirements as the repository, plus ucpgen itself from this
	// checkout, so the build needs no network.
	reqs := goMod[strings.Index(string(goMod), "\nrequire"):]
	modFile := "module specbump\n\ngo 1.25.0\n\nrequire github.com/ucpgen/ucpgen v0.0.0\n\nreplace github.com/ucpgen/ucpgen => " + filepath.ToSlash(root) + "\n" + string(reqs)
	write(t, filepath.Join(mod, "go.mod"), modFile)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "go.sum"), string(sum))
	write(t, filepath.Join(mod, "main.go"), specBumpProgram)

	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("build and run the bumped Business: %v\n%s", err, stderr)
	}
	var got struct {
		Search struct {
			Locations []map[string]any `json:"locations"`
		} `json:"search"`
		Lookup struct {
			Locations []map[string]any `json:"locations"`
		} `json:"lookup"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("program output %s: %v", out, err)
	}
	for name, locs := range map[string][]map[string]any{"search": got.Search.Locations, "lookup": got.Lookup.Locations} {
		if len(locs) != 1 || locs[0]["parking_spaces"] != float64(12) {
			t.Errorf("%s returned %v, want the one Location with parking_spaces 12", name, locs)
		}
	}
}

func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	edit(doc)
	b, err = json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repoRoot is the module root: this file's directory's parent.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test source")
	}
	root := filepath.Dir(filepath.Dir(file))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root %s: %v", root, err)
	}
	return root
}
