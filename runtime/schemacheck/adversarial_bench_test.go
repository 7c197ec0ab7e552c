package schemacheck_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// adversarialRequests are search requests built to make one keyword check
// work as hard as a caller can make it within the 1 MiB request bound; each
// is valid, so the validator has to look at all of it.
func adversarialRequests() []struct{ name, body string } {
	eligibility := func(n int) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"org.example.claim_` + strconv.Itoa(i) + `"`)
		}
		b.WriteByte(']')
		return b.String()
	}
	signals := func(n int) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"org.example.s` + strconv.Itoa(i) + `":1`)
		}
		b.WriteByte('}')
		return b.String()
	}
	deep := func(n int) string {
		return strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n)
	}
	longDomain := "org." + strings.Repeat("a", 900_000)
	return []struct{ name, body string }{
		{"uniqueItems/filters.items/10k", `{"filters":{"items":` + distinctItems(10_000) + `}}`},
		{"uniqueItems/filters.items/80k", `{"filters":{"items":` + distinctItems(80_000) + `}}`},
		{"uniqueItems+pattern/context.eligibility/40k", `{"context":{"eligibility":` + eligibility(40_000) + `}}`},
		{"pattern/long reverse-domain/900KB", `{"context":{"eligibility":["` + longDomain + `"]}}`},
		{"propertyNames/signals/40k members", `{"signals":` + signals(40_000) + `}`},
		{"depth/context.x/500", `{"context":{"x":` + deep(500) + `}}`},
		{"string/query/900KB", `{"query":"` + strings.Repeat("é", 450_000) + `"}`},
	}
}

// BenchmarkAdversarialKeywords runs the generated search-request validator
// over each adversarial request next to a bare parse of the same bytes, the
// baseline: the ratio of the two is what the keyword checks add, and it
// stays small and flat when every check is linear in its input.
func BenchmarkAdversarialKeywords(b *testing.B) {
	for _, tc := range adversarialRequests() {
		data := []byte(tc.body)
		if _, err := location.DecodeSearchRequest(data); err != nil {
			b.Fatalf("%s: not a valid request: %v", tc.name, err)
		}
		b.Run(tc.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := sc.Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/validate", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := location.DecodeSearchRequest(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pairwiseUnique is the former uniqueItems algorithm, kept as the baseline
// that BenchmarkUnique measures the hashed one against.
func pairwiseUnique(v *sc.Value) bool {
	for i := 1; i < len(v.Items); i++ {
		for j := 0; j < i; j++ {
			if sc.Equal(&v.Items[i], &v.Items[j]) {
				return false
			}
		}
	}
	return true
}

// BenchmarkUnique compares Checker.Unique with the pairwise algorithm it
// replaced on all-distinct arrays (the worst case for both).
func BenchmarkUnique(b *testing.B) {
	for _, n := range []int{1_000, 5_000, 80_000} {
		v, err := sc.Parse([]byte(distinctItems(n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("hashed/"+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var c sc.Checker
				if c.Unique(nil, &v); c.Failed() {
					b.Fatal("reported a duplicate")
				}
			}
		})
		if n > 5_000 {
			continue // the pairwise baseline takes ~30 s at 80k
		}
		b.Run("pairwise/"+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if !pairwiseUnique(&v) {
					b.Fatal("reported a duplicate")
				}
			}
		})
	}
}
