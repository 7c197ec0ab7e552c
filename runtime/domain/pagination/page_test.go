package pagination

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// item is a stored Location stand-in: Key is its unique sort key and Match
// says whether it satisfies the (fixed) request constraints.
type item struct {
	Key   string
	Match bool
}

func itemKey(it item) string { return it.Key }

// memStore is a mutable, key-ordered store with a keyset source, standing in
// for a database index.
type memStore struct {
	items []item // sorted by Key
	asked []int  // n of every source call
}

func (m *memStore) insert(it item) {
	i := sort.Search(len(m.items), func(i int) bool { return m.items[i].Key >= it.Key })
	m.items = slices.Insert(m.items, i, it)
}

func (m *memStore) remove(key string) {
	i := sort.Search(len(m.items), func(i int) bool { return m.items[i].Key >= key })
	if i < len(m.items) && m.items[i].Key == key {
		m.items = slices.Delete(m.items, i, i+1)
	}
}

func (m *memStore) source(_ context.Context, after *string, n int) ([]item, error) {
	m.asked = append(m.asked, n)
	start := 0
	if after != nil {
		start = sort.Search(len(m.items), func(i int) bool { return m.items[i].Key > *after })
	}
	var out []item
	for _, it := range m.items[start:] {
		if len(out) == n {
			break
		}
		if it.Match {
			out = append(out, it)
		}
	}
	return out, nil
}

func (m *memStore) count(context.Context) (int, bool, error) {
	n := 0
	for _, it := range m.items {
		if it.Match {
			n++
		}
	}
	return n, true, nil
}

func intPtr(n int) *int { return &n }

