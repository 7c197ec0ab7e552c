package textrank

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Part indexes a share of a collection's documents on one goroutine, for
// Join: it keeps each document's terms as token and field numbers in flat
// blocks, four bytes a term, rather than a growing posting list per token,
// so a large load holds less and Join writes every list already in order.
type Part struct {
	vocab *table // tokens, numbered by provisional id
	// blocks hold the terms (id<<2 | field) of each document in one run,
	// docs[d] saying where.
	blocks  [][]uint32
	docs    []termRun
	seqs    []uint32 // name tokens in order, as provisional ids
	nameOff []uint32 // document d's are seqs[nameOff[d]:nameOff[d+1]]
	tz      tokenizer
	// values holds the terms of address and amenity values seen lately
	// (a locality, a region, an amenity's description repeat across a
	// chain's stores): their tokens and compounds as provisional ids, in
	// one backing array, so a repeated value is one lookup. It is cleared
	// when full, which bounds it whatever the collection.
	values  *table
	spans   []termSpan // value k's ids are valueID[spans[k].lo:spans[k].hi]
	valueID []uint32
	fieldID []uint32 // the current field's ids
	low     []byte   // appendTermsASCII's scratch: the text lowered
}

// termSpan is where a value's ids are in Part.valueID.
type termSpan struct{ lo, hi uint32 }

// valuesKept is how many distinct values a Part remembers the terms of
// before it forgets them all; a variable so tests can make it forget.
var valuesKept = 1 << 13

// termRun is where a document's terms are: blocks[block][lo:hi].
type termRun struct{ block, lo, hi uint32 }

// partBlock is how many terms a Part's block holds (more only for a
// document with more terms); a variable so tests can cross blocks.
var partBlock = 1 << 18

// NewPart returns an empty part ready for Add.
func NewPart() *Part {
	return &Part{vocab: newTable(), nameOff: []uint32{0}, blocks: [][]uint32{make([]uint32, 0, partBlock)}, values: newTable()}
}

// Len is the number of documents added.
func (p *Part) Len() int { return len(p.docs) }

// Add indexes the part's next document (number Len() before the call)
// exactly as Index.Add does.
//
// Each field's terms are those of tokenising its values (Index.Add): a
// term's id is one to one with its text, so the set of ids is the set of
// terms, and the order of a document's terms does not matter to Join.
func (p *Part) Add(f Fields) {
	last := len(p.blocks) - 1
	p.docs = append(p.docs, termRun{block: uint32(last), lo: uint32(len(p.blocks[last]))})
	// A name is seldom another store's: tokenised each time, not kept.
	var toks int
	p.fieldID, toks = p.appendTerms(p.fieldID[:0], f.Name)
	p.seqs = append(p.seqs, p.fieldID[:toks]...)
	p.pushField(fieldName)
	p.addValues(fieldAddress, f.Address)
	p.addValues(fieldAmenity, f.Amenities)
	run := &p.docs[len(p.docs)-1]
	run.hi = uint32(len(p.blocks[run.block]))
	p.nameOff = append(p.nameOff, uint32(len(p.seqs)))
}

// addValues indexes the tokens and compounds of a many-valued field.
func (p *Part) addValues(f int, values []string) {
	p.fieldID = p.fieldID[:0]
	for _, v := range values {
		sp := p.valueTerms(v)
		p.fieldID = append(p.fieldID, p.valueID[sp.lo:sp.hi]...)
	}
	p.pushField(f)
}

// pushField pushes the distinct ids of fieldID as field f's terms.
func (p *Part) pushField(f int) {
	slices.Sort(p.fieldID)
	for _, id := range slices.Compact(p.fieldID) {
		p.push(id<<2 | uint32(f))
	}
}

