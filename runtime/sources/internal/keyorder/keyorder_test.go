package keyorder

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOfIsStringOrder: Of sorts as a stable sort by strings.Compare
// does, for keys that share long prefixes, differ only past their first
// eight or sixteen bytes in runs long enough to be refined by radix, are
// prefixes of one another, differ only in trailing zero bytes, hold zero
// bytes or repeat.
func TestOfIsStringOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	random := func(n int, alphabet string, prefix string, maxLen int) []string {
		out := make([]string, n)
		for i := range out {
			var b strings.Builder
			b.WriteString(prefix)
			for range r.IntN(maxLen + 1) {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			out[i] = b.String()
		}
		return out
	}
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"empty", nil},
		{"one", []string{"loc_1"}},
		{"ids", random(50_000, "0123456789abcdef", "loc_", 12)},
		{"long shared prefix", random(3000, "ab", "store-0000000000-", 14)},
		{"prefixes and zero bytes", random(3000, "a\x00", "", 10)},
		{"repeats", random(3000, "xy", "k", 3)},
		{"store numbers", storeNumbers(r, 30_000)},
		{"long runs past sixteen bytes", append(random(5000, "ab", "x-0123456789abcdef-", 6), random(100, "ab", "y-", 3)...)},
		{"mixed shared middles", append(random(2000, "ab", "p", 20), random(2000, "ab", "p0123456789abcdefgh", 4)...)},
		{"trailing zero bytes in a long run", trailingZeros(r, 400)},
		{"all equal", []string{"same", "same", "same"}},
		{"empty strings", []string{"", "b", "", "a", ""}},
	} {
		want := make([]int32, len(tc.keys))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(tc.keys[a], tc.keys[b]) })
		got := Of(len(tc.keys), func(i int) string { return tc.keys[i] })
		if !slices.Equal(got, want) {
			t.Errorf("%s: order differs from strings.Compare's: %v", tc.name, fmt.Sprint(got[:min(len(got), 10)]))
		}
	}
}

// storeNumbers is the aliases a generated dataset gives its stores
// ("store-0001" on), shuffled: runs of tens of thousands of keys share
// their first eight bytes.
func storeNumbers(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("store-%04d", i+1)
	}
	r.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// trailingZeros is n keys that pad to the same heads at every depth
// ("key-abc" followed by zero to two zero bytes, past byte eight and past
// byte sixteen), shuffled.
func trailingZeros(r *rand.Rand, n int) []string {
	stems := []string{"key-abc", "key-abcdefghijk", "key-abcdefghijklmnopq"}
	out := make([]string, n)
	for i := range out {
		out[i] = stems[r.IntN(len(stems))] + strings.Repeat("\x00", r.IntN(3))
	}
	return out
}