// TestWalkProperty walks every page of many random datasets with random page
// sizes while inserting and deleting items between fetches, and checks the
// keyset guarantees: every matching item present for the whole walk is
// returned exactly once, nothing is returned twice, items come in key order,
// every page's cursor is present exactly when a next page exists, and key
// rotation between pages does not break the walk.
func TestWalkProperty(t *testing.T) {
	ctx := context.Background()
	opts := Options{MaxLimit: 12}
	keyA, keyB := testKey(1), testKey(2)
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		used := map[string]bool{}
		newKey := func() string {
			for {
				k := fmt.Sprintf("%06d", r.IntN(1_000_000))
				if !used[k] {
					used[k] = true
					return k
				}
			}
		}
		st := &memStore{}
		initial := map[string]bool{}
		for range r.IntN(60) {
			it := item{Key: newKey(), Match: r.IntN(4) != 0}
			st.insert(it)
			initial[it.Key] = it.Match
		}
		removed := map[string]bool{}
		signer := mustSigner(t, "a", map[string][]byte{"a": keyA})
		digest := ConstraintDigest([]byte(fmt.Sprintf("seed-%d", seed)))

		var req Request
		var walked []string
		seen := map[string]bool{}
		for pageNo := 0; ; pageNo++ {
			if pageNo > 500 {
				t.Fatalf("seed %d: walk did not end", seed)
			}
			if r.IntN(4) != 0 {
				req.Limit = intPtr(1 + r.IntN(15)) // sometimes above MaxLimit
			} else {
				req.Limit = nil
			}
			want, _ := opts.Limit(req.Limit)
			page, err := Fetch(ctx, signer, opts, req, digest, st.source, itemKey, st.count)
			if err != nil {
				t.Fatalf("seed %d page %d: %v", seed, pageNo, err)
			}
			if got := st.asked[len(st.asked)-1]; got != want+1 {
				t.Fatalf("seed %d page %d: source asked for %d, want limit+1 = %d", seed, pageNo, got, want+1)
			}
			if page.Limit != want || len(page.Items) > want {
				t.Fatalf("seed %d page %d: %d items under limit %d (reported %d)", seed, pageNo, len(page.Items), want, page.Limit)
			}
			if page.HasNextPage != (page.Cursor != "") {
				t.Fatalf("seed %d page %d: has_next_page %v with cursor %q", seed, pageNo, page.HasNextPage, page.Cursor)
			}
			if page.HasNextPage && len(page.Items) != want {
				t.Fatalf("seed %d page %d: short page (%d of %d) claims a next page", seed, pageNo, len(page.Items), want)
			}
			if page.TotalCount == nil {
				t.Fatalf("seed %d page %d: total_count missing though the store counts", seed, pageNo)
			}
			for _, it := range page.Items {
				if seen[it.Key] {
					t.Fatalf("seed %d page %d: %s returned twice", seed, pageNo, it.Key)
				}
				seen[it.Key] = true
				if !it.Match {
					t.Fatalf("seed %d page %d: non-matching %s returned", seed, pageNo, it.Key)
				}
				if n := len(walked); n > 0 && walked[n-1] >= it.Key {
					t.Fatalf("seed %d page %d: %s after %s breaks key order", seed, pageNo, it.Key, walked[n-1])
				}
				walked = append(walked, it.Key)
			}
			if !page.HasNextPage {
				break
			}

			// Mutate the store between pages.
			for range r.IntN(4) {
				st.insert(item{Key: newKey(), Match: r.IntN(2) == 0})
			}
			for range r.IntN(3) {
				if len(st.items) == 0 {
					break
				}
				k := st.items[r.IntN(len(st.items))].Key
				st.remove(k)
				removed[k] = true
			}
			// Rotate keys now and then: the new signer still knows the old key.
			if r.IntN(5) == 0 {
				if signer.CurrentKeyID() == "a" {
					signer = mustSigner(t, "b", map[string][]byte{"a": keyA, "b": keyB})
				} else {
					signer = mustSigner(t, "a", map[string][]byte{"a": keyA, "b": keyB})
				}
			}
			req.Cursor = &page.Cursor
		}

		for k, match := range initial {
			if match && !removed[k] && !seen[k] {
				t.Fatalf("seed %d: %s existed for the whole walk but was never returned", seed, k)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name      string
		opts      Options
		limit     *int
		wantLimit int
		wantAsked int
	}{
		{"default when absent", Options{}, nil, 10, 11},
		{"configured default", Options{DefaultLimit: 25}, nil, 25, 26},
		{"requested within range", Options{}, intPtr(3), 3, 4},
		{"one", Options{}, intPtr(1), 1, 2},
		{"at the maximum", Options{MaxLimit: 20}, intPtr(20), 20, 21},
		{"above the maximum is lowered", Options{MaxLimit: 20}, intPtr(21), 20, 21},
		{"above the default maximum is lowered", Options{}, intPtr(100000), DefaultMaxLimit, DefaultMaxLimit + 1},
		{"small maximum lowers the default", Options{MaxLimit: 4}, nil, 4, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &memStore{}
			for i := range 300 {
				st.insert(item{Key: fmt.Sprintf("%04d", i), Match: true})
			}
			s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
			page, err := Fetch(context.Background(), s, tc.opts, Request{Limit: tc.limit}, digestA, st.source, itemKey, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st.asked, []int{tc.wantAsked}) {
				t.Errorf("source asked for %v, want [%d]", st.asked, tc.wantAsked)
			}
			if page.Limit != tc.wantLimit || len(page.Items) != tc.wantLimit {
				t.Errorf("limit %d with %d items, want %d", page.Limit, len(page.Items), tc.wantLimit)
			}
			if !page.HasNextPage || page.Cursor == "" {
				t.Errorf("300 items but no next page: %+v", page)
			}
			if page.TotalCount != nil {
				t.Errorf("total_count %d without a count hook", *page.TotalCount)
			}
		})
	}
}

