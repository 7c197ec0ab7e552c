package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/internal/version"
)

// ucpgen runs the CLI as a user would and returns exit code, stdout, stderr.
func ucpgen(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	code := run(args, &o, &e)
	if strings.Contains(e.String(), "goroutine ") {
		t.Fatalf("stack trace on stderr: %s", e.String())
	}
	return code, o.String(), e.String()
}

// writeTree writes files (slash paths) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// miniTree is a schema tree with one method whose parameter schema is s.
func miniTree(t *testing.T, s string) string {
	return writeTree(t, map[string]string{
		"services/common/mcp.openrpc.json": `{"openrpc":"1.3.2","info":{"title":"Mini","version":"2027-01-01"},
			"methods":[{"name":"m","params":[{"name":"p","schema":{"$ref":"../../schemas/s.json"}}]}]}`,
		"schemas/s.json": s,
	})
}

func TestExitCodes(t *testing.T) {
	typo := miniTree(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"minItem":1}}}`)
	broken := miniTree(t, `{"type":"object","properties":{"a":{"$ref":"#/$defs/gone"}}}`)
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		stderrHas  []string
		stdoutHas  []string
		stderrNone string
	}{
		{"unresolvable $ref is bad input", []string{"generate", "--schemas", broken, "--out", t.TempDir(), "--package", "x"}, 2,
			[]string{"schemas/s.json#/properties/a/$ref"}, nil, ""},
		{"unknown flag", []string{"generate", "--nope"}, 2, []string{"unknown flag: --nope"}, nil, ""},
		{"unknown command", []string{"generat"}, 2, []string{"unknown command"}, nil, ""},
		{"bad package", []string{"generate", "--out", t.TempDir(), "--package", "9bad"}, 2, []string{"--package", "9bad"}, nil, ""},
		{"typo warns and still generates", []string{"generate", "--schemas", typo, "--out", filepath.Join(t.TempDir(), "mini")}, 0,
			[]string{`warning: schemas/s.json#/properties/tags/minItem: unknown keyword "minItem" is ignored; did you mean minItems?`},
			[]string{"wrote ", "types.go"}, ""},
		{"--strict refuses the typo", []string{"generate", "--strict", "--schemas", typo, "--out", filepath.Join(t.TempDir(), "mini")}, 2,
			[]string{"1 lint warning(s), refused by --strict", "did you mean minItems?"}, nil, "wrote"},
		{"--check --strict refuses before comparing", []string{"generate", "--check", "--strict", "--schemas", typo, "--out", t.TempDir(), "--package", "x"}, 2,
			[]string{"refused by --strict"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := ucpgen(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			for _, w := range tc.stderrHas {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			for _, w := range tc.stdoutHas {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if tc.stderrNone != "" && strings.Contains(out+errs, tc.stderrNone) {
				t.Errorf("output has %q:\n%s%s", tc.stderrNone, out, errs)
			}
		})
	}
}

func TestSchemasFolderErrors(t *testing.T) {
	release := writeTree(t, map[string]string{"source/services/common/mcp.openrpc.json": "{}", "source/schemas/x.json": "{}"})
	file := filepath.Join(release, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	absRelease, _ := filepath.Abs(release)
	bundle := writeTree(t, map[string]string{
		"2026-08-25/services/common/mcp.openrpc.json": "{}", "2026-08-21/services/common/mcp.openrpc.json": "{}", "notes/x.txt": "x"})
	absBundle, _ := filepath.Abs(bundle)
	for _, tc := range []struct {
		name, schemas string
		want          []string
	}{
		{"does not exist", filepath.Join(release, "nope"), []string{filepath.Join(absRelease, "nope") + " does not exist", "services/ and schemas/"}},
		{"is a file", file, []string{file + " is a file", "services/ and schemas/"}},
		{"release folder instead of its source/", release, []string{
			"no OpenRPC file at " + filepath.Join(absRelease, "services", "common", "mcp.openrpc.json"),
			"services/ and schemas/",
			"did you mean --schemas " + filepath.Join(release, "source") + "?"}},
		{"bundle of version folders", bundle, []string{
			"no OpenRPC file at " + filepath.Join(absBundle, "services", "common", "mcp.openrpc.json"),
			"did you mean --schemas " + filepath.Join(bundle, "2026-08-21") + " or --schemas " + filepath.Join(bundle, "2026-08-25") + "?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := ucpgen(t, "generate", "--schemas", tc.schemas, "--out", t.TempDir())
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
	// A relative --schemas is reported as the absolute path looked in.
	t.Chdir(release)
	_, _, errs := ucpgen(t, "generate", "--schemas", "elsewhere", "--out", t.TempDir())
	if !strings.Contains(errs, filepath.Join(absRelease, "elsewhere")+" does not exist") {
		t.Errorf("relative --schemas not resolved to an absolute path: %s", errs)
	}
}

func TestGenerateListsWritesAndKeepsUnchangedFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "location")
	code, stdout, errs := ucpgen(t, "generate", "--out", out)
	if code != 0 {
		t.Fatalf("generate: %d %s", code, errs)
	}
	generated := strings.Count(stdout, "wrote ")
	for _, f := range []string{"types.go", "validate.go", "binding.go", "mcp.go"} {
		if !strings.Contains(stdout, "wrote "+filepath.Join(out, f)+"\n") {
			t.Errorf("first run does not list %s:\n%s", f, stdout)
		}
	}
	// Age every file, hand-edit one and add a stale generated file.
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.WriteFile(filepath.Join(out, "gone.go"), []byte("// Code generated by ucpgen (devel). DO NOT EDIT.\npackage location\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mine.go"), []byte("package location\n"), 0o644)
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		os.Chtimes(filepath.Join(out, e.Name()), old, old)
	}
	os.WriteFile(filepath.Join(out, "types.go"), []byte("// Code generated by ucpgen, then edited\npackage location\n"), 0o644)

	code, stdout, errs = ucpgen(t, "generate", "--out", out)
	if code != 0 {
		t.Fatalf("second generate: %d %s", code, errs)
	}
	want := "wrote " + filepath.Join(out, "types.go") + "\n" +
		"removed " + filepath.Join(out, "gone.go") + " (no longer generated)\n" +
		fmt.Sprintf("%s: 1 written, %d unchanged, 1 removed\n", out, generated-1)
	if stdout != want {
		t.Errorf("second run printed:\n%s\nwant:\n%s", stdout, want)
	}
	for _, f := range []string{"validate.go", "binding.go", "mcp.go", "mine.go"} {
		st, err := os.Stat(filepath.Join(out, f))
		if err != nil || !st.ModTime().Equal(old) {
			t.Errorf("%s was touched (mtime %v, err %v)", f, st.ModTime(), err)
		}
	}
	if st, _ := os.Stat(filepath.Join(out, "types.go")); st.ModTime().Equal(old) {
		t.Error("types.go was not rewritten")
	}
}

func TestCheckPrintsBoundedDiffAndSummary(t *testing.T) {
	out := filepath.Join(t.TempDir(), "location")
	code, stdout, errs := ucpgen(t, "generate", "--out", out)
	if code != 0 {
		t.Fatalf("generate: %s", errs)
	}
	generated := strings.Count(stdout, "wrote ")
	code, stdout, errs = ucpgen(t, "generate", "--out", out, "--check")
	if code != 0 || stdout != fmt.Sprintf("%s is up to date (%d files)\n", out, generated) {
		t.Fatalf("check after generate: %d %q %q", code, stdout, errs)
	}

	// A one-line hand edit: a small, complete diff.
	vf := filepath.Join(out, "validate.go")
	b, _ := os.ReadFile(vf)
	os.WriteFile(vf, bytes.Replace(b, []byte("package location"), []byte("package location // edited"), 1), 0o644)
	// A truncated file: a long diff that must be cut at 40 lines.
	tf := filepath.Join(out, "types.go")
	b, _ = os.ReadFile(tf)
	os.WriteFile(tf, b[:len(b)/2], 0o644)

	code, stdout, errs = ucpgen(t, "generate", "--out", out, "--check")
	if code != 1 {
		t.Fatalf("check after edits: exit %d, want 1\n%s", code, errs)
	}
	if want := "ucpgen: " + out + ": 2 stale generated file(s) (types.go differs, validate.go differs); run `ucpgen generate` and commit the result\n"; lastLine(errs) != want {
		t.Errorf("summary:\n%s\nwant:\n%s", errs, want)
	}
	for _, w := range []string{
		"--- " + vf + "\n+++ " + vf + " (generated)\n",
		"-package location // edited\n+package location\n",
		"--- " + tf + "\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("diff lacks %q:\n%s", w, stdout)
		}
	}
	typesDiff := stdout[strings.Index(stdout, "--- "+tf):strings.Index(stdout, "--- "+vf)]
	if n := strings.Count(typesDiff, "\n"); n != 41 || !strings.HasSuffix(typesDiff, " more lines\n") {
		t.Errorf("types.go diff is %d lines, want 40 and a '... N more lines' line:\n%s", n, typesDiff)
	}

	// A missing file is stale too, shown as a diff from /dev/null.
	os.Remove(filepath.Join(out, "mcp.go"))
	_, stdout, _ = ucpgen(t, "generate", "--out", out, "--check")
	if !strings.Contains(stdout, "--- /dev/null\n+++ "+filepath.Join(out, "mcp.go")+"\n") {
		t.Errorf("missing file not shown as a diff from /dev/null")
	}

	// A generated file the generator no longer produces is stale; a
	// hand-written file beside the output is not.
	gone := filepath.Join(out, "gone.go")
	os.WriteFile(gone, []byte("// Code generated by ucpgen (devel). DO NOT EDIT.\npackage location\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mine.go"), []byte("package location\n"), 0o644)
	code, stdout, errs = ucpgen(t, "generate", "--out", out, "--check")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(lastLine(errs), ": 4 stale generated file(s) (gone.go no longer generated, mcp.go missing, types.go differs, validate.go differs)") {
		t.Errorf("summary does not list each stale file with its reason: %q", lastLine(errs))
	}
	if !strings.Contains(stdout, "--- "+gone+"\n+++ /dev/null\n") || strings.Contains(stdout, "mine.go") {
		t.Errorf("diffs:\n%s", stdout)
	}
}

func TestVersion(t *testing.T) {
	want := "ucpgen " + version.Read().String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := ucpgen(t, args...)
		if code != 0 || out != want {
			t.Errorf("%v: exit %d, %q %q, want %q", args, code, out, errs, want)
		}
	}
}