// valueTerms returns where the provisional ids of v's tokens and
// compounds are in valueID, valid until the next call.
func (p *Part) valueTerms(v string) termSpan {
	if k, ok := p.values.find(v); ok {
		return p.spans[k]
	}
	if p.values.len() >= valuesKept {
		p.values.reset()
		p.spans, p.valueID = p.spans[:0], p.valueID[:0]
	}
	lo := uint32(len(p.valueID))
	p.valueID, _ = p.appendTerms(p.valueID, v)
	sp := termSpan{lo: lo, hi: uint32(len(p.valueID))}
	p.values.add(v)
	p.spans = append(p.spans, sp)
	return sp
}

// appendTerms appends the provisional ids of text's tokens, in order, then
// of its compounds, and says how many are tokens.
func (p *Part) appendTerms(ids []uint32, text string) ([]uint32, int) {
	if ascii(text) {
		return p.appendTermsASCII(ids, text)
	}
	z := &p.tz
	z.all = z.all[:0]
	toks := len(z.add(text))
	for _, t := range z.all {
		ids = append(ids, p.id(t))
	}
	return ids, toks
}

// appendTermsASCII is appendTerms for ASCII text, where normalising is
// lowering the letters (normalize): the text is lowered once into scratch
// instead of into a new string, and split there as appendTokens splits
// it, so only a token new to the part is copied (by its table).
func (p *Part) appendTermsASCII(ids []uint32, text string) ([]uint32, int) {
	low := append(p.low[:0], text...)
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + ('a' - 'A')
		}
	}
	p.low = low
	z := &p.tz
	z.toks, z.joined = appendTokensASCII(unsafe.String(unsafe.SliceData(low), len(low)), z.toks[:0], z.joined[:0])
	z.all = appendCompounds(append(z.all[:0], z.toks...), z.toks, z.joined)
	for _, t := range z.all {
		ids = append(ids, p.id(t))
	}
	return ids, len(z.toks)
}

// push appends a term to the current document's run, moving the run to a
// new block when the last one is full.
func (p *Part) push(term uint32) {
	run := &p.docs[len(p.docs)-1]
	b := p.blocks[run.block]
	if len(b) == cap(b) {
		moved := b[run.lo:]
		nb := make([]uint32, 0, max(partBlock, 2*len(moved)))
		p.blocks[run.block] = b[:run.lo]
		p.blocks = append(p.blocks, append(nb, moved...))
		run.block, run.lo = uint32(len(p.blocks)-1), 0
		b = p.blocks[run.block]
	}
	p.blocks[run.block] = append(b, term)
}

// terms is document d's run of terms.
func (p *Part) terms(d int) []uint32 {
	r := p.docs[d]
	return p.blocks[r.block][r.lo:r.hi]
}

// id is token t's provisional id, a new one when t is new to the part.
func (p *Part) id(t string) uint32 {
	k, ok := p.vocab.find(t)
	if !ok {
		k = p.vocab.add(t)
	}
	return uint32(k)
}

// tokens returns the part's tokens by provisional id, as slices of one
// string.
func (p *Part) tokens() []string {
	all := string(p.vocab.keys)
	out := make([]string, p.vocab.len())
	lo := uint32(0)
	for k, hi := range p.vocab.ends {
		out[k] = all[lo:hi]
		lo = hi
	}
	return out
}

// Join returns the finished index of the documents of parts, renumbered by
// order: the document number d of part k becomes number order[b+d], b being
// the number of documents in the parts before k. It equals the index that
// adding every document in the new order to one Index would build, so a
// loader can tokenise parts of a collection on several cores, in the order
// it reads them. order must be a permutation of the documents; the parts
// are emptied.
func Join(parts []*Part, order []int32) (*Index, error) {
	n := 0
	for _, p := range parts {
		n += p.Len()
	}
	if len(order) != n {
		return nil, fmt.Errorf("text index join: %d positions for %d documents", len(order), n)
	}
	if err := checkPermutation(order); err != nil {
		return nil, err
	}
	vocab, rename := joinVocab(parts)
	ix := &Index{n: n, vocab: vocab}
	from := origins(parts, order)
	// The postings and the names read the parts and write fields of their
	// own: on two cores, side by side.
	var wg sync.WaitGroup
	wg.Go(func() { ix.joinNames(parts, rename, from) })
	ix.joinPostings(parts, rename, from)
	wg.Wait()
	for _, p := range parts {
		*p = Part{}
	}
	return ix, nil
}

