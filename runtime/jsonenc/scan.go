package jsonenc

import "math/bits"

// Eight bytes at a time, a word tells where the next byte is that a JSON
// string cannot copy as it is: the word's flag bits mark every byte below
// 0x20, '"', '\\', '<', '>', '&' and every byte of 0x80 or more. Flags
// above the lowest one may be false (a borrow carries into the next byte),
// but the lowest flag is always exact, and only the lowest one is used.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroFlags flags the zero bytes of x; its lowest flag is exact.
func zeroFlags(x uint64) uint64 { return (x - ones) &^ x & highs }

// unsafeFlags flags the bytes of v (eight string bytes, the first in the
// lowest bits) that stop a copy; its lowest flag is exact.
func unsafeFlags(v uint64) uint64 {
	control := (v - 0x20*ones) &^ v & highs
	// '"' (0x22) and '&' (0x26) differ in bit 0x04 only, as do '<' (0x3C)
	// and '>' (0x3E) in bit 0x02, so each pair is one test.
	quoteAmp := zeroFlags((v ^ 0x22*ones) &^ (0x04 * ones))
	angle := zeroFlags((v ^ 0x3C*ones) &^ (0x02 * ones))
	backslash := zeroFlags(v ^ 0x5C*ones)
	return control | quoteAmp | angle | backslash | v&highs
}

// load8 reads eight bytes of s from i on, the first in the lowest bits.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// safeRun returns the index of the first byte of s at or after i that is not
// safe ASCII (see safe), or len(s).
func safeRun(s string, i int) int {
	for i+8 <= len(s) {
		if m := unsafeFlags(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(s) && s[i] < 0x80 && safe[s[i]] {
		i++
	}
	return i
}
