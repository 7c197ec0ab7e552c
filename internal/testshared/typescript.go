package testshared

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TypeScriptDir is the folder, relative to the repository root, where
// .ci/run installs the official TypeScript MCP SDK and where the scripts
// that drive a server through it, an MCP client independent of the go-sdk,
// live.
const TypeScriptDir = "examples/storefinder/testdata/e2e-ts"

// RunTypeScript runs node on script, a file of TypeScriptDir, with args
// and returns what it printed. Without node or the installed SDK the test
// ends through Missing; a script that fails, or runs past a minute, fails
// the test with its stderr.
func RunTypeScript(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		Missing(t, "node is not installed")
	}
	dir := filepath.Join(RepoRoot(t), filepath.FromSlash(TypeScriptDir))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		Missing(t, "TypeScript MCP SDK not installed; run `npm ci` in %s", dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.Bytes())
	}
	return out
}
