package memory

import (
	"fmt"
	"testing"
)

// TestLRUKeepsTheMostRecent: a hit moves its key to the most recent end
// without building or allocating, and a miss past lruSize forgets the
// least recent key.
func TestLRUKeepsTheMostRecent(t *testing.T) {
	var c lru[string, int]
	builds := 0
	get := func(k string) int {
		return c.get(k, func() int { builds++; return len(k) })
	}
	for i := range lruSize {
		get(fmt.Sprint("k", i))
	}
	get("k0") // k0 becomes the most recent, k1 the least
	if builds != lruSize {
		t.Fatalf("%d builds for %d keys and one hit", builds, lruSize)
	}
	get("new") // evicts k1
	before := builds
	get("k0")
	get("k2")
	if builds != before {
		t.Fatal("a kept key was built again")
	}
	get("k1")
	if builds != before+1 {
		t.Fatal("the least recent key was kept past lruSize")
	}
	if n := testing.AllocsPerRun(100, func() { get("k0") }); n != 0 {
		t.Errorf("a hit allocates %v times", n)
	}
	var keys []string
	for _, e := range c.recent {
		keys = append(keys, e.key)
	}
	if len(keys) != lruSize || keys[len(keys)-1] != "k0" {
		t.Errorf("recent = %v", keys)
	}
}
