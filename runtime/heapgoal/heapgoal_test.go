package heapgoal

import (
	"runtime/debug"
	"testing"
)

const mib = 1 << 20

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		name     string
		live     int64
		headroom int64
		base     int
		want     int
	}{
		{"small heap: grows by the headroom", 16 * mib, 64 * mib, 100, 400},
		{"rounded up, never below the headroom", 14 * mib, 64 * mib, 100, 458},
		{"heap as large as the headroom: the base", 64 * mib, 64 * mib, 100, 100},
		{"large heap: the base", 900 * mib, 64 * mib, 100, 100},
		{"a higher base stays", 16 * mib, 64 * mib, 800, 800},
		{"no headroom: the base", 16 * mib, 0, 100, 100},
		{"negative headroom: the base", 16 * mib, -1, 100, 100},
		{"collector off stays off", 16 * mib, 64 * mib, -1, -1},
		{"nothing live yet: bounded", 0, 64 * mib, 100, MaxPercent},
		{"one byte live: bounded", 1, 64 * mib, 100, MaxPercent},
		{"huge headroom: bounded", 16 * mib, 1 << 62, 100, MaxPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Percent(tc.live, tc.headroom, tc.base); got != tc.want {
				t.Errorf("Percent(%d, %d, %d) = %d, want %d", tc.live, tc.headroom, tc.base, got, tc.want)
			}
		})
	}
}

// withTarget sets the collector's growth target for one test and puts the
// one it found back afterwards.
func withTarget(t *testing.T, pct int) {
	t.Helper()
	prev := debug.SetGCPercent(pct)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
}

func TestKeeperFollowsTheLiveHeap(t *testing.T) {
	withTarget(t, 100)
	live := int64(16 * mib)
	k := &keeper{headroom: 64 * mib, base: 100, set: 100, liveBytes: func() int64 { return live }}
	steps := []struct {
		live int64
		want int
	}{
		{16 * mib, 400}, // raised for a small heap
		{32 * mib, 200}, // lowered as it grows
		{1 << 30, 100},  // never below the target it found
		{8 * mib, 800},  // raised again when it shrinks
	}
	for _, s := range steps {
		live = s.live
		k.adjust()
		if got := current(); got != s.want {
			t.Fatalf("live %d MiB: target %d, want %d", s.live/mib, got, s.want)
		}
	}
	// Someone else sets a target: it is left alone, while kept and after.
	debug.SetGCPercent(250)
	live = 1 * mib
	k.adjust()
	if got := current(); got != 250 {
		t.Fatalf("after another target was set, adjust changed it to %d", got)
	}
	k.restore()
	if got := current(); got != 250 {
		t.Fatalf("after another target was set, restore changed it to %d", got)
	}
	// Set back to Keep's own: it is followed again, and restored at the end.
	debug.SetGCPercent(800)
	live = 16 * mib
	k.adjust()
	if got := current(); got != 400 {
		t.Fatalf("target %d, want 400", got)
	}
	k.restore()
	if got := current(); got != 100 {
		t.Fatalf("restored target %d, want 100", got)
	}
}

func TestKeepRaisesAndRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	withTarget(t, 100)
	stop := Keep(1 << 50) // far more than anything live: the bound
	if got := current(); got != MaxPercent {
		t.Errorf("kept target %d, want %d", got, MaxPercent)
	}
	stop()
	stop() // a second stop does nothing
	if got := current(); got != 100 {
		t.Errorf("target after stop %d, want 100", got)
	}
}

func TestKeepStepsAside(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      string
		target   int
		headroom int64
	}{
		{"GOGC set by the operator", "100", 100, 64 * mib},
		{"collector off", "", -1, 64 * mib},
		{"no headroom", "", 100, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.env)
			withTarget(t, tc.target)
			stop := Keep(tc.headroom)
			defer stop()
			if got := current(); got != tc.target {
				t.Errorf("target %d, want %d left alone", got, tc.target)
			}
		})
	}
}
