// Package loadmem bounds a source's memory while it loads a large
// dataset, without changing how the garbage collector behaves once the
// server runs.
package loadmem

import "runtime/debug"

// Loading is the soft memory limit while a large dataset loads. Under it
// the collector keeps its default growth target (few collections while the
// heap is small); near it, it collects as often as it must to stay below,
// instead of letting the heap double past the records it builds.
const Loading = 1 << 30

// Limit lowers the soft memory limit to Loading (never raising a lower one,
// such as GOMEMLIMIT) and returns the function that restores the previous
// limit; call it when the load is done.
func Limit() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev <= Loading {
		return func() {}
	}
	debug.SetMemoryLimit(Loading)
	return func() { debug.SetMemoryLimit(prev) }
}
