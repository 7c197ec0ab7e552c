package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// serveFromArgs are generated/location20260821's go:generate arguments, run
// from this package's folder.
func serveFromArgs(extra ...string) []string {
	root := filepath.Join("..", "..")
	return append([]string{"generate", "--schemas", filepath.Join(root, "schemas", "2026-08-21"),
		"--out", filepath.Join(root, "generated", "location20260821"), "--package", "location20260821",
		"--serve-from", "github.com/ucpgen/ucpgen/generated/location", "--check"}, extra...)
}

// TestServeFromFlags checks --serve-from through the CLI: the committed
// older package is what it generates, from the bundled newer tree and from
// UCP's unmodified 2026-08-25 source tree alike (convert.go carries no
// prose of the newer tree), and a newer tree that is not there is a usage
// error naming the flag.
func TestServeFromFlags(t *testing.T) {
	t.Run("bundled newer tree", func(t *testing.T) {
		if code, out, errOut := ucpgen(t, serveFromArgs()...); code != 0 {
			t.Fatalf("exit %d, want 0 (fresh)\n%s%s", code, out, errOut)
		}
	})
	t.Run("unmodified upstream newer tree", func(t *testing.T) {
		src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
		code, out, errOut := ucpgen(t, serveFromArgs("--serve-from-schemas", src, "--serve-from-ucp-version", "2026-08-25")...)
		if code != 0 {
			t.Fatalf("exit %d, want 0: the upstream tree gives the same convert.go\n%s%s", code, out, errOut)
		}
	})
	t.Run("unmodified upstream older tree", func(t *testing.T) {
		src := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
		out := t.TempDir()
		args := []string{"generate", "--schemas", src, "--ucp-version", "2026-08-21", "--out", out, "--package", "location20260821",
			"--serve-from", "github.com/ucpgen/ucpgen/generated/location"}
		if code, stdout, errOut := ucpgen(t, args...); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, errOut)
		}
		// The draft's own prose changes the doc comments of types.go, never
		// the conversion surface: convert.go differs only in the header line
		// that says where the version came from.
		got, want := readBody(t, filepath.Join(out, "convert.go")), readBody(t, filepath.Join("..", "..", "generated", "location20260821", "convert.go"))
		if got != want {
			t.Errorf("convert.go from the unmodified draft differs from the committed one past its header")
		}
	})
	t.Run("newer tree missing", func(t *testing.T) {
		code, _, errOut := ucpgen(t, serveFromArgs("--serve-from-schemas", filepath.Join(t.TempDir(), "none"))...)
		if code != 2 || !strings.Contains(errOut, "--serve-from-schemas") {
			t.Fatalf("exit %d, stderr %q; want 2 naming --serve-from-schemas", code, errOut)
		}
	})
}

// readBody is a generated file without its header comment lines.
func readBody(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(data), "\n\n")
	return body
}
