package lookup

import (
	"context"
	"testing"
)

// BenchmarkResolve measures the bookkeeping of a 60-id request (50 processed,
// with duplicates and aliases) against the named baseline "hook-loop": calling
// the same hook once per id and concatenating the results, with no dedupe,
// merging, batch cut or messages.
func BenchmarkResolve(b *testing.B) {
	ids, byID := manyIDs(55)
	for i := range 5 {
		ids = append(ids, ids[i]) // duplicates
	}
	byID["id_01"] = append(byID["id_01"], byID["id_02"]...) // an alias fan-out
	hook := func(_ context.Context, id string) ([]loc, error) { return byID[id], nil }
	ctx := context.Background()
	b.Run("baseline=hook-loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out []loc
			for _, id := range ids {
				ls, _ := hook(ctx, id)
				out = append(out, ls...)
			}
			_ = out
		}
	})
	b.Run("resolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Resolve(ctx, ids, Options{}, hook, locKey, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
