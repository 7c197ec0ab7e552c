package generator_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// upstreamRelease is the release whose unmodified trees ../shared holds.
const upstreamRelease = "2026-08-25"

// layout is one way a UCP schema tree reaches the generator.
type layout struct {
	name string
	fsys fs.FS
	// flag is --ucp-version, for trees that do not state their release.
	flag string
	// from is where the header must say the version came from.
	from string
	// dir is the tree's folder on disk ("" for the bundled tree).
	dir string
}

// upstreamLayouts are the trees a user can feed ucpgen: UCP's source/
// folder as released (no info.version, so the flag), the published form
// of the same tree with and without info.version, and the bundled tree.
func upstreamLayouts(t *testing.T) []layout {
	src := testshared.Path(t, "ucp-upstream", upstreamRelease, "source")
	pub := testshared.PublishedTree(t, src, upstreamRelease)
	bare := testshared.PublishedTree(t, src, upstreamRelease)
	rpc := filepath.Join(bare, filepath.FromSlash(schemas.OpenRPCPath))
	b, err := os.ReadFile(rpc)
	if err != nil {
		t.Fatal(err)
	}
	stripped := bytes.Replace(b, []byte(`"version": "`+upstreamRelease+`", `), nil, 1)
	if bytes.Equal(stripped, b) {
		t.Fatal("the published copy has no info.version to remove")
	}
	if err := os.WriteFile(rpc, stripped, 0o644); err != nil {
		t.Fatal(err)
	}
	return []layout{
		{name: "source", fsys: os.DirFS(src), flag: upstreamRelease, from: "--ucp-version", dir: src},
		{name: "published", fsys: os.DirFS(pub), from: "info.version of " + schemas.OpenRPCPath, dir: pub},
		{name: "publishednoinfo", fsys: os.DirFS(bare), from: "the $id/$ref URLs (e.g. ", dir: bare},
		{name: "bundled", fsys: schemas.FS, from: "info.version of " + schemas.OpenRPCPath},
	}
}

// TestUpstreamLayouts: each layout of a real
// UCP tree generates, unmodified, a package that builds, vets and names
// the release, and the upstream layouts give the same code as one another.
func TestUpstreamLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a temporary module; skipped with -short")
	}
	layouts := upstreamLayouts(t)
	mod := tempModule(t, "layouts")
	header := regexp.MustCompile(`(?m)^// UCP version: .*\n`)
	var first map[string][]byte
	// same strips what must differ between layouts: the header's version
	// source. Every package is named loc, in a folder named after its layout.
	same := func(b []byte) []byte { return header.ReplaceAll(b, nil) }
	for _, l := range layouts {
		files, err := generator.Generate(generator.Config{FS: l.fsys, OpenRPC: schemas.OpenRPCPath, Package: "loc", UCPVersion: l.flag, Strict: true})
		if err != nil {
			t.Fatalf("%s layout: %v", l.name, err)
		}
		wantHeader := "// UCP version: " + upstreamRelease + " (" + l.from
		wantConst := `const ProtocolVersion = "` + upstreamRelease + `"`
		if !bytes.Contains(files["mcp.go"], []byte(wantConst)) {
			t.Errorf("%s layout: mcp.go lacks %s", l.name, wantConst)
		}
		for name, b := range files {
			if strings.HasSuffix(name, ".go") && !bytes.Contains(b, []byte(wantHeader)) {
				t.Errorf("%s layout: %s header does not start %q:\n%s", l.name, name, wantHeader, header.Find(b))
			}
		}
		if l.name != "bundled" {
			if first == nil {
				first = files
			} else {
				for name, b := range files {
					if !bytes.Equal(same(b), same(first[name])) {
						t.Errorf("%s layout: %s differs from the source layout's beyond its header", l.name, name)
					}
				}
			}
		}
		if err := generator.Write(filepath.Join(mod, l.name), files); err != nil {
			t.Fatal(err)
		}
	}
	goIn(t, mod, "vet", "./...")
}

// tempModule makes a module that requires ucpgen from this checkout, with
// the repository's own requirements, so builds in it need no network.
func tempModule(t *testing.T, name string) string {
	t.Helper()
	mod := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := goMod[strings.Index(string(goMod), "\nrequire"):]
	write(t, filepath.Join(mod, "go.mod"), "module "+name+"\n\ngo 1.25.0\n\nrequire github.com/ucpgen/ucpgen v0.0.0\n\nreplace github.com/ucpgen/ucpgen => "+filepath.ToSlash(root)+"\n"+string(reqs))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(mod, "go.sum"), string(sum))
	return mod
}

// goIn runs the go command in dir without network and fails with its output.
func goIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return goInEnv(t, dir, nil, args...)
}

// goInEnv is goIn with extra environment variables.
func goInEnv(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	cmd := exec.Command(goBin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// TestGeneratedTestsOnUpstream regenerates generated/location from UCP's
// unmodified source/ tree and from its published layout into temporary
// files, and runs the package's own tests on that code in place (through
// go test -overlay), so those tests hold on upstream input and pin no
// prose or version of the bundled tree.
func TestGeneratedTestsOnUpstream(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generated package's tests in a child go test; skipped with -short")
	}
	root := repoRoot(t)
	pkgDir := filepath.Join(root, "generated", "location")
	for _, l := range upstreamLayouts(t)[:3] {
		t.Run(l.name, func(t *testing.T) {
			files, err := generator.Generate(generator.Config{FS: l.fsys, OpenRPC: schemas.OpenRPCPath, Package: "location", UCPVersion: l.flag})
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			replace := map[string]string{}
			for name, b := range files {
				p := filepath.Join(tmp, name)
				write(t, p, string(b))
				replace[filepath.Join(pkgDir, name)] = p
			}
			// A committed generated file this input does not produce is
			// removed from the overlay view.
			committed, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
			for _, f := range committed {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := replace[f]; !ok && bytes.HasPrefix(b, []byte("// Code generated by ucpgen")) {
					replace[f] = ""
				}
			}
			overlay, err := json.Marshal(map[string]any{"Replace": replace})
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(tmp, "overlay.json"), string(overlay))
			dir := l.dir
			out := goInEnv(t, root, []string{"UCPGEN_TEST_SCHEMAS=" + dir, "UCPGEN_TEST_UCP_VERSION=" + l.flag},
				"test", "-count=1", "-overlay", filepath.Join(tmp, "overlay.json"), "./generated/location")
			if !strings.Contains(out, "ok  \tgithub.com/ucpgen/ucpgen/generated/location") {
				t.Errorf("go test of the regenerated package:\n%s", out)
			}
		})
	}
}
