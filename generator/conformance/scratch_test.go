package conformance_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// The harnesses of this package are built over generated packages written
// into scratch folders of this module (a leading underscore keeps ./...
// patterns away from them). A folder is named after the files it holds, so
// the harnesses built over the same generated package import one package,
// which the build cache compiles once, in this run and in the next one.
// The folders stay until the test binary ends (TestMain removes them).
var scratch struct {
	sync.Mutex
	dirs map[string]string // folders this process made, by the name it wanted
}

// TestMain removes the scratch folders after the tests ran.
func TestMain(m *testing.M) {
	code := m.Run()
	scratch.Lock()
	for _, dir := range scratch.dirs {
		os.RemoveAll(dir)
	}
	scratch.Unlock()
	os.Exit(code)
}

// scratchFolder returns a folder of this package, named prefix and a digest
// of files, that holds exactly files (names relative to it). A folder of
// that name which this process did not make is left alone (see
// testshared.ClaimScratchDir).
func scratchFolder(t *testing.T, prefix string, files map[string][]byte) string {
	t.Helper()
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		h.Write([]byte(name + "\x00"))
		h.Write(files[name])
		h.Write([]byte{0})
	}
	name := prefix + "-" + hex.EncodeToString(h.Sum(nil))[:16]
	scratch.Lock()
	defer scratch.Unlock()
	if dir, ok := scratch.dirs[name]; ok {
		return dir
	}
	dir := testshared.ClaimScratchDir(t, name)
	if scratch.dirs == nil {
		scratch.dirs = map[string]string{}
	}
	scratch.dirs[name] = dir
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// scratchPackage writes the package pkg made of files into a scratch
// folder and returns the package's folder and its import path.
func scratchPackage(t *testing.T, pkg string, files map[string][]byte) (dir, importPath string) {
	t.Helper()
	in := map[string][]byte{}
	for name, b := range files {
		in[pkg+"/"+name] = b
	}
	root := scratchFolder(t, "_"+pkg, in)
	return filepath.Join(root, pkg), thisImportPath + "/" + root + "/" + pkg
}

// scratchMain writes a harness's main.go into a scratch folder named after
// name and returns the package pattern that builds it.
func scratchMain(t *testing.T, name string, src []byte) string {
	t.Helper()
	return "./" + scratchFolder(t, "_"+name, map[string][]byte{"main.go": src})
}