func TestFetchLastPage(t *testing.T) {
	tests := []struct {
		name  string
		items int
		limit int
		next  bool
	}{
		{"empty store", 0, 5, false},
		{"fewer than limit", 3, 5, false},
		{"exactly limit", 5, 5, false},
		{"limit plus one", 6, 5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &memStore{}
			for i := range tc.items {
				st.insert(item{Key: fmt.Sprintf("%04d", i), Match: true})
			}
			s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
			page, err := Fetch(context.Background(), s, Options{}, Request{Limit: intPtr(tc.limit)}, digestA, st.source, itemKey, st.count)
			if err != nil {
				t.Fatal(err)
			}
			if page.HasNextPage != tc.next || (page.Cursor != "") != tc.next {
				t.Errorf("has_next_page %v cursor %q, want next=%v", page.HasNextPage, page.Cursor, tc.next)
			}
			if want := min(tc.items, tc.limit); len(page.Items) != want {
				t.Errorf("%d items, want %d", len(page.Items), want)
			}
			if page.TotalCount == nil || *page.TotalCount != tc.items {
				t.Errorf("total_count %v, want %d", page.TotalCount, tc.items)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	good := mustSign(t, s, "0001", digestA)
	bad := "garbage"
	storeErr := errors.New("index offline")
	okSource := func(context.Context, *string, int) ([]item, error) { return nil, nil }

	tests := []struct {
		name    string
		signer  *Signer
		opts    Options
		req     Request
		digest  [32]byte
		source  func(context.Context, *string, int) ([]item, error)
		count   func(context.Context) (int, bool, error)
		pointer string // non-empty: want InvalidParams here
		want    string // otherwise: substring of the error
		sink    error  // and, when set, errors.Is target
	}{
		{name: "limit zero", req: Request{Limit: intPtr(0)}, pointer: LimitPointer},
		{name: "negative limit", req: Request{Limit: intPtr(-3)}, pointer: LimitPointer},
		{name: "tampered cursor", req: Request{Cursor: &bad}, pointer: CursorPointer},
		{name: "cursor from other constraints", req: Request{Cursor: &good}, digest: digestB, pointer: CursorPointer},
		{name: "source error", source: func(context.Context, *string, int) ([]item, error) { return nil, storeErr }, want: "pagination: source", sink: storeErr},
		{name: "source overfills", source: func(_ context.Context, _ *string, n int) ([]item, error) { return make([]item, n+1), nil }, want: "asked for at most"},
		{name: "count error", count: func(context.Context) (int, bool, error) { return 0, false, storeErr }, want: "pagination: count", sink: storeErr},
		{name: "negative count", count: func(context.Context) (int, bool, error) { return -1, true, nil }, want: "must not be negative"},
		{name: "nil signer", signer: (*Signer)(nil), want: "signer is nil"},
		{name: "negative DefaultLimit", opts: Options{DefaultLimit: -1}, want: "DefaultLimit is -1"},
		{name: "negative MaxLimit", opts: Options{MaxLimit: -1}, want: "MaxLimit is -1"},
		{name: "default above maximum", opts: Options{DefaultLimit: 30, MaxLimit: 20}, want: "DefaultLimit 30 exceeds MaxLimit 20"},
		{name: "overflowing maximum", opts: Options{MaxLimit: 1 << 40}, want: "must be below"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			signer := s
			if tc.name == "nil signer" {
				signer = tc.signer
			}
			digest := tc.digest
			if digest == ([32]byte{}) {
				digest = digestA
			}
			source := tc.source
			if source == nil {
				source = okSource
			}
			page, err := Fetch(context.Background(), signer, tc.opts, tc.req, digest, source, itemKey, tc.count)
			if err == nil {
				t.Fatalf("accepted: %+v", page)
			}
			if tc.pointer != "" {
				ip, ok := rpcerr.AsInvalidParams(err)
				if !ok || len(ip.Violations) != 1 || ip.Violations[0].Pointer != tc.pointer {
					t.Fatalf("want InvalidParams at %s, got %v", tc.pointer, err)
				}
				return
			}
			if _, ok := rpcerr.AsInvalidParams(err); ok {
				t.Fatalf("server-side fault reported as the client's: %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if tc.sink != nil && !errors.Is(err, tc.sink) {
				t.Errorf("error %v does not wrap %v", err, tc.sink)
			}
		})
	}
}

// TestFetchNeverCallsSourceOnRejection proves a bad limit or cursor is refused
// before the store does any work.
func TestFetchNeverCallsSourceOnRejection(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	bad := "x"
	for _, req := range []Request{{Limit: intPtr(0)}, {Cursor: &bad}} {
		st := &memStore{}
		if _, err := Fetch(context.Background(), s, Options{}, req, digestA, st.source, itemKey, nil); err == nil {
			t.Fatal("accepted")
		}
		if len(st.asked) != 0 {
			t.Errorf("source called %v for a rejected request", st.asked)
		}
	}
}
