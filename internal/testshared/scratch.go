package testshared

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ScratchDir makes a folder named name in the working directory (the test's
// package, so code in it belongs to this module) and removes it when the
// test ends. The name stays the same from run to run, so a package built
// there again with the same files is found in the build cache rather than
// compiled anew. When the name is taken, see ClaimScratchDir.
func ScratchDir(t testing.TB, name string) string {
	t.Helper()
	dir := ClaimScratchDir(t, name)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// ClaimScratchDir makes the folder ScratchDir makes and leaves removing it
// to the caller, for folders that outlive one test. When the name is taken
// (another run of the same package in this checkout, or a folder a crashed
// run left), it makes a folder of a random name beginning with name
// instead: correct, but not cached. Either way the result is a clean
// relative path, fit to follow the package's import path.
func ClaimScratchDir(t testing.TB, name string) string {
	t.Helper()
	dir := name
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrExist) {
		t.Logf("scratch folder %s is taken; using a fresh one, which the build cache cannot reuse", name)
		dir, err = os.MkdirTemp(".", name+"-")
		dir = filepath.Clean(dir)
	}
	if err != nil {
		t.Fatalf("scratch folder: %v", err)
	}
	return dir
}
