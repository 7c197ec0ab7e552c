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
