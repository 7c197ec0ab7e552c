package textrank

import (
	"strconv"
	"testing"
)

// TestTableNumbersKeys: keys are numbered in the order they are added,
// found again after the table has grown many times, never found when
// absent, and forgotten by reset.
func TestTableNumbersKeys(t *testing.T) {
	tb := newTable()
	const n = 50_000
	for round := range 2 {
		for i := range n {
			k := "k" + strconv.Itoa(i)
			if _, ok := tb.find(k); ok {
				t.Fatalf("round %d: %q found before it was added", round, k)
			}
			if got := tb.add(k); got != i {
				t.Fatalf("round %d: %q numbered %d, want %d", round, k, got, i)
			}
		}
		if tb.len() != n {
			t.Fatalf("round %d: %d keys, want %d", round, tb.len(), n)
		}
		for i := range n {
			k := "k" + strconv.Itoa(i)
			if got, ok := tb.find(k); !ok || got != i {
				t.Fatalf("round %d: find %q = %d, %v; want %d", round, k, got, ok, i)
			}
			if string(tb.key(i)) != k {
				t.Fatalf("round %d: key %d is %q, want %q", round, i, tb.key(i), k)
			}
		}
		for _, k := range []string{"", "k", "k50000", "k-1", "K1"} {
			if got, ok := tb.find(k); ok {
				t.Fatalf("round %d: absent %q found as %d", round, k, got)
			}
		}
		tb.reset()
		if _, ok := tb.find("k1"); ok || tb.len() != 0 {
			t.Fatalf("round %d: reset kept keys", round)
		}
	}
	if got := tb.add(""); got != 0 {
		t.Fatalf("empty key numbered %d", got)
	}
	if got, ok := tb.find(""); !ok || got != 0 {
		t.Fatalf("empty key not found: %d, %v", got, ok)
	}
}
