package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackagePatterns runs generate in package mode over a small module:
// the //go:generate lines of the matched packages decide what is checked,
// a hand edit makes --check exit 1 with a diff, and patterns that match no
// ucpgen line, or flags that would override the lines, are refused.
func TestPackagePatterns(t *testing.T) {
	mod := writeTree(t, map[string]string{
		"go.mod":                        "module example.com/shop\n\ngo 1.25.0\n",
		"internal/ucploc/generate.go":   "// Package ucploc is generated.\npackage ucploc\n\n//go:generate go tool ucpgen generate --out . --package ucploc\n",
		"internal/other/other.go":       "package other\n\n//go:generate stringer -type T\n",
		"testdata/ignored/generate.go":  "package ignored\n\n//go:generate go tool ucpgen generate --out . --package broken-name\n",
		"nested/go.mod":                 "module example.com/nested\n",
		"nested/ucploc/generate.go":     "package ucploc\n\n//go:generate go tool ucpgen generate --out . --package broken-name\n",
		"quoted/generate.go":            "package quoted\n\n//go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate \"--out\" ./gen --package gen\n",
		"quoted/gen/placeholder.go.txt": "",
	})
	t.Chdir(mod)
	if code, _, errs := ucpgen(t, "generate", "--strict", "./..."); code != exitOK {
		t.Fatalf("generate ./...: exit %d\n%s", code, errs)
	}
	for _, f := range []string{"internal/ucploc/types.go", "quoted/gen/types.go"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("generate ./... did not write %s: %v", f, err)
		}
	}
	code, out, errs := ucpgen(t, "generate", "--check", "--strict", "./...")
	if code != exitOK || !strings.Contains(out, filepath.Join("internal", "ucploc")+" is up to date") {
		t.Fatalf("fresh: exit %d\n%s%s", code, out, errs)
	}

	types := filepath.Join("internal", "ucploc", "types.go")
	b, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(types, append(b, "// hand edit\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = ucpgen(t, "generate", "--check", "--strict", "./...")
	if code != exitStale || !strings.Contains(out, "-// hand edit") || !strings.Contains(errs, "types.go differs") {
		t.Errorf("after a hand edit: exit %d\n%s%s", code, out, errs)
	}
	code, _, _ = ucpgen(t, "generate", "--check", "./quoted/...")
	if code != exitOK {
		t.Errorf("./quoted/... only: exit %d, want 0 (the stale package is not matched)", code)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"./internal/other"}, "no //go:generate line in ./internal/other runs ucpgen generate"},
		{[]string{"--out", "x", "./..."}, "--out cannot be combined with package patterns"},
		{[]string{"example.com/shop/..."}, "give a folder pattern"},
		{[]string{"./missing/..."}, "is not a folder"},
	} {
		code, _, errs := ucpgen(t, append([]string{"generate", "--check"}, tc.args...)...)
		if code != exitBadInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}
