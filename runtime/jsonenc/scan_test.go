package jsonenc

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// firstUnsafe is safeRun's meaning, a byte at a time.
func firstUnsafe(s string, i int) int {
	for i < len(s) && s[i] < utf8.RuneSelf && safe[s[i]] {
		i++
	}
	return i
}

// TestUnsafeFlagsLowestIsExact holds the word test to the byte table: the
// lowest flag of every word names the first byte the table does not call
// safe, for every byte value at every position behind safe bytes and
// before arbitrary ones, and for random words.
func TestUnsafeFlagsLowestIsExact(t *testing.T) {
	check := func(w [8]byte) {
		t.Helper()
		s := string(w[:])
		want := firstUnsafe(s, 0)
		got := 8
		if m := unsafeFlags(load8(s, 0)); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != want {
			t.Fatalf("word %q: first unsafe byte %d, want %d", s, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			for _, after := range []byte{0x00, 0x01, 0x21, 0x22, 0xff} {
				w := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
				w[pos] = byte(c)
				for k := pos + 1; k < 8; k++ {
					w[k] = after
				}
				check(w)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var w [8]byte
		for k := range w {
			// Mostly printable ASCII, as in real text, with every value possible.
			if r.IntN(4) == 0 {
				w[k] = byte(r.IntN(256))
			} else {
				w[k] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(w)
	}
}

// TestEscapesAtEveryOffset puts each escape and multi-byte rune at every
// offset of a word and across word ends, so the word-at-a-time loops meet
// them in every position: AppendString must stay encoding/json's bytes and
// AppendJSONAsString AppendString's.
func TestEscapesAtEveryOffset(t *testing.T) {
	specials := []string{`"`, `\`, "<", ">", "&", "\n", "\x00", "\x1f", "\x7f", "é", "\u20ac", "\U0001F600",
		"\u2028", "\u2029", "\xe2\x80", "\xff", "\xc3", "\xed\xa0\x80", `\"`, `""`}
	for _, sp := range specials {
		for pre := range 18 {
			for post := range 10 {
				s := strings.Repeat("p", pre) + sp + strings.Repeat("q", post)
				if got, want := AppendString([]byte("x"), s), append([]byte("x"), marshal(t, s)...); !bytes.Equal(got, want) {
					t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
				}
				value, _ := json.Marshal(s)
				for _, in := range [][]byte{value, []byte(s)} {
					if got, want := AppendJSONAsString([]byte("x"), in), AppendString([]byte("x"), string(in)); !bytes.Equal(got, want) {
						t.Fatalf("AppendJSONAsString(%q) = %q, want %q", in, got, want)
					}
				}
			}
		}
	}
}
