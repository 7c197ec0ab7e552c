package loadmem

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestStartLimit: a load starts at Loading, or at the memory held when
// that is more, never above Largest or a lower limit already set.
func TestStartLimit(t *testing.T) {
	cases := []struct {
		name       string
		want, prev int64
		start      int64
	}{
		{"nothing held", 0, math.MaxInt64, Loading},
		{"less than Loading held", Loading / 2, math.MaxInt64, Loading},
		{"more than Loading held", Loading + 100<<20, math.MaxInt64, Loading + 100<<20},
		{"more than Largest held", Largest + 1, math.MaxInt64, Largest},
		{"a lower limit set", Largest, Loading + 1<<20, Loading + 1<<20},
	}
	for _, tc := range cases {
		if got := startLimit(tc.want, tc.prev); got != tc.start {
			t.Errorf("%s: startLimit(%d, %d) = %d, want %d", tc.name, tc.want, tc.prev, got, tc.start)
		}
	}
}

// TestLimitHeld: while a LimitHeld is in force the soft limit is within
// Loading and Largest, and both settings come back afterwards.
func TestLimitHeld(t *testing.T) {
	prevLimit, prevPct := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	debug.SetGCPercent(prevPct)
	if held() <= 0 {
		t.Fatal("no memory held")
	}
	restore := LimitHeld()
	got := debug.SetMemoryLimit(-1)
	restore()
	if prevLimit > Loading && (got < Loading || got > Largest) {
		t.Errorf("limit %d, want within %d and %d", got, int64(Loading), int64(Largest))
	}
	if l, p := debug.SetMemoryLimit(-1), debug.SetGCPercent(prevPct); l != prevLimit || p != prevPct {
		t.Errorf("after restore: limit %d, GC percent %d; want %d, %d", l, p, prevLimit, prevPct)
	}
}
