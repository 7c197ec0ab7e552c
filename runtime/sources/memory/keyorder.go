package memory

import (
	"encoding/binary"
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
// strings.Compare, equal keys in position order: a radix sort of the
// heads, then the few runs of equal heads sorted by the rest of their keys.
func keyOrder(n int, key func(int) string) []int32 {
	shared := sharedPrefix(n, key)
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{head: headOf(key(i), shared), pos: int32(i)}
	}
	ks = sortHeads(ks)
	// The sort is stable, so a run of equal heads is in position order,
	// which a stable sort of the rest of the keys keeps for equal keys.
	for i := 0; i < n; {
		j := i + 1
		for j < n && ks[j].head == ks[i].head {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(ks[i:j], func(a, b keyed) int {
				return strings.Compare(key(int(a.pos))[shared:], key(int(b.pos))[shared:])
			})
		}
		i = j
	}
	out := make([]int32, n)
	for i, k := range ks {
		out[i] = k.pos
	}
	return out
}

// sortHeads sorts ks by head, stably, a byte at a time from the lowest
// (a least-significant-digit radix sort), skipping the bytes every head
// shares; it returns ks or a slice of the same length holding the result.
func sortHeads(ks []keyed) []keyed {
	if len(ks) < 2 {
		return ks
	}
	var counts [8][256]int
	for _, k := range ks {
		for b := range 8 {
			counts[b][byte(k.head>>(8*b))]++
		}
	}
	var tmp []keyed
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

// headOf is the eight bytes of s after its first skip bytes as a
// big-endian integer, zero-padded: integers order as the padded bytes do,
// and a shorter suffix sorts first as strings.Compare has it (a tie on the
// padding is decided by the strings).
func headOf(s string, skip int) uint64 {
	var b [8]byte
	copy(b[:], s[skip:])
	return binary.BigEndian.Uint64(b[:])
}
