package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestUCPVersionFlag is the CLI side of issue 21's layouts: UCP's source/
// tree, which states no version, generates with --ucp-version and is
// refused without it by an error naming the flag; a flag that disagrees
// with the tree, or is not a release, is refused naming both.
func TestUCPVersionFlag(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	pub := testshared.PublishedTree(t, src, "2026-08-25")
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in stderr, or in mcp.go's header when code is 0
		notWant string
	}{
		{name: "source with the flag", args: []string{"--schemas", src, "--ucp-version", "2026-08-25", "--strict"},
			want: "// UCP version: 2026-08-25 (--ucp-version)\n"},
		{name: "source without the flag", args: []string{"--schemas", src}, code: exitBadInput,
			want: "pass --ucp-version YYYY-MM-DD"},
		{name: "source without the flag under --strict", args: []string{"--schemas", src, "--strict"}, code: exitBadInput,
			want: "--ucp-version"},
		{name: "a draft is not a release", args: []string{"--schemas", src, "--ucp-version", "draft"}, code: exitBadInput,
			want: `--ucp-version "draft" is not a UCP release (YYYY-MM-DD)`},
		{name: "published layout", args: []string{"--schemas", pub, "--strict"},
			want: "// UCP version: 2026-08-25 (info.version of services/common/mcp.openrpc.json)\n", notWant: "warning"},
		{name: "published layout with the same flag", args: []string{"--schemas", pub, "--ucp-version", "2026-08-25"},
			want: "// UCP version: 2026-08-25 (--ucp-version, matching info.version of"},
		{name: "published layout with another flag", args: []string{"--schemas", pub, "--ucp-version", "2026-09-01"}, code: exitBadInput,
			want: `stated twice, differently: "2026-09-01" by --ucp-version and "2026-08-25" by info.version of services/common/mcp.openrpc.json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "loc")
			code, _, errs := ucpgen(t, append([]string{"generate", "--out", out}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errs)
			}
			got := errs
			if code == 0 {
				b, err := os.ReadFile(filepath.Join(out, "mcp.go"))
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
				if !strings.Contains(got, `const ProtocolVersion = "2026-08-25"`) {
					t.Error("mcp.go does not name 2026-08-25 as its ProtocolVersion")
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q in:\n%.600s", tc.want, got)
			}
			if tc.notWant != "" && strings.Contains(errs, tc.notWant) {
				t.Errorf("stderr has %q:\n%s", tc.notWant, errs)
			}
		})
	}
}
