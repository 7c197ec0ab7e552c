package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestTreeWithoutRESTBinding is the MCP-only tree: UCP's 2026-08-25
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

// TestFlagChecks drives generate's flag validation as a user would: a
// release flag that is no calendar date, a --serve-from-* flag without
// --serve-from, and an --openrpc the bundled tree does not hold all exit 2
// with a message naming the flags and the reason, before any tree is read.
func TestFlagChecks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "loc")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"month out of range", []string{"--ucp-version", "2026-13-45"},
			[]string{`--ucp-version "2026-13-45" is not a UCP release (YYYY-MM-DD): there is no month 13`}},
		{"day out of range", []string{"--ucp-version", "2026-02-30"},
			[]string{`--ucp-version "2026-02-30" is not a UCP release (YYYY-MM-DD): 2026-02 has days 01 to 28, so there is no day 30`}},
		{"not a date at all", []string{"--ucp-version", "latest"},
			[]string{`--ucp-version "latest" is not a UCP release (YYYY-MM-DD): it is not a date written YYYY-MM-DD`}},
		{"serve-from release out of range", []string{"--serve-from", "example.com/loc", "--serve-from-ucp-version", "2026-04-31"},
			[]string{`--serve-from-ucp-version "2026-04-31" is not a UCP release (YYYY-MM-DD): 2026-04 has days 01 to 30`}},
		{"serve-from-ucp-version alone", []string{"--serve-from-ucp-version", "2026-08-25"},
			[]string{"--serve-from-ucp-version needs --serve-from", "pass --serve-from too"}},
		{"serve-from-schemas alone", []string{"--serve-from-schemas", t.TempDir()},
			[]string{"--serve-from-schemas needs --serve-from"}},
		{"serve-from-openrpc alone, even at its default", []string{"--serve-from-openrpc", "services/common/mcp.openrpc.json"},
			[]string{"--serve-from-openrpc needs --serve-from"}},
		{"an empty serve-from is no serve-from", []string{"--serve-from", "", "--serve-from-schemas", t.TempDir()},
			[]string{"--serve-from-schemas needs --serve-from"}},
		{"openrpc outside the bundled tree", []string{"--openrpc", "services/shopping/mcp.openrpc.json"},
			[]string{"--openrpc services/shopping/mcp.openrpc.json: the bundled schema tree has no such file", "pass --schemas"}},
		{"serve-from-openrpc outside the bundled tree", []string{"--serve-from", "example.com/loc", "--serve-from-openrpc", "x.json"},
			[]string{"--serve-from-openrpc x.json: the bundled schema tree has no such file", "pass --serve-from-schemas"}},
		{"serve-from-schemas missing", []string{"--serve-from", "example.com/loc", "--serve-from-schemas", filepath.Join(t.TempDir(), "none")},
			[]string{"--serve-from-schemas: ", "does not exist"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, errs := ucpgen(t, append([]string{"generate", "--out", out}, tc.args...)...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, exitBadInput, stdout, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
			if strings.Contains(errs, "--serve-from-schemas: --schemas") {
				t.Errorf("stderr names two flags for one path: %q", errs)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused command wrote %s", out)
	}

	// Package mode checks each //go:generate line the same way.
	mod := writeTree(t, map[string]string{
		"go.mod":                      "module example.com/shop\n\ngo 1.25.0\n",
		"internal/ucploc/generate.go": "package ucploc\n\n//go:generate go tool ucpgen generate --out . --package ucploc --serve-from-ucp-version 2026-08-25\n",
	})
	t.Chdir(mod)
	code, _, errs := ucpgen(t, "generate", "--check", "./...")
	if code != exitBadInput || !strings.Contains(errs, filepath.Join("internal", "ucploc", "generate.go")+":3: --serve-from-ucp-version needs --serve-from") {
		t.Errorf("package mode: exit %d, stderr %q", code, errs)
	}
}
