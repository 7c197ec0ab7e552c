package conformance_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/schemas"
)

// relabelled copies a schema tree with every occurrence of one release label
// replaced by another, as a new UCP release would arrive.
func relabelled(t *testing.T, src fs.FS, from, to string) fstest.MapFS {
	t.Helper()
	tree := copyTree(t, src)
	for _, f := range tree {
		f.Data = bytes.ReplaceAll(f.Data, []byte(from), []byte(to))
	}
	return tree
}

// copyTree reads every file of src into memory.
func copyTree(t *testing.T, src fs.FS) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		out[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatalf("copy tree: %v", err)
	}
	return out
}

// withInfoVersion returns fsys with info.version set in the OpenRPC file at
// path, for upstream trees that leave the OpenRPC-required member out.
func withInfoVersion(t *testing.T, fsys fs.FS, path, version string) fs.FS {
	t.Helper()
	tree := copyTree(t, fsys)
	f, ok := tree[path]
	if !ok {
		t.Fatalf("%s is not in the tree", path)
	}
	info := regexp.MustCompile(`"info"\s*:\s*\{`)
	loc := info.FindIndex(f.Data)
	if loc == nil {
		t.Fatalf("%s has no info object", path)
	}
	f.Data = append(append(append([]byte{}, f.Data[:loc[1]]...), []byte(`"version": "`+version+`", `)...), f.Data[loc[1]:]...)
	return tree
}

// relabelHarness drives the generated package of a relabelled tree through
// the MCP Go SDK's in-memory transport and prints what a client sees.
const relabelHarness = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	pkg "IMPORT"
)

type hooks struct{}

func (hooks) SearchLocations(ctx context.Context, meta *pkg.Meta, req *pkg.SearchRequest) (*pkg.SearchResponse, error) {
	return &pkg.SearchResponse{Locations: []pkg.Location{{ID: "loc_1", Name: "One"}}}, nil
}

func (hooks) LookupLocations(ctx context.Context, meta *pkg.Meta, req *pkg.LookupRequest) (*pkg.LookupResponse, error) {
	return &pkg.LookupResponse{}, nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "relabel", Version: "1"}, nil)
	if err := pkg.Register(server, hooks{}, nil); err != nil {
		return err
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		return err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	args := json.RawMessage(` + "`" + `{"meta": {"ucp-agent": {"profile": "https://platform.example/profile.json"}}, "location": {"query": "x"}}` + "`" + `)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("tool error: %v", res.Content)
	}
	call, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	profile, err := pkg.BusinessProfile(hooks{}, "https://business.example/mcp")
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]json.RawMessage{"call": call, "profile": profile})
}
`

// TestVersionFollowsInput generates from a copy of the bundled tree relabelled
// 2027-01-01 and proves that every version and schema URL follows: in the
// generated source, in a tools/call response and in the Business profile.
func TestVersionFollowsInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package; skipped with -short")
	}
	const old, next = "2026-08-25", "2027-01-01"
	tree := relabelled(t, schemas.FS, old, next)
	files, err := generator.Generate(generator.Config{FS: tree, OpenRPC: schemas.OpenRPCPath, Package: "relabel"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	for name, src := range files {
		if bytes.Contains(src, []byte(old)) {
			t.Errorf("%s still names %s", name, old)
		}
	}
	mcpSrc := string(files["mcp.go"])
	for _, want := range []string{
		`const ProtocolVersion = "` + next + `"`,
		`"https://ucp.dev/` + next + `/schemas/common/location_search.json"`,
		`"https://ucp.dev/` + next + `/schemas/common/location_lookup.json"`,
		`"https://ucp.dev/` + next + `/services/common/mcp.openrpc.json"`,
	} {
		if !strings.Contains(mcpSrc, want) {
			t.Errorf("mcp.go lacks %s", want)
		}
	}

	_, importPath := scratchPackage(t, "relabel", files)
	main := strings.Replace(relabelHarness, "IMPORT", importPath, 1)
	var stderr bytes.Buffer
	cmd := exec.Command("go", "run", scratchMain(t, "relabel", []byte(main)))
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run relabelled server: %v\n%s", err, stderr.Bytes())
	}
	var got struct {
		Call    struct{ UCP struct{ Version string } }
		Profile json.RawMessage
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("harness output %s: %v", out, err)
	}
	if got.Call.UCP.Version != next {
		t.Errorf("tools/call ucp.version = %q, want %q", got.Call.UCP.Version, next)
	}
	if bytes.Contains(out, []byte(old)) {
		t.Errorf("the wire still names %s: %s", old, out)
	}
	var profile struct {
		UCP struct {
			Version      string
			Services     map[string][]map[string]string
			Capabilities map[string][]map[string]string
		}
	}
	if err := json.Unmarshal(got.Profile, &profile); err != nil {
		t.Fatalf("profile %s: %v", got.Profile, err)
	}
	if profile.UCP.Version != next {
		t.Errorf("profile ucp.version = %q, want %q", profile.UCP.Version, next)
	}
	svc := profile.UCP.Services["dev.ucp.common"]
	if len(svc) != 1 || svc[0]["version"] != next || svc[0]["schema"] != "https://ucp.dev/"+next+"/services/common/mcp.openrpc.json" {
		t.Errorf("profile service = %v", svc)
	}
	for _, c := range []string{"search", "lookup"} {
		caps := profile.UCP.Capabilities["dev.ucp.common.location."+c]
		if len(caps) != 1 || caps[0]["version"] != next || caps[0]["schema"] != "https://ucp.dev/"+next+"/schemas/common/location_"+c+".json" {
			t.Errorf("profile capability %s = %v", c, caps)
		}
	}
}
