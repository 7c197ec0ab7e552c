// Package loadmem bounds a source's memory while it loads a large
// dataset, without changing how the garbage collector behaves once the
// server runs.
package loadmem

import (
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// Loading is the soft memory limit while a large dataset loads. Under it
// the collector may let the heap grow by GCPercent between collections
// (few collections while the records it builds are still small); near it,
// it collects as often as it must to stay below, instead of letting the
// heap double past the records it builds.
const Loading = 1 << 30

// Largest is as high as the loading limit rises when the records built so
// far (the live heap) near Loading: a limit the live heap fills leaves the
// collector running back to back, most of the load's CPU, for a few
// hundred megabytes saved.
const Largest = 11 << 27 // 1.375 GiB

// GCPercent is the collector's growth target while a large dataset loads:
// decoding a record leaves mostly garbage, and with the default target a
// load collects (and marks every record built so far) several times more
// often than the soft limit requires, while Loading still bounds the heap.
const GCPercent = 400

// followEvery is how often the limit is compared with the live heap.
const followEvery = 20 * time.Millisecond

// active is set while a Limit is in force; a Limit called meanwhile (a
// nested or concurrent load) leaves it alone.
var active atomic.Bool

// Limit lowers the soft memory limit to Loading (never raising a lower one,
// such as GOMEMLIMIT), raising it towards Largest to stay half above
// the live heap, and raises the growth target to GCPercent (never lowering
// a higher one, or turning a disabled collector on); it returns the
// function that restores both: call it when the load is done.
func Limit() (restore func()) { return limitFrom(0) }

// LimitHeld is Limit for work done right after a load, such as writing
// what it built: the soft limit starts at the memory the process holds
// now (the runtime's, less what it has returned to the system), within
// Loading and Largest, instead of at Loading. The work then reuses the
// memory the load's garbage left free, without a collection for every
// few hundred megabytes (each marking everything the load built), and
// grows the process no further than the load did, as far as Largest.
func LimitHeld() (restore func()) { return limitFrom(held()) }

// held is the memory the runtime holds: what the soft limit counts.
func held() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// startLimit is the soft limit a load starts under: at least Loading, at
// most Largest and the limit already set (prev), and from there as high
// as want.
func startLimit(want, prev int64) int64 {
	return min(max(want, Loading), Largest, prev)
}

// limitFrom is Limit starting at startLimit(want, the limit set).
func limitFrom(want int64) (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev <= Loading || !active.CompareAndSwap(false, true) {
		return func() {}
	}
	start := startLimit(want, prev)
	debug.SetMemoryLimit(start)
	pct := debug.SetGCPercent(GCPercent)
	if pct < 0 || pct > GCPercent {
		debug.SetGCPercent(pct) // off, or already a larger target
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go follow(start, min(prev, Largest), stop, stopped)
	return func() {
		close(stop)
		<-stopped
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(prev)
		active.Store(false)
	}
}

// follow raises the soft limit from limit, up to most, to half above the
// live heap each time the live heap grows past two thirds of it, until
// stop is closed.
func follow(limit, most int64, stop <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		live := int64(sample[0].Value.Uint64())
		if want := min(most, live+live/2); want > limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
