package testshared

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/version"
)

// RepoRoot is the folder holding ucpgen's go.mod above the test's working
// directory, so a test that copies or publishes the checkout finds it from
// any package.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module "+version.ModulePath+"\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("ucpgen's go.mod not found above the test directory")
		}
		dir = parent
	}
}

// GoOutput runs a go command in dir with env (nil keeps the test's own)
// and fails the test with its output if it fails, so a build step reads as
// one line; a generous timeout guards only against a hang.
func GoOutput(t testing.TB, goBin, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s (in %s): %v\n%s%s", strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out)
}

// ModuleFiles lists the files a module zip of the checkout at root holds:
// what git tracks or would track (the working tree's content, so
// uncommitted edits are tested too), minus nested modules and vendor
// folders, as the go command's zip rules exclude them.
func ModuleFiles(t testing.TB, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		Missing(t, "cannot list the checkout's files with git (%v); the test needs a git checkout", err)
	}
	all := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	var nested []string
	for _, f := range all {
		if f != "go.mod" && strings.HasSuffix(f, "/go.mod") {
			nested = append(nested, strings.TrimSuffix(f, "go.mod"))
		}
	}
	var files []string
	seen := map[string]bool{}
next:
	for _, f := range all {
		if f == "" || seen[f] || strings.HasPrefix(f, "vendor/") || strings.Contains(f, "/vendor/") {
			continue
		}
		for _, n := range nested {
			if strings.HasPrefix(f, n) {
				continue next
			}
		}
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err != nil || !st.Mode().IsRegular() {
			continue
		}
		seen[f] = true
		files = append(files, f)
	}
	return files
}
