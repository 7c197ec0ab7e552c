package schemacheck

// Repeats remembers the trees of arrays of objects or arrays that a
// Document parsed, by their text, so that a load whose records repeat such
// an array word for word (a chain's opening hours, in most of a million
// stores) parses each distinct text once and shares its tree. A valid JSON
// array ends where its text says, so an array whose text begins with one
// that parsed before is that array, and has its tree: sharing changes no
// result. It holds at most repeatsMax texts of repeatsShortest to
// repeatsLongest bytes, the first it is shown (no more than repeatsAlike
// with the same first repeatsShortest bytes), so its memory stays bounded
// (a few MiB) whatever it reads.
//
// A Repeats serves one goroutine at a time. The trees it hands out are
// shared by every document that repeats the text, and must not be changed;
// they stay valid after the Document is released.
type Repeats struct {
	// byStart holds the remembered arrays by their first repeatsShortest
	// bytes.
	byStart map[string][]repeated
	n       int
}

// repeated is a remembered array: its text, its tree, and how many levels
// it nests, so a repeat deeper in a document is still held to maxDepth.
type repeated struct {
	text   string
	v      Value
	height int
}

// Bounds of what a Repeats holds. An array shorter than repeatsShortest
// costs little to parse again.
const (
	repeatsMax      = 1024
	repeatsShortest = 64
	repeatsLongest  = 2048
	repeatsAlike    = 16
)

// NewRepeats returns an empty Repeats.
func NewRepeats() *Repeats { return &Repeats{byStart: map[string][]repeated{}} }

// ParseFirstRepeating is ParseFirst sharing the trees of arrays r holds:
// an array of objects or arrays whose text r remembers is not parsed again,
// and one it does not is remembered while there is room.
func (d *Document) ParseFirstRepeating(data []byte, r *Repeats) (v *Value, n int, err error) {
	d.p.rep = r
	defer func() { d.p.rep = nil }()
	return d.p.parseFirst(data)
}

// repeatedArray returns the tree p.rep holds for the array at p.i, depth
// levels down, and moves p.i past it; false when it holds none.
func (p *parser) repeatedArray(depth int) (Value, bool) {
	rest := p.s[p.i:]
	if len(rest) < repeatsShortest {
		return Value{}, false
	}
	alike := p.rep.byStart[rest[:repeatsShortest]]
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

// remember keeps the tree of text, an array v the document just parsed,
// when it is worth keeping and there is room: parsed again on its own, so
// that the tree and its strings live in memory no Document reuses.
func (r *Repeats) remember(text string, v *Value) {
	if r.n >= repeatsMax || len(text) < repeatsShortest || len(text) > repeatsLongest ||
		len(v.Items) == 0 || v.Items[0].Kind != Array && v.Items[0].Kind != Object {
		return
	}
	start := text[:repeatsShortest]
	if len(r.byStart[start]) >= repeatsAlike {
		return
	}
	var p parser
	own, err := p.parse([]byte(text))
	if err != nil {
		return // cannot happen: the same text just parsed
	}
	r.byStart[p.s[:repeatsShortest]] = append(r.byStart[start], repeated{text: p.s, v: *own, height: height(own)})
	r.n++
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
func (r *Repeats) Len() int { return r.n }
