// Package loadmem bounds a source's memory while it loads a large
// dataset, without changing how the garbage collector behaves once the
// server runs.
package loadmem

import "runtime/debug"

// Loading is the soft memory limit while a large dataset loads. Under it
// the collector may let the heap grow by GCPercent between collections
// (few collections while the records it builds are still small); near it,
// it collects as often as it must to stay below, instead of letting the
// heap double past the records it builds.
const Loading = 1 << 30

// GCPercent is the collector's growth target while a large dataset loads:
// decoding a record leaves mostly garbage, and with the default target a
// load collects (and marks every record built so far) several times more
// often than the soft limit requires, while Loading still bounds the heap.
const GCPercent = 400

// Limit lowers the soft memory limit to Loading (never raising a lower one,
// such as GOMEMLIMIT) and raises the growth target to GCPercent (never
// lowering a higher one, or turning a disabled collector on), and returns
// the function that restores both; call it when the load is done.
func Limit() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev <= Loading {
		return func() {}
	}
	debug.SetMemoryLimit(Loading)
	pct := debug.SetGCPercent(GCPercent)
	if pct < 0 || pct > GCPercent {
		debug.SetGCPercent(pct) // off, or already a larger target
	}
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(prev)
	}
}
