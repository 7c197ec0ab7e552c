package memory

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestKeyOrderIsStringOrder: keyOrder sorts as a stable sort by
// strings.Compare does, for keys that share long prefixes, differ only
// past their first eight bytes, are prefixes of one another, hold zero
// bytes or repeat.
func TestKeyOrderIsStringOrder(t *testing.T) {
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
		{"all equal", []string{"same", "same", "same"}},
		{"empty strings", []string{"", "b", "", "a", ""}},
	} {
		want := make([]int32, len(tc.keys))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(tc.keys[a], tc.keys[b]) })
		got := keyOrder(len(tc.keys), func(i int) string { return tc.keys[i] })
		if !slices.Equal(got, want) {
			t.Errorf("%s: order differs from strings.Compare's: %v", tc.name, fmt.Sprint(got[:min(len(got), 10)]))
		}
	}
}
