// Package keyorder sorts a million records by a string key in tens of
// milliseconds, for the loads that put records in id order and check that
// no identifier is used twice.
package keyorder

import (
	"cmp"
	"slices"
	"strings"
)

// keyed is a position with eight bytes of its key, big-endian and
// zero-padded, so comparing two keys mostly compares two integers rather
// than two strings in memory.
type keyed struct {
	head uint64
	pos  int32
}

// smallRun is the longest run of equal heads sorted by comparing whole
// keys; a longer one is sorted by its next eight bytes first.
const smallRun = 32

// Of returns the positions 0..n-1 sorted by key(pos) in the order of
// strings.Compare, equal keys in position order: a radix sort of the
// eight bytes after the prefix every key shares, then each run of equal
// heads by the next eight bytes, until a run is short enough to compare.
func Of(n int, key func(int) string) []int32 {
	shared := sharedPrefix(n, key)
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{head: headOf(key(i), shared), pos: int32(i)}
	}
	ks = sortHeads(ks, nil)
	refineRuns(ks, key, shared, shared+8, nil)
	out := make([]int32, n)
	for i, k := range ks {
		out[i] = k.pos
	}
	return out
}

// refineRuns refines each run of equal heads in ks (sorted by head) at
// depth; tmp is scratch space it may grow and returns.
func refineRuns(ks []keyed, key func(int) string, shared, depth int, tmp []keyed) []keyed {
	for i := 0; i < len(ks); {
		j := i + 1
		for j < len(ks) && ks[j].head == ks[i].head {
			j++
		}
		if j-i > 1 {
			tmp = refine(ks[i:j], key, shared, depth, tmp)
		}
		i = j
	}
	return tmp
}

// refine sorts run, whose keys agree on every byte before depth (with
// zero padding), by key, stably; keys agree on their first shared bytes
// unpadded. tmp is scratch space it may grow and returns.
func refine(run []keyed, key func(int) string, shared, depth int, tmp []keyed) []keyed {
	longest := 0
	for k := range run {
		s := key(int(run[k].pos))
		longest = max(longest, len(s))
		run[k].head = headOf(s, depth)
	}
	if len(run) <= smallRun || longest <= depth+8 {
		// Short, or no key has a byte left past these eight: the next
		// eight bytes, then whole keys (which then differ at most in
		// trailing zero bytes).
		slices.SortStableFunc(run, func(a, b keyed) int {
			if a.head != b.head {
				return cmp.Compare(a.head, b.head)
			}
			return strings.Compare(key(int(a.pos))[shared:], key(int(b.pos))[shared:])
		})
		return tmp
	}
	tmp = slices.Grow(tmp[:0], len(run))[:len(run)]
	if sorted := sortHeads(run, tmp); &sorted[0] != &run[0] {
		copy(run, sorted)
	}
	return refineRuns(run, key, shared, depth+8, tmp)
}

// sortHeads sorts ks by head, stably, a byte at a time from the lowest
// (a least-significant-digit radix sort), skipping the bytes every head
// shares; it returns ks or tmp (allocated when nil, else as long as ks)
// holding the result.
func sortHeads(ks, tmp []keyed) []keyed {
	if len(ks) < 2 {
		return ks
	}
	var counts [8][256]int
	for _, k := range ks {
		for b := range 8 {
			counts[b][byte(k.head>>(8*b))]++
		}
	}
	for b := range 8 {
		if counts[b][byte(ks[0].head>>(8*b))] == len(ks) {
			continue // every head has this byte: the pass would change nothing
		}
		if tmp == nil {
			tmp = make([]keyed, len(ks))
		}
		var at [256]int
		sum := 0
		for v, c := range counts[b] {
			at[v], sum = sum, sum+c
		}
		for _, k := range ks {
			d := byte(k.head >> (8 * b))
			tmp[at[d]] = k
			at[d]++
		}
		ks, tmp = tmp, ks
	}
	return ks
}

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

// headOf is the eight bytes of s from byte skip on as a big-endian
// integer, zero-padded (zero when s ends before skip): integers order as
// the padded bytes do, and a shorter key sorts first as strings.Compare
// has it (a tie on the padding is decided by the keys).
func headOf(s string, skip int) uint64 {
	if skip+8 <= len(s) {
		t := s[skip : skip+8] // one load, byte-swapped: the compiler merges these
		return uint64(t[0])<<56 | uint64(t[1])<<48 | uint64(t[2])<<40 | uint64(t[3])<<32 |
			uint64(t[4])<<24 | uint64(t[5])<<16 | uint64(t[6])<<8 | uint64(t[7])
	}
	var h uint64
	for i := skip; i < skip+8; i++ {
		h <<= 8
		if i < len(s) {
			h |= uint64(s[i])
		}
	}
	return h
}
