package testshared

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/publishedtree"
)

// PublishedTree copies the UCP source/ tree at src into a temporary folder
// in the published layout that https://ucp.dev/<version>/ serves, each JSON
// file rewritten by publishedtree.Publish. Tests use it because ../shared
// holds only one file of that form.
func PublishedTree(t testing.TB, src, version string) string {
	t.Helper()
	return CopyTree(t, src, func(rel string, data []byte) []byte {
		if !strings.HasSuffix(rel, ".json") {
			return data
		}
		doc, err := publishedtree.Publish(string(data), rel, version)
		if err != nil {
			t.Fatalf("publish %s: %v", rel, err)
		}
		return []byte(doc)
	})
}

// CopyTree copies the folder src into a new temporary folder and returns
// it, passing each file's bytes through edit with the file's slash path
// (nil keeps every file as it is), so a test can change a tree without
// touching the original.
func CopyTree(t testing.TB, src string, edit func(rel string, data []byte) []byte) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if edit != nil {
			data = edit(filepath.ToSlash(rel), data)
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy of %s: %v", src, err)
	}
	return dst
}
