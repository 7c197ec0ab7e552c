package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// The tests that run the storefinder as a process share one build of it:
// go build links the whole server each time it is asked, even when every
// package comes from the build cache.
var built struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
	out  []byte
}

// TestMain removes the shared build after the tests ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// storefinderBinary builds this package's command once per test binary and
// returns the executable.
func storefinderBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "storefinder-bin-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "storefinder")
		if runtime.GOOS == "windows" {
			built.path += ".exe"
		}
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}
