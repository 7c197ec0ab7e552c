package schemacheck

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Passed remembers texts of arrays whose items all passed their check, so
// that an array that repeats word for word (the same opening hours across
// a chain's stores, a million times in a large dataset) has its items
// checked once. A check depends only on the value, and equal texts are
// equal values, so skipping a text seen to pass changes no outcome. It
// holds about passedMax texts of at most passedLongest bytes, the first
// ones it is given, so its memory stays bounded whatever it is shown. The
// zero value is ready; it is safe for concurrent use.
type Passed struct {
	texts sync.Map // text -> struct{}
	n     atomic.Int32
	// trees holds the numbers of shared trees (Repeats) that passed, at
	// their number modulo passedTrees: a load numbers its trees in one
	// run, so they do not collide, and a number is never reused, so a
	// slot holding it means that tree.
	trees atomic.Pointer[[passedTrees]atomic.Uint32]
}

// passedTrees is how many shared trees a Passed knows by number: as many
// as one Repeats holds.
const passedTrees = repeatsMax

// passedMax and passedLongest bound what a Passed holds: about 8 MiB.
const (
	passedMax     = 4096
	passedLongest = 2048
)

// Has reports whether text passed before.
func (p *Passed) Has(text string) bool {
	if len(text) > passedLongest {
		return false
	}
	_, ok := p.texts.Load(text)
	return ok
}

// Add remembers that text passed, while there is room.
func (p *Passed) Add(text string) {
	if len(text) > passedLongest || p.n.Load() >= passedMax {
		return
	}
	if _, seen := p.texts.LoadOrStore(strings.Clone(text), struct{}{}); !seen {
		p.n.Add(1)
	}
}

// HasValue is Has for the text of v, knowing a tree shared by a Repeats
// by its number: a load's repeated values are checked for the price of an
// array lookup rather than of hashing their text.
func (p *Passed) HasValue(v *Value) bool {
	if v.tree != 0 {
		if t := p.trees.Load(); t != nil && t[v.tree%passedTrees].Load() == v.tree {
			return true
		}
	}
	if !p.Has(v.Raw) {
		return false
	}
	if v.tree != 0 {
		p.addTree(v.tree) // the text passed before its tree was shared
	}
	return true
}

// AddValue is Add for the text of v, remembering a shared tree's number
// too.
func (p *Passed) AddValue(v *Value) {
	if v.tree != 0 {
		p.addTree(v.tree)
	}
	p.Add(v.Raw)
}

// addTree remembers that shared tree number n passed.
func (p *Passed) addTree(n uint32) {
	t := p.trees.Load()
	if t == nil {
		p.trees.CompareAndSwap(nil, new([passedTrees]atomic.Uint32))
		t = p.trees.Load()
	}
	t[n%passedTrees].Store(n)
}
