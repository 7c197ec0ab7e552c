package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestTreeWithoutRESTBinding is issue 30's MCP-only tree: UCP's 2026-08-25
// source/ folder has no rest.openapi.json beside its OpenRPC file. generate
// says so, naming the file it looked for, and writes the MCP package
// without rest.go; the finding is a notice, which --strict does not refuse,
// because a Business may serve MCP only.
func TestTreeWithoutRESTBinding(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	const notice = "ucpgen: notice: services/common/rest.openapi.json#: no REST binding: services/common/rest.openapi.json was looked for beside services/common/mcp.openrpc.json and is not in the tree, so only the MCP binding is generated"
	for _, strict := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "loc")
		args := []string{"generate", "--schemas", src, "--ucp-version", "2026-08-25", "--out", out}
		if strict {
			args = append(args, "--strict")
		}
		code, _, errs := ucpgen(t, args...)
		if code != exitOK || !strings.Contains(errs, notice) || strings.Contains(errs, "warning") {
			t.Errorf("strict=%v: exit %d, stderr:\n%s\nwant exit 0, the notice %q and no warning", strict, code, errs, notice)
		}
		if _, err := os.Stat(filepath.Join(out, "mcp.go")); err != nil {
			t.Errorf("strict=%v: no mcp.go: %v", strict, err)
		}
		if _, err := os.Stat(filepath.Join(out, "rest.go")); err == nil {
			t.Errorf("strict=%v: rest.go generated without a REST binding", strict)
		}
	}
	// The bundled tree has its binding: no notice.
	code, _, errs := ucpgen(t, "generate", "--out", filepath.Join(t.TempDir(), "loc"))
	if code != exitOK || strings.Contains(errs, "notice") {
		t.Errorf("bundled tree: exit %d, stderr:\n%s", code, errs)
	}
}
