package ucpcore

import (
	"testing"
	"time"
)

// TestBucketsBoundCallers checks that the caller table never grows past its
// bound: new callers beyond it share one overflow bucket until a sweep
// forgets callers whose buckets have refilled.
func TestBucketsBoundCallers(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	b := newBuckets(1, 1, 3)
	for i, key := range []string{"a", "b", "c"} {
		if ok, _ := b.take(key, now); !ok {
			t.Fatalf("caller %d refused on its first call", i)
		}
	}
	if ok, _ := b.take("d", now); !ok {
		t.Fatal("first caller past the bound: the overflow bucket should have a token")
	}
	ok, wait := b.take("e", now)
	if ok || wait != time.Second {
		t.Fatalf("second caller past the bound: ok=%v wait=%v, want refused for 1s (shared bucket)", ok, wait)
	}
	if len(b.m) > 4 {
		t.Fatalf("%d buckets tracked, bound 3 plus the overflow bucket", len(b.m))
	}
	// Two seconds on, every bucket is full again: the sweep frees the table.
	now = now.Add(2 * time.Second)
	if ok, _ := b.take("f", now); !ok {
		t.Fatal("new caller after the sweep refused")
	}
	if _, tracked := b.m["f"]; !tracked || len(b.m) != 1 {
		t.Fatalf("after the sweep: %d buckets, f tracked %v", len(b.m), tracked)
	}
}
