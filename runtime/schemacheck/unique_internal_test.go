package schemacheck

import (
	"strconv"
	"strings"
	"testing"
)

// TestUniqueComparisons pins the complexity of uniqueItems by counting
// equality comparisons instead of timing them: on n distinct items the
// pairwise algorithm made n(n-1)/2 (3.2 billion for 80,000 items, a size
// an attacker can send), the hashed one makes a comparison only on a hash
// collision.
func TestUniqueComparisons(t *testing.T) {
	defer func(f func(a, b *Value) bool) { uniqueEqual = f }(uniqueEqual)
	var n int
	uniqueEqual = func(a, b *Value) bool { n++; return Equal(a, b) }
	for _, size := range []int{1_000, 80_000} {
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < size; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"sku-` + strconv.Itoa(i) + `"`)
		}
		b.WriteByte(']')
		v, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		var c Checker
		if c.Unique(nil, &v); c.Failed() {
			t.Fatalf("%d distinct items reported as repeated", size)
		}
		if n > size {
			t.Fatalf("%d distinct items took %d comparisons, want at most %d (linear)", size, n, size)
		}
	}
	// A repeat is confirmed by exactly one comparison.
	v, _ := Parse([]byte(`["a","b","a"]`))
	n = 0
	var c Checker
	c.Unique(nil, &v)
	if !c.Failed() || n != 1 {
		t.Fatalf("repeat: failed=%v after %d comparisons, want 1", c.Failed(), n)
	}
}
