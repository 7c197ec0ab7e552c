package testshared

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// outcome records how a helper ended a test: skipped, failed or returned.
type outcome struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (o *outcome) Helper() {}

func (o *outcome) Skipf(format string, args ...any) {
	o.skipped, o.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (o *outcome) Fatalf(format string, args ...any) {
	o.failed, o.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// runHelper calls f on a recording TB in its own goroutine, because Skipf
// and Fatalf end that goroutine the way the testing package does.
func runHelper(t *testing.T, f func(tb testing.TB)) *outcome {
	o := &outcome{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(o)
	}()
	<-done
	return o
}

func TestMissingSharedSkipsOrFailsOnUCPGENCI(t *testing.T) {
	// A repository root (it has go.mod) with no shared folder beside it.
	parent := t.TempDir()
	repo := filepath.Join(parent, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "internal", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/repo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := filepath.Join(repo, "internal", "x")
	for _, tc := range []struct {
		name, ucpgenCI, ci string
		wantFail           bool
	}{
		{"user clone", "", "", false},
		{"fork on GitHub Actions (CI=true only)", "", "true", false},
		{"project CI", "1", "", true},
		{"project CI on GitHub Actions", "1", "true", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(CIVar, tc.ucpgenCI)
			t.Setenv("CI", tc.ci)
			o := runHelper(t, func(tb testing.TB) { rootFrom(tb, start) })
			if o.failed != tc.wantFail || o.skipped == tc.wantFail {
				t.Fatalf("failed=%v skipped=%v (%q), want failed=%v", o.failed, o.skipped, o.msg, tc.wantFail)
			}
			if !strings.Contains(o.msg, "../shared") {
				t.Fatalf("message does not name ../shared: %q", o.msg)
			}
		})
	}
}

func TestSharedFoundBesideRepository(t *testing.T) {
	parent := t.TempDir()
	repo := filepath.Join(parent, "repo")
	for _, d := range []string{filepath.Join(repo, "a"), filepath.Join(parent, "shared")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/repo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(CIVar, "1")
	var got string
	o := runHelper(t, func(tb testing.TB) { got = rootFrom(tb, filepath.Join(repo, "a")) })
	if o.failed || o.skipped || got != filepath.Join(parent, "shared") {
		t.Fatalf("rootFrom = %q (failed=%v skipped=%v %q)", got, o.failed, o.skipped, o.msg)
	}
}

func TestMissingComponent(t *testing.T) {
	for _, v := range []string{"", "1"} {
		t.Setenv(CIVar, v)
		o := runHelper(t, func(tb testing.TB) { Missing(tb, "node is not installed") })
		if want := v != ""; o.failed != want || o.skipped == want || !strings.Contains(o.msg, "node is not installed") {
			t.Fatalf("%s=%q: failed=%v skipped=%v %q", CIVar, v, o.failed, o.skipped, o.msg)
		}
	}
}

// TestScratchDirKeepsItsNameUnlessTaken: the folder has the same name in
// every run, so the build cache can reuse what was compiled in it; a taken
// name yields another folder rather than a shared one; both are removed.
func TestScratchDirKeepsItsNameUnlessTaken(t *testing.T) {
	t.Chdir(t.TempDir())
	var first, second string
	t.Run("free", func(t *testing.T) {
		first = ScratchDir(t, "_scratch")
		t.Run("taken", func(t *testing.T) { second = ScratchDir(t, "_scratch") })
	})
	if first != "_scratch" {
		t.Errorf("free name: folder %q, want _scratch", first)
	}
	if second == first || !strings.HasPrefix(second, "_scratch-") {
		t.Errorf("taken name: folder %q, want a fresh _scratch-… folder", second)
	}
	for _, dir := range []string{first, second} {
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind after its test: %v", dir, err)
		}
	}
}
