package memory

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
)

// keyed is a position with the eight bytes of its key that follow the
// prefix every key shares, big-endian and zero-padded, so comparing two
// keys mostly compares two integers rather than two strings in memory.
type keyed struct {
	head uint64
	pos  int32
}

// keyOrder returns the positions 0..n-1 sorted by key(pos) in the order of
// strings.Compare, equal keys in position order; parts are sorted on every
// core and then merged.
func keyOrder(n int, key func(int) string) []int32 {
	shared := sharedPrefix(n, key)
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{head: headOf(key(i), shared), pos: int32(i)}
	}
	less := func(a, b keyed) int {
		if c := cmp.Compare(a.head, b.head); c != 0 {
			return c
		}
		if c := strings.Compare(key(int(a.pos))[shared:], key(int(b.pos))[shared:]); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	}
	parts := max(1, min(runtime.GOMAXPROCS(0), n/sortPartFrom))
	runs := make([][]keyed, parts)
	fns := make([]func(), parts)
	for k := range parts {
		runs[k] = ks[n*k/parts : n*(k+1)/parts]
		fns[k] = func() { slices.SortFunc(runs[k], less) }
	}
	together(fns...)
	for len(runs) > 1 {
		runs = append(runs[2:], mergeRuns(runs[0], runs[1], less))
	}
	out := make([]int32, n)
	for i, k := range runs[0] {
		out[i] = k.pos
	}
	return out
}

// sortPartFrom is the fewest keys per part worth a goroutine of its own
// when sorting.
const sortPartFrom = 1 << 14

// sharedPrefix is the length of the prefix all n keys share.
func sharedPrefix(n int, key func(int) string) int {
	if n == 0 {
		return 0
	}
	first := key(0)
	shared := len(first)
	for i := 1; i < n && shared > 0; i++ {
		k := key(i)
		j := 0
		for j < shared && j < len(k) && k[j] == first[j] {
			j++
		}
		shared = j
	}
	return shared
}

// headOf is the eight bytes of s after its first skip bytes as a
// big-endian integer, zero-padded: integers order as the padded bytes do,
// and a shorter suffix sorts first as strings.Compare has it (a tie on the
// padding is decided by the strings).
func headOf(s string, skip int) uint64 {
	var b [8]byte
	copy(b[:], s[skip:])
	return binary.BigEndian.Uint64(b[:])
}

// mergeRuns merges two sorted runs into a new one, a's first on a tie.
func mergeRuns(a, b []keyed, less func(a, b keyed) int) []keyed {
	out := make([]keyed, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
