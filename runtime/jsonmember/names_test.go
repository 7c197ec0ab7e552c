package jsonmember

import (
	"fmt"
	"testing"
)

// TestNames finds every repeat, among the first names (the list) and
// after many (the map), and nothing else.
func TestNames(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 40} {
		var s Names
		for i := range n {
			if s.Add(fmt.Sprint("k", i)) {
				t.Fatalf("%d names: k%d reported repeated on first sight", n, i)
			}
		}
		for i := range n {
			if !s.Add(fmt.Sprint("k", i)) {
				t.Fatalf("%d names: k%d not reported repeated", n, i)
			}
		}
		if s.Add("new") {
			t.Fatalf("%d names: a new name reported repeated", n)
		}
	}
}

func TestNamesAllocations(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		var s Names
		for _, k := range []string{"jsonrpc", "id", "method", "params"} {
			s.Add(k)
		}
	})
	if allocs != 0 {
		t.Errorf("a few names allocate %v times, want 0", allocs)
	}
}
