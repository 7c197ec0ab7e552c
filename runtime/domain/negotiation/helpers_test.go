package negotiation

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Capability names used across the tests.
const (
	capSearch = "dev.ucp.common.location.search"
	capLookup = "dev.ucp.common.location.lookup"
	v0825     = "2026-08-25"
)

// profileDoc renders a platform profile document that satisfies the platform
// schema, with the given protocol version and capabilities.
func profileDoc(t testing.TB, version string, caps map[string][]CapabilityVersion) []byte {
	t.Helper()
	capsOut := map[string][]map[string]any{}
	for name, entries := range caps {
		for _, cv := range entries {
			e := map[string]any{
				"version": cv.Version,
				"spec":    "https://example.net/spec/" + name,
				"schema":  "https://example.net/schema/" + name + ".json",
			}
			if len(cv.Extends) > 0 {
				e["extends"] = cv.Extends
			}
			capsOut[name] = append(capsOut[name], e)
		}
	}
	doc := map[string]any{
		"ucp": map[string]any{
			"version": version,
			"services": map[string]any{
				"dev.ucp.common": []any{map[string]any{
					"version":   version,
					"spec":      "https://ucp.dev/specification/overview",
					"transport": "mcp",
					"schema":    "https://ucp.dev/services/common/mcp.openrpc.json",
				}},
			},
			"capabilities":     capsOut,
			"payment_handlers": map[string]any{},
		},
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal profile: %v", err)
	}
	return raw
}

// readTestdata loads a file from this package's testdata folder.
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read testdata: %v", err)
	}
	return raw
}

// wantDiscovery asserts err is a *rpcerr.Discovery with the given code and
// returns it for further checks.
func wantDiscovery(t testing.TB, err error, code string) *rpcerr.Discovery {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want discovery error %s", code)
	}
	d, ok := rpcerr.AsDiscovery(err)
	if !ok {
		t.Fatalf("got %T %v, want *rpcerr.Discovery %s", err, err, code)
	}
	if d.Code != code {
		t.Fatalf("got discovery code %s (%s; cause %v), want %s", d.Code, d.Content, d.Cause, code)
	}
	if strings.TrimSpace(d.Content) == "" {
		t.Fatalf("discovery error %s has no content", code)
	}
	return d
}

// fakeClock is a settable clock for cache lifetime tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// waitFor polls cond until it holds; the deadline only stops a broken test
// from hanging and is not a performance assertion.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// errString returns "" for nil so table tests can print errors uniformly.
func errString(err error) string {
	if err == nil {
		return ""
	}
	var d *rpcerr.Discovery
	if errors.As(err, &d) {
		return d.Code + ": " + d.Content
	}
	return err.Error()
}
