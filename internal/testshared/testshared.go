// Package testshared locates the reference material that sits beside a
// development checkout in ../shared, so tests that compare against upstream
// files can run there, skip cleanly in a user's checkout, and fail loudly in CI.
package testshared

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Root returns the absolute path of the shared reference folder, or skips the
// test (fails it when the CI environment variable is set) when it is missing,
// because a user's clone of ucpgen never has it but CI always must.
func Root(t testing.TB) string {
	t.Helper()
	dir, ok := find()
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatalf("../shared reference folder not found beside the repository; CI must provide it")
		}
		t.Skip("skipping: ../shared reference folder not found beside the repository (only development checkouts have it)")
	}
	return dir
}

// Path joins elements onto Root and checks that the result exists, with the
// same skip-or-fail rule, so a test names the exact file it depends on.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Root(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared reference file missing: %v", err)
		}
		t.Skipf("skipping: shared reference file missing: %v", err)
	}
	return p
}

// find walks up from this source file to the repository root (the folder
// holding go.mod) and looks for a sibling named shared.
func find() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	dir := filepath.Dir(file)
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
// the test when the material is missing and the CI environment variable is
// set, because CI must always run with it.
func Optional(t testing.TB, elem ...string) (string, bool) {
	t.Helper()
	dir, ok := find()
	if ok {
		p := filepath.Join(append([]string{dir}, elem...)...)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("shared reference material %s missing; CI must provide ../shared", filepath.Join(elem...))
	}
	return "", false
}
