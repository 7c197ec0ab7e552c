package schemacheck

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestPassedRemembersWhatItIsGiven: a Passed knows the texts it was given
// and no others, refuses texts longer than passedLongest, stops taking
// new texts at passedMax while still knowing the ones it holds, and holds
// a copy, not the caller's memory.
func TestPassedRemembersWhatItIsGiven(t *testing.T) {
	var p Passed
	if p.Has(`[{"day":"monday"}]`) {
		t.Fatal("an empty Passed has a text")
	}
	buf := []byte(`[{"day":"monday"}]`)
	p.Add(string(buf))
	buf[3] = 'X'
	if !p.Has(`[{"day":"monday"}]`) || p.Has(string(buf)) {
		t.Fatal("Add did not keep its own copy of the text")
	}
	long := "[" + strings.Repeat(" ", passedLongest) + "]"
	p.Add(long)
	if p.Has(long) {
		t.Fatalf("a text of %d bytes was remembered, past the bound %d", len(long), passedLongest)
	}
	for i := 0; p.n.Load() < passedMax; i++ {
		p.Add(strconv.Itoa(i))
	}
	p.Add("one more")
	if p.Has("one more") || !p.Has("0") || !p.Has(`[{"day":"monday"}]`) {
		t.Fatal("a full Passed took a new text, or forgot one it held")
	}
}

// TestPassedConcurrent: goroutines adding and looking up the same texts
// all find what they added, and each text is counted once (run it with
// the race detector).
func TestPassedConcurrent(t *testing.T) {
	var p Passed
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3000 {
				text := strconv.Itoa((i*7 + g) % 2000)
				p.Add(text)
				if !p.Has(text) {
					t.Errorf("%q added, then not found", text)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := p.n.Load(); n != 2000 {
		t.Errorf("%d texts counted, 2000 added", n)
	}
}

// sharedWeek parses text (an object whose "hours" is a week) twice over r
// and returns the second reading's hours: the tree r shares.
func sharedWeek(t *testing.T, r *Repeats, text string) *Value {
	t.Helper()
	var hours *Value
	for range 2 {
		doc := NewDocument()
		v, _, err := doc.ParseFirstRepeating([]byte(text), r)
		if err != nil {
			t.Fatal(err)
		}
		hours = v.Get("hours")
		t.Cleanup(doc.Release)
	}
	if hours.tree == 0 {
		t.Fatalf("%.40q: the second reading's hours are not a shared tree", text)
	}
	return hours
}

// weekText is a store whose week opens at hour h (and minute m).
func weekText(h, m int) string {
	var b strings.Builder
	b.WriteString(`{"hours":[`)
	for i, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"day":"` + d + `","opens":"` + strconv.Itoa(10+h) + ":" + strconv.Itoa(10+m) + `","closes":"23:00"}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestPassedKnowsSharedTrees: a shared tree that passed is known by its
// number even when the Passed has no room left for its text; the same
// text parsed on its own is then not known, nor is another shared tree,
// even one whose number falls in the same slot; and a shared tree whose
// text passed before it was shared is known.
func TestPassedKnowsSharedTrees(t *testing.T) {
	var p Passed
	for i := range passedMax {
		p.Add(`"filler ` + strconv.Itoa(i) + `"`)
	}
	r := NewRepeats()
	week := sharedWeek(t, r, weekText(0, 0))
	p.AddValue(week)
	if p.Has(week.Raw) {
		t.Fatal("a full Passed took a new text")
	}
	if !p.HasValue(week) {
		t.Fatal("a shared tree that passed is not known")
	}
	plain, err := Parse([]byte(week.Raw))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasValue(&plain) {
		t.Fatal("a text parsed on its own is known by a shared tree's number")
	}
	if other := sharedWeek(t, r, weekText(1, 0)); p.HasValue(other) {
		t.Fatal("another shared tree is known")
	}
	// Trees numbered passedTrees apart share a slot: a later one is not
	// the one that passed.
	for k := 0; ; k++ {
		next := sharedWeek(t, NewRepeats(), weekText(k/50, k%50))
		if next.tree%passedTrees == week.tree%passedTrees {
			if p.HasValue(next) {
				t.Fatal("a tree in the slot of one that passed is known")
			}
			break
		}
		if next.tree > week.tree+passedTrees {
			t.Fatal("no tree fell in the slot of the one that passed")
		}
	}
	// A text that passed, then shared: known, and from then on by number.
	var q Passed
	text := weekText(2, 0)
	q.Add(`{"day":"x"}`)
	first, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	q.AddValue(first.Get("hours"))
	if later := sharedWeek(t, NewRepeats(), text); !q.HasValue(later) {
		t.Fatal("a shared tree whose text passed is not known")
	} else if tr := q.trees.Load(); tr == nil || tr[later.tree%passedTrees].Load() != later.tree {
		t.Fatal("a shared tree known by its text was not noted by number")
	}
}
