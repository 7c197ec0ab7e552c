// Package heapgoal keeps the garbage collector's heap goal a fixed
// headroom above the live heap, so that a server whose live heap is small
// is not collected every few hundred requests.
//
// With Go's default growth target (GOGC=100) the heap may grow by as much
// as is live between two collections. A server holding 14 MB answers about
// a thousand requests between collections and spends a tenth of its CPU
// marking; one holding a gigabyte is unaffected. Keep raises the growth
// target while the live heap is smaller than the headroom, so the heap may
// always grow by at least the headroom, and lowers it back, down to the
// target it found, as the live heap grows. A soft memory limit (GOMEMLIMIT)
// still bounds the heap whatever the target, so Keep never lets the process
// grow past a limit the operator set.
package heapgoal

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// DefaultHeadroom is the headroom a server keeps unless told otherwise:
// enough for thousands of requests between collections, and small beside
// the memory a machine serving them has.
const DefaultHeadroom = 64 << 20

// every is how often Keep compares the growth target with the live heap.
const every = 250 * time.Millisecond

// Percent is the growth target (GOGC) that lets a heap of live bytes grow
// by at least headroom before the next collection, and never below base.
// live below one byte counts as one; the result is at most MaxPercent.
func Percent(live, headroom int64, base int) int {
	if headroom <= 0 || base < 0 {
		return base
	}
	live = max(live, 1)
	// Rounded up, so that the growth is never below the headroom.
	p := math.Ceil(float64(headroom) * 100 / float64(live))
	return max(base, int(min(p, MaxPercent)))
}

// MaxPercent bounds the target Keep sets, far below where the runtime's
// 32-bit target would wrap: a heap of 64 KiB live with 64 MiB of headroom.
const MaxPercent = 100_000

// Keep starts keeping the heap goal at least headroom above the live heap
// and returns the function that stops it and restores the target it
// found. It does nothing, and returns a no-op, when headroom is not
// positive, when the GOGC environment variable is set (the operator chose
// the target) or when the collector is off.
//
// While kept, a target set by someone else (debug.SetGCPercent, such as a
// bulk load raising it for a while) is left alone until it is set back.
func Keep(headroom int64) (stop func()) {
	if headroom <= 0 || os.Getenv("GOGC") != "" {
		return func() {}
	}
	base := current()
	if base < 0 {
		return func() {}
	}
	k := &keeper{headroom: headroom, base: base, set: base, liveBytes: liveBytes}
	k.adjust()
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				k.adjust()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			<-stopped
			k.restore()
		})
	}
}

// keeper is the state of one Keep: the target it found (base) and the one
// it set last.
type keeper struct {
	headroom  int64
	base      int
	set       int
	liveBytes func() int64
}

// adjust sets the target for the live heap now, unless someone else has
// changed it since Keep last set it.
func (k *keeper) adjust() {
	if current() != k.set {
		return
	}
	want := Percent(k.liveBytes(), k.headroom, k.base)
	if want != k.set {
		debug.SetGCPercent(want)
		k.set = want
	}
}

// restore puts back the target Keep found, unless someone else has changed
// it since Keep last set it.
func (k *keeper) restore() {
	if current() == k.set {
		debug.SetGCPercent(k.base)
	}
}

// current is the growth target in force (-1: the collector is off).
func current() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return -1
	}
	// The runtime reports its 32-bit target as it is stored, so off (-1)
	// reads as a very large number.
	v := s[0].Value.Uint64()
	if v > math.MaxInt32 {
		return -1
	}
	return int(v)
}

// liveBytes is the heap the last collection found live.
func liveBytes() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(s[0].Value.Uint64(), math.MaxInt64))
}
