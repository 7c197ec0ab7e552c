package mcpserver

import (
	"net/http"
	"os"
	"regexp"
	"testing"
)

// TestHeaderKeysAreCanonical reads this package's sources for header keys
// used without canonicalising them (headerValue and direct indexing of a
// header map): each must already be canonical, or the lookup would miss a
// header the client sent ("Last-Event-ID" is stored as "Last-Event-Id").
func TestHeaderKeysAreCanonical(t *testing.T) {
	uses := regexp.MustCompile(`headerValue\([^,]+, "([^"]+)"\)|Header\["([^"]+)"\]`)
	checked := 0
	for _, name := range []string{"direct.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(src), -1) {
			key := m[1] + m[2]
			if c := http.CanonicalHeaderKey(key); c != key {
				t.Errorf("%s: header key %q is not canonical (%q)", name, key, c)
			}
			checked++
		}
	}
	if checked < 5 {
		t.Errorf("found %d header keys, want the 5 or more direct.go reads", checked)
	}
	h := http.Header{}
	h.Set("mcp-protocol-version", "2025-11-25")
	if got := headerValue(h, "Mcp-Protocol-Version"); got != "2025-11-25" {
		t.Errorf("headerValue = %q", got)
	}
	if got := headerValue(h, "Mcp-Name"); got != "" {
		t.Errorf("headerValue of an absent header = %q", got)
	}
}
