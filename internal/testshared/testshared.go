// Package testshared locates the reference material that sits beside a
// development checkout in ../shared, so tests that compare against upstream
// files can run there, skip cleanly in a user's checkout, and fail loudly in
// the project's own CI.
//
// "The project's own CI" is keyed on UCPGEN_CI, which .ci/run sets, and never
// on CI: GitHub Actions sets CI=true in every fork, where ../shared does not
// exist, and a fork's run must stay green.
package testshared

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// CIVar names the environment variable that .ci/run sets to 1; when it is
// non-empty, a missing component (../shared, node, npm packages, PostgreSQL)
// fails the test instead of skipping it.
const CIVar = "UCPGEN_CI"

// InCI reports whether the test runs under the project's own CI (UCPGEN_CI
// non-empty), where every component a test needs must be present.
func InCI() bool { return os.Getenv(CIVar) != "" }

// Missing ends the test because a component it needs is absent: it fails
// under UCPGEN_CI, where the component must exist, and skips with the
// message otherwise, so a user's clone or a fork's CI stays green.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (%s is set, so this component is required)", msg, CIVar)
	}
	t.Skipf("skipping: %s (set %s=1 to make this a failure)", msg, CIVar)
}

// Root returns the absolute path of the shared reference folder, or ends
// the test through Missing when it is absent, because a user's clone of
// ucpgen never has it but the project's CI always must.
func Root(t testing.TB) string {
	t.Helper()
	start, ok := sourceDir()
	if !ok {
		Missing(t, "cannot locate the testshared source directory")
		return ""
	}
	return rootFrom(t, start)
}

// rootFrom is Root starting the search at start; tests point it at a
// folder with no shared sibling to prove the skip-or-fail rule.
func rootFrom(t testing.TB, start string) string {
	t.Helper()
	dir, ok := find(start)
	if !ok {
		Missing(t, "../shared reference folder not found beside the repository (only development checkouts have it)")
		return ""
	}
	return dir
}

// Path joins elements onto Root and checks that the result exists, with the
// same skip-or-fail rule, so a test names the exact file it depends on.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Root(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(t, "shared reference file missing: %v", err)
	}
	return p
}

// sourceDir is the directory of this source file, inside the repository.
func sourceDir() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	return filepath.Dir(file), true
}

// find walks up from start to the repository root (the folder holding
// go.mod) and looks for a sibling named shared.
func find(start string) (string, bool) {
	dir := start
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if st, err := os.Stat(shared); err == nil && st.IsDir() {
		return shared, true
	}
	return "", false
}

// Extract follows an example annotation's "$.a.b" path into payload, the
// part of an MCP envelope that holds the UCP value; "" returns payload.
func Extract(t testing.TB, payload json.RawMessage, path string) json.RawMessage {
	t.Helper()
	if path == "" {
		return payload
	}
	cur := payload
	for _, key := range strings.Split(strings.TrimPrefix(path, "$."), ".") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(cur, &m); err != nil {
			t.Fatalf("extract %s: %v", path, err)
		}
		next, ok := m[key]
		if !ok {
			t.Fatalf("extract %s: no member %q", path, key)
		}
		cur = next
	}
	return cur
}

// Optional returns the path of a shared file or folder and whether it
// exists, for material a test can use when present and do without
// otherwise, such as extra fuzz seeds. It never skips; like Root, it fails
// the test when the material is missing and UCPGEN_CI is set, because the
// project's CI must always run with it.
func Optional(t testing.TB, elem ...string) (string, bool) {
	t.Helper()
	start, ok := sourceDir()
	var dir string
	if ok {
		dir, ok = find(start)
	}
	if ok {
		p := filepath.Join(append([]string{dir}, elem...)...)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	if InCI() {
		t.Fatalf("shared reference material %s missing; %s is set, so ../shared must be provided", filepath.Join(elem...), CIVar)
	}
	return "", false
}

// RaceCases is all in a plain test binary and few under the race
// detector: a heavy table-driven test names, beside its whole matrix, the
// few cases that run its concurrent path, which is all a race needs; the
// plain pass still runs the whole matrix.
func RaceCases[T any](all, few []T) []T {
	if Race {
		return few
	}
	return all
}