// checkPermutation reports the first position of order that is out of
// range or repeats an earlier one.
func checkPermutation(order []int32) error {
	seen := make([]uint64, (len(order)+63)/64)
	for i, d := range order {
		if d < 0 || int(d) >= len(order) || seen[d>>6]&(1<<(d&63)) != 0 {
			return fmt.Errorf("text index join: position %d moves to %d, not a free place of %d", i, d, len(order))
		}
		seen[d>>6] |= 1 << (d & 63)
	}
	return nil
}

// joinVocab returns the sorted distinct tokens of parts and, for each part,
// the new id of each of its provisional ids.
func joinVocab(parts []*Part) ([]string, [][]uint32) {
	tokens := make([][]string, len(parts))
	seen := map[string]struct{}{}
	for k, p := range parts {
		tokens[k] = p.tokens()
		for _, t := range tokens[k] {
			seen[t] = struct{}{}
		}
	}
	vocab := make([]string, 0, len(seen))
	size := 0
	for t := range seen {
		vocab = append(vocab, t)
		size += len(t)
	}
	slices.Sort(vocab)
	rename := make([][]uint32, len(parts))
	for k := range parts {
		rename[k] = make([]uint32, len(tokens[k]))
		for old, t := range tokens[k] {
			id, _ := slices.BinarySearch(vocab, t)
			rename[k][old] = uint32(id)
		}
	}
	// The vocabulary keeps one string of its own, not every part's.
	var b strings.Builder
	b.Grow(size)
	for _, t := range vocab {
		b.WriteString(t)
	}
	all, lo := b.String(), 0
	for i, t := range vocab {
		vocab[i] = all[lo : lo+len(t)]
		lo += len(t)
	}
	return vocab, rename
}

// origin is where a document of the joined index comes from.
type origin struct{ part, doc int32 }

// origins returns, for each new document number, its part and number
// there.
func origins(parts []*Part, order []int32) []origin {
	from := make([]origin, len(order))
	base := 0
	for k, p := range parts {
		for d := range p.Len() {
			from[order[base+d]] = origin{int32(k), int32(d)}
		}
		base += p.Len()
	}
	return from
}

// joinPostings lays out every posting list, writing the documents in their
// new order so that each list comes out ascending. The counting pass,
// which reads the parts' terms in their own order, writes each term back
// as the number of its list, so the pass in the new order (reading the
// parts at random) looks nothing up. The parts' terms are spent after it.
func (ix *Index) joinPostings(parts []*Part, rename [][]uint32, from []origin) {
	lists := numFields * len(ix.vocab)
	ix.off = make([]uint32, lists+1)
	for k, p := range parts {
		re := rename[k]
		for _, b := range p.blocks {
			for i, t := range b {
				l := uint32(numFields)*re[t>>2] + t&3
				b[i] = l
				ix.off[l+1]++
			}
		}
	}
	for l := range lists {
		ix.off[l+1] += ix.off[l]
	}
	ix.post = make([]int32, ix.off[lists])
	fill := slices.Clone(ix.off[:lists])
	for doc, o := range from {
		for _, l := range parts[o.part].terms(int(o.doc)) {
			ix.post[fill[l]] = int32(doc)
			fill[l]++
		}
	}
}

// joinNames lays out each document's name tokens in the new order.
func (ix *Index) joinNames(parts []*Part, rename [][]uint32, from []origin) {
	total := 0
	for _, p := range parts {
		total += len(p.seqs)
	}
	ix.nameOff = make([]uint32, 1, ix.n+1)
	ix.nameSeq = make([]uint32, 0, total)
	for _, o := range from {
		p := parts[o.part]
		for _, old := range p.seqs[p.nameOff[o.doc]:p.nameOff[o.doc+1]] {
			ix.nameSeq = append(ix.nameSeq, rename[o.part][old])
		}
		ix.nameOff = append(ix.nameOff, uint32(len(ix.nameSeq)))
	}
}
