package schemacheck

import (
	"math"
	"sync"
	"sync/atomic"
)

// Repeats remembers the trees of containers of containers (an array whose
// first item, or an object whose first member, is an object or an array)
// that a Document parsed below its top level, by their text, so that a
// load whose records repeat such a value word for word (a chain's opening
// hours, its amenities, in most of a million stores) parses each distinct
// text once and shares its tree. A valid JSON value ends where its text
// says, so a value whose text begins with one that parsed before is that
// value, and has its tree: sharing changes no result. It holds at most
// repeatsMax texts of repeatsShortest to repeatsLongest bytes, the first
// it is shown (no more than repeatsAlike with the same first
// repeatsShortest bytes), so its memory stays bounded (about 10 MiB of
// opening hours) whatever it reads.
//
// A Repeats is safe for concurrent use: the sections of one file, parsed
// on several cores, share one. The trees it hands out are shared by every
// document that repeats the text, and must not be changed; they stay valid
// after the Document is released.
type Repeats struct {
	// byStart holds the remembered values by their first repeatsShortest
	// bytes. Readers load it without a lock; remember replaces it by a
	// copy holding one more (a few thousand copies at most, for a few
	// hundred readings each saved on a large load).
	byStart atomic.Pointer[map[string][]repeated]
	mu      sync.Mutex // serializes remember
	n       atomic.Int32
}

// trees numbers the shared trees of every Repeats in the process, so that
// no two trees ever share a number (Passed relies on it).
var trees atomic.Uint64

// nextTree returns a shared tree's number: a new one, or 0 (none) once
// the numbers run out.
func nextTree() uint32 {
	n := trees.Add(1)
	if n > math.MaxUint32 {
		return 0
	}
	return uint32(n)
}

// repeated is a remembered value: its text, its tree, and how many levels
// it nests, so a repeat deeper in a document is still held to maxDepth.
type repeated struct {
	text   string
	v      Value
	height int
}

// Bounds of what a Repeats holds. A value shorter than repeatsShortest
// costs little to parse again.
const (
	repeatsMax      = 2048
	repeatsShortest = 64
	repeatsLongest  = 2048
	repeatsAlike    = 16
)

// NewRepeats returns an empty Repeats.
func NewRepeats() *Repeats {
	r := &Repeats{}
	r.byStart.Store(&map[string][]repeated{})
	return r
}

// ParseFirstRepeating is ParseFirst sharing the trees r holds: a container
// of containers whose text r remembers is not parsed again, and one it
// does not is remembered while there is room.
func (d *Document) ParseFirstRepeating(data []byte, r *Repeats) (v *Value, n int, err error) {
	d.p.rep = r
	defer func() { d.p.rep = nil }()
	return d.p.parseFirst(data)
}

// repeated returns the tree p.rep holds for the container at p.i, depth
// levels down, and moves p.i past it; false when it holds none.
func (p *parser) repeated(depth int) (Value, bool) {
	rest := p.s[p.i:]
	if len(rest) < repeatsShortest {
		return Value{}, false
	}
	alike := (*p.rep.byStart.Load())[rest[:repeatsShortest]]
	for i := range alike {
		r := &alike[i]
		if len(rest) >= len(r.text) && rest[:len(r.text)] == r.text && depth+r.height <= maxDepth {
			p.i += len(r.text)
			v := r.v
			v.Raw = rest[:len(r.text)]
			return v, true
		}
	}
	return Value{}, false
}

// remember keeps the tree of text, a container v the document just
// parsed, when it is worth keeping and there is room: parsed again on its
// own, so that the tree and its strings live in memory no Document reuses.
func (r *Repeats) remember(text string, v *Value) {
	if r.n.Load() >= repeatsMax || len(text) < repeatsShortest || len(text) > repeatsLongest || !nests(v) {
		return
	}
	start := text[:repeatsShortest]
	if len((*r.byStart.Load())[start]) >= repeatsAlike {
		return
	}
	var p parser
	own, err := p.parse([]byte(text))
	if err != nil {
		return // cannot happen: the same text just parsed
	}
	e := repeated{text: p.s, v: compact(own), height: height(own)}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := *r.byStart.Load()
	alike := old[start]
	if r.n.Load() >= repeatsMax || len(alike) >= repeatsAlike {
		return
	}
	for i := range alike {
		if alike[i].text == e.text {
			return // remembered meanwhile by another section
		}
	}
	m := make(map[string][]repeated, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	e.v.tree = nextTree()
	m[e.text[:repeatsShortest]] = append(alike[:len(alike):len(alike)], e)
	r.byStart.Store(&m)
	r.n.Add(1)
}

// compact copies the tree of v into two allocations sized to it, one for
// its values and one for its members: a parser's arenas come in chunks of
// at least minChunk slots, several kilobytes around a tree of a few
// hundred bytes, which a Repeats would keep for the life of a load.
func compact(v *Value) Value {
	nv, nm := treeSize(v)
	c := compactor{vals: make([]Value, 0, nv), mems: make([]Member, 0, nm)}
	return c.copy(v)
}

// treeSize returns how many items and members the tree of v holds.
func treeSize(v *Value) (items, members int) {
	items, members = len(v.Items), len(v.Members)
	for i := range v.Items {
		a, b := treeSize(&v.Items[i])
		items, members = items+a, members+b
	}
	for i := range v.Members {
		a, b := treeSize(&v.Members[i].Value)
		items, members = items+a, members+b
	}
	return items, members
}

// compactor hands out the slots compact copies a tree into.
type compactor struct {
	vals []Value
	mems []Member
}

func (c *compactor) copy(v *Value) Value {
	out := *v
	if v.Items != nil {
		at := len(c.vals)
		c.vals = append(c.vals, v.Items...)
		out.Items = c.vals[at:len(c.vals):len(c.vals)]
		for i := range out.Items {
			out.Items[i] = c.copy(&v.Items[i])
		}
	}
	if v.Members != nil {
		at := len(c.mems)
		c.mems = append(c.mems, v.Members...)
		out.Members = c.mems[at:len(c.mems):len(c.mems)]
		for i := range out.Members {
			out.Members[i].Value = c.copy(&v.Members[i].Value)
		}
	}
	return out
}

// nests reports whether v is a container whose first item or member is
// one.
func nests(v *Value) bool {
	var first *Value
	switch {
	case len(v.Items) > 0:
		first = &v.Items[0]
	case len(v.Members) > 0:
		first = &v.Members[0].Value
	default:
		return false
	}
	return first.Kind == Array || first.Kind == Object
}

// height is how many levels v nests: 0 for a scalar.
func height(v *Value) int {
	h := 0
	for i := range v.Items {
		h = max(h, height(&v.Items[i]))
	}
	for i := range v.Members {
		h = max(h, height(&v.Members[i].Value))
	}
	if v.Kind == Array || v.Kind == Object {
		h++
	}
	return h
}

// Len is how many texts r remembers, so a caller can see whether its
// records repeat.
func (r *Repeats) Len() int { return int(r.n.Load()) }
