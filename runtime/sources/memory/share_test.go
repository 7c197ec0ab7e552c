package memory

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// TestSharedSchedules proves that equal schedules share one compiled value
// and that sharing never lets a schedule skip validation: a record whose
// schedule differs from an accepted one only in an unknown zone is still
// rejected, whatever order the records come in.
func TestSharedSchedules(t *testing.T) {
	const hours = `"hours":[{"day":"monday","opens":"08:00","closes":"18:00"}]`
	rec := func(id, tz string) dataset.Record {
		return dataset.Record{ID: id, Location: json.RawMessage(`{"id":"` + id + `","name":"N","timezone":"` + tz + `",` + hours + `}`)}
	}
	s, err := New([]dataset.Record{rec("a", "America/New_York"), rec("b", "America/New_York"), rec("c", "Europe/Berlin")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ents[0].compiled != s.ents[1].compiled || s.ents[0].compiled == s.ents[2].compiled {
		t.Error("equal schedules must share one compiled value, different ones must not")
	}
	for _, tc := range []struct {
		recs []dataset.Record
		ptr  string
	}{
		{[]dataset.Record{rec("a", "America/New_York"), rec("b", "Mars/Olympus_Mons")}, "/1/location/timezone"},
		{[]dataset.Record{rec("b", "Mars/Olympus_Mons"), rec("a", "America/New_York")}, "/0/location/timezone"},
	} {
		_, err := New(tc.recs, Options{})
		var fe *dataset.FieldError
		if !errors.As(err, &fe) || fe.Pointer != tc.ptr {
			t.Errorf("unknown zone: err = %v, want a field error at %s", err, tc.ptr)
		}
	}
}

// TestMemosShareThroughOneLoader: goroutines' memos over one loader hand
// out the same shared values as the loader would (equal schedules, lists
// and item sets are one value across memos, an item set written in
// another order included), and a memo that is full still shares, through
// the loader, without growing.
func TestMemosShareThroughOneLoader(t *testing.T) {
	ld := newLoader()
	a, b := newMemo(ld), newMemo(ld)
	sc := func(tz string) hours.Schedule { return hours.Schedule{Timezone: tz} }
	ca, err := a.compile(sc("Europe/Berlin"))
	if err != nil {
		t.Fatal(err)
	}
	if cb, _ := b.compile(sc("Europe/Berlin")); cb != ca {
		t.Error("two memos compiled one schedule twice")
	}
	if cb, _ := b.compile(sc("Asia/Tokyo")); cb == ca || ld.compiled[cb] == ld.compiled[ca] {
		t.Error("different schedules share a compiled value")
	}
	if _, err := a.compile(sc("Mars/Olympus_Mons")); err == nil {
		t.Error("a schedule in an unknown zone compiled")
	}
	if l1, l2 := a.shared([]string{"wifi", "parking"}), b.shared([]string{"wifi", "parking"}); l1 != l2 || !slices.Equal(ld.lists[l1], []string{"wifi", "parking"}) {
		t.Error("two memos copied one list twice")
	}
	if l1, l2 := a.shared([]string{"ab", "c"}), a.shared([]string{"a", "bc"}); l1 == l2 {
		t.Error("lists with the same bytes but different strings share")
	}
	if s1, s2 := a.itemSet([]string{"sku-1", "sku-2"}), b.itemSet([]string{"sku-2", "sku-1"}); s1 != s2 {
		t.Error("two memos coded one item set twice")
	}
	s3 := a.itemSet([]string{"sku-3", "sku-1"})
	if got, want := itemSetAt(a.ld.itemSets, s3), []int32{0, 2}; !slices.Equal(got, want) {
		t.Errorf("item set {sku-3, sku-1} coded as %v, want %v", got, want)
	}
	if got := itemSetAt(a.ld.itemSets, a.itemSet([]string{"sku-1", "sku-2"})); !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("item set {sku-1, sku-2} coded as %v after another set, want [0 1]", got)
	}
	if a.shared(nil) != 0 || ld.lists[0] != nil || a.itemSet(nil) != 0 || itemSetAt(a.ld.itemSets, 0) != nil {
		t.Error("an empty list is not nil")
	}
	// Past memoSize the memo stops remembering; the loader still shares.
	for i := range memoSize + 10 {
		a.shared([]string{strconv.Itoa(i)})
	}
	if len(a.strs) != memoSize {
		t.Errorf("a full memo holds %d lists, want %d", len(a.strs), memoSize)
	}
	last := []string{strconv.Itoa(memoSize + 5)}
	if l1, l2 := a.shared(last), b.shared(last); l1 != l2 {
		t.Error("a full memo stopped sharing")
	}
}

// TestMemosOnManyGoroutinesShareOneSchedule: memos compiling the same
// schedules at once, in different orders, all get the one value the
// loader keeps for each (a schedule is compiled outside the lock, and
// only the first stored is shared).
func TestMemosOnManyGoroutinesShareOneSchedule(t *testing.T) {
	zones := []string{"Europe/Berlin", "Asia/Tokyo", "America/New_York", "Australia/Sydney", "Africa/Cairo",
		"America/Sao_Paulo", "Europe/London", "Asia/Kolkata", "Pacific/Auckland", "America/Denver"}
	ld := newLoader()
	const workers = 8
	// The numbers the memos hand out; the loader's table is read only
	// once they are done, as a Source reads it.
	got := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			m := newMemo(ld)
			got[w] = make([]uint32, len(zones))
			for k := range zones {
				z := (k + w) % len(zones)
				c, err := m.compile(hours.Schedule{Timezone: zones[z]})
				if err != nil {
					t.Error(err)
					return
				}
				got[w][z] = c
			}
		})
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for z := range zones {
			if got[w][z] != got[0][z] || ld.compiled[got[w][z]] == nil {
				t.Fatalf("%s: goroutine %d holds another compiled schedule than goroutine 0", zones[z], w)
			}
		}
	}
	if all := ld.compiledSchedules(); len(all) != len(zones) {
		t.Errorf("the loader keeps %d schedules, want %d", len(all), len(zones))
	}
}

// TestItemCodesByAddress: a memo codes an item id by its address when it
// saw that very string last in its slot, and by its text otherwise: equal
// ids built apart (not interned) get one code, distinct ids never share
// one, however many ids pass through the slots and collide there.
func TestItemCodesByAddress(t *testing.T) {
	ld := newLoader()
	m := newMemo(ld)
	want := map[string]int32{}
	const n = 3 * recentItems
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "sku-" + strconv.Itoa(i)
	}
	for round := range 3 {
		for i, id := range ids {
			if round == 1 {
				id = string([]byte(ids[i])) // the same text at another address
			}
			got := m.itemCodeOf(id)
			if w, ok := want[id]; ok && w != got {
				t.Fatalf("round %d: %q coded %d, earlier %d", round, id, got, w)
			}
			want[id] = got
		}
	}
	seen := map[int32]string{}
	for id, c := range want {
		if other, ok := seen[c]; ok {
			t.Fatalf("%q and %q share code %d", id, other, c)
		}
		seen[c] = id
	}
	if len(seen) != n {
		t.Fatalf("%d codes for %d ids", len(seen), n)
	}
}