func TestHeaderNamesVersions(t *testing.T) {
	tree := miniTree(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	out := filepath.Join(t.TempDir(), "mini")
	if code, _, errs := ucpgen(t, "generate", "--schemas", tree, "--out", out); code != 0 {
		t.Fatal(errs)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) == 0 {
		t.Fatal("nothing generated")
	}
	// This test binary is built from the checkout, so the header says (devel).
	want := "// Code generated by ucpgen. DO NOT EDIT.\n// ucpgen version: (devel)\n// UCP version: 2027-01-01 (info.version of services/common/mcp.openrpc.json)\n"
	for _, e := range entries {
		if e.Name() == delta.ManifestName {
			// JSON has no comments; the manifest names the version it holds.
			continue
		}
		b, _ := os.ReadFile(filepath.Join(out, e.Name()))
		// Go's tools (gopls, linters, go vet's generated-file exemptions)
		// must recognise the file as generated.
		f, err := parser.ParseFile(gotoken.NewFileSet(), e.Name(), b, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil || !ast.IsGenerated(f) {
			t.Errorf("%s is not recognised as generated by go/ast (err %v)", e.Name(), err)
		}
		if !strings.HasPrefix(string(b), want) {
			t.Errorf("%s header:\n%s\nwant:\n%s", e.Name(), strings.Join(strings.SplitN(string(b), "\n", 4)[:3], "\n"), want)
		}
	}
}

// lastLine returns the last line of s with its newline; warnings may come
// before the summary, which is always last.
func lastLine(s string) string {
	l := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return l[len(l)-1] + "\n"
}

// TestBundledTreesCheckFromRepositoryRoot runs generate --check on each
// bundled version folder from the repository root, as a maintainer would
// after editing one: every folder is a complete tree on its own, and the
// committed package generated from it is current.
func TestBundledTreesCheckFromRepositoryRoot(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	for _, tc := range []struct {
		version string
		args    []string
	}{
		{"2026-08-25", []string{"--out", "generated/location"}},
		{"2026-08-21", []string{"--out", "generated/location20260821", "--serve-from", "github.com/ucpgen/ucpgen/generated/location"}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			args := append([]string{"generate", "--check", "--strict", "--schemas", filepath.Join("schemas", tc.version)}, tc.args...)
			code, out, errs := ucpgen(t, args...)
			if code != 0 {
				t.Fatalf("ucpgen %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errs)
			}
			if !strings.Contains(out, "is up to date") {
				t.Errorf("stdout does not say the package is up to date: %q", out)
			}
		})
	}
}
