package textrank

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Index is an inverted index over many documents, so a query costs the
// postings of its terms rather than a score for every document. It computes
// exactly Query.Score for every document that scores above zero, and says
// nothing about the others (they all score 0). Documents are numbered in the
// order they were added; an Index is safe for concurrent searches once
// Finish has returned.
type Index struct {
	n     int
	vocab []string // sorted distinct tokens
	// post holds, for token t and field f, the ascending documents at
	// post[off[3t+f]:off[3t+f+1]].
	off  []uint32
	post []int32
	// nameSeq holds each document's name tokens in order (as vocab ids), at
	// nameSeq[nameOff[d]:nameOff[d+1]], for the phrase bonus.
	nameOff []uint32
	nameSeq []uint32

	// build state, dropped by Finish
	ids   map[string]uint32
	lists [][3][]int32
	seqs  []uint32 // provisional ids until Finish
	tz    tokenizer

	scratch sync.Pool // *accumulator
}

// Field numbers of the posting lists, with their weights in half points (so
// every score is an exact integer of half points).
const (
	fieldName = iota
	fieldAddress
	fieldAmenity
	numFields
)

var halfWeight = [numFields]uint16{2 * nameWeight, 2 * addressWeight, 2 * amenityWeight}

// NewIndex returns an empty index ready for Add.
func NewIndex() *Index {
	return &Index{ids: map[string]uint32{}, nameOff: []uint32{0}}
}

// Add indexes the next document (number Len() before the call), as
// AddTerms(Analyze(f)) does, but tokenises into scratch buffers the index
// keeps, so a document allocates little more than its new tokens.
func (ix *Index) Add(f Fields) {
	doc := int32(ix.n)
	ix.n++
	z := &ix.tz
	z.all = z.all[:0]
	z.seq = append(z.seq[:0], z.add(f.Name)...)
	ix.addField(fieldName, doc, z.all)
	ix.addValues(fieldAddress, doc, f.Address)
	ix.addValues(fieldAmenity, doc, f.Amenities)
	ix.addNameSeq(z.seq)
}

// addValues indexes the tokens and compounds of a many-valued field.
func (ix *Index) addValues(f int, doc int32, values []string) {
	z := &ix.tz
	z.all = z.all[:0]
	for _, v := range values {
		z.add(v)
	}
	ix.addField(f, doc, z.all)
}

// tokenizer holds Add's scratch slices.
type tokenizer struct {
	toks   []string
	joined []bool
	all    []string // the current field's tokens and compounds
	seq    []string // the name's tokens in order
}

// add appends text's tokens and compounds (withCompounds' all) to z.all
// and returns its tokens in order, valid until the next call.
func (z *tokenizer) add(text string) []string {
	z.toks, z.joined = appendTokens(text, z.toks[:0], z.joined[:0])
	z.all = append(z.all, z.toks...)
	z.all = appendCompounds(z.all, z.toks, z.joined)
	return z.toks
}

// Terms is a document tokenised for the index. Analyze may run on many
// documents concurrently; only AddTerms must be called in document order.
type Terms struct {
	seq, name, address, amenities []string
}

// Analyze tokenises a document's fields for AddTerms.
func Analyze(f Fields) Terms {
	var t Terms
	t.seq, t.name = withCompounds(f.Name)
	t.address, t.amenities = fieldTerms(f.Address), fieldTerms(f.Amenities)
	return t
}

// AddTerms indexes the next document (number Len() before the call) from
// its Analyze result.
func (ix *Index) AddTerms(t Terms) {
	doc := int32(ix.n)
	ix.n++
	ix.addField(fieldName, doc, t.name)
	ix.addField(fieldAddress, doc, t.address)
	ix.addField(fieldAmenity, doc, t.amenities)
	ix.addNameSeq(t.seq)
}

// addNameSeq records the document's name tokens in order, for the phrase
// bonus, and closes the document.
func (ix *Index) addNameSeq(seq []string) {
	for _, tok := range seq {
		ix.seqs = append(ix.seqs, ix.id(tok))
	}
	ix.nameOff = append(ix.nameOff, uint32(len(ix.seqs)))
}

func (ix *Index) id(t string) uint32 {
	if id, ok := ix.ids[t]; ok {
		return id
	}
	id := uint32(len(ix.lists))
	ix.ids[strings.Clone(t)] = id
	ix.lists = append(ix.lists, [3][]int32{})
	return id
}

func (ix *Index) addField(f int, doc int32, toks []string) {
	for _, t := range sortedSet(toks) {
		l := &ix.lists[ix.id(t)][f]
		*l = append(*l, doc)
	}
}

// Len is the number of documents added.
func (ix *Index) Len() int { return ix.n }

// Finish freezes the index into flat arrays; call it once, after the last
// Add and before the first Search.
func (ix *Index) Finish() {
	ix.vocab = make([]string, len(ix.lists))
	for t, id := range ix.ids {
		ix.vocab[id] = t
	}
	order := make([]uint32, len(ix.vocab)) // new id -> old id
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(ix.vocab[a], ix.vocab[b]) })
	rename := make([]uint32, len(order)) // old id -> new id
	vocab := make([]string, len(order))
	total := 0
	for newID, old := range order {
		rename[old] = uint32(newID)
		vocab[newID] = ix.vocab[old]
		for f := range numFields {
			total += len(ix.lists[old][f])
		}
	}
	ix.off = make([]uint32, 0, numFields*len(order)+1)
	ix.post = make([]int32, 0, total)
	ix.off = append(ix.off, 0)
	for _, old := range order {
		for f := range numFields {
			ix.post = append(ix.post, ix.lists[old][f]...)
			ix.off = append(ix.off, uint32(len(ix.post)))
		}
		ix.lists[old] = [3][]int32{}
	}
	ix.nameSeq = make([]uint32, len(ix.seqs))
	for i, old := range ix.seqs {
		ix.nameSeq[i] = rename[old]
	}
	ix.vocab, ix.ids, ix.lists, ix.seqs = vocab, nil, nil, nil
	ix.tz = tokenizer{}
}

func (ix *Index) postings(tok, f int) []int32 {
	return ix.post[ix.off[numFields*tok+f]:ix.off[numFields*tok+f+1]]
}

// accumulator is the dense per-document scratch of one search.
type accumulator struct {
	total []uint16 // score in half points
	best  []uint16 // current term's best field, in half points
	hit   []uint64 // bitset of documents with a positive total
	term  []int32  // documents the current term touched
}

// Hits is the result of a search: the documents that score above zero,
// best first (score descending, then document number ascending), with
// their scores, and a bitset to tell them from the rest.
type Hits struct {
	Docs   []int32
	Scores []float64
	set    []uint64
}

// Has reports whether doc scored above zero.
func (h *Hits) Has(doc int32) bool {
	return h.set[doc>>6]&(1<<(uint(doc)&63)) != 0
}

// Search returns every document whose Query.Score is above zero, with that
// score, best first. keep, when non-nil, restricts the result to the
// documents it accepts (a caller's structured pre-filter); it never changes
// a score.
func (ix *Index) Search(q Query, keep func(doc int32) bool) *Hits {
	words := (ix.n + 63) / 64
	h := &Hits{set: make([]uint64, words)}
	if q.Empty() || ix.n == 0 {
		return h
	}
	acc, _ := ix.scratch.Get().(*accumulator)
	if acc == nil {
		acc = &accumulator{total: make([]uint16, ix.n), best: make([]uint16, ix.n), hit: make([]uint64, words)}
	}
	for _, t := range q.terms {
		lo, found := slices.BinarySearch(ix.vocab, t)
		if found {
			for f := range numFields {
				acc.raise(ix.postings(lo, f), halfWeight[f])
			}
			lo++
		}
		if utf8.RuneCountInString(t) >= minPrefixRunes {
			for tok := lo; tok < len(ix.vocab) && strings.HasPrefix(ix.vocab[tok], t); tok++ {
				for f := range numFields {
					acc.raise(ix.postings(tok, f), halfWeight[f]/2)
				}
			}
		}
		for _, d := range acc.term {
			acc.total[d] += acc.best[d]
			acc.best[d] = 0
			acc.hit[d>>6] |= 1 << (uint(d) & 63)
		}
		acc.term = acc.term[:0]
	}
	phrase := ix.phraseIDs(q)
	// Documents in ascending order, from the bitset; the bitset is cleared
	// on the way so the scratch can be reused.
	var docs []int32
	for w, word := range acc.hit {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			d := int32(w*64 + b)
			if keep == nil || keep(d) {
				if phrase != nil && ix.nameHas(d, phrase) {
					acc.total[d] += 2 * phraseBonus
				}
				docs = append(docs, d)
				h.set[w] |= 1 << b
			} else {
				acc.total[d] = 0
			}
		}
		acc.hit[w] = 0
	}
	// A stable counting sort on the score keeps document order within a
	// score.
	var count [2*nameWeight*maxTerms + 2*phraseBonus + 1]int
	for _, d := range docs {
		count[acc.total[d]]++
	}
	start := 0
	for s := len(count) - 1; s >= 0; s-- {
		c := count[s]
		count[s] = start
		start += c
	}
	h.Docs = make([]int32, len(docs))
	h.Scores = make([]float64, len(docs))
	for _, d := range docs {
		s := acc.total[d]
		i := count[s]
		count[s]++
		h.Docs[i], h.Scores[i] = d, float64(s)/2
		acc.total[d] = 0
	}
	ix.scratch.Put(acc)
	return h
}

// raise lifts the current term's best field score of each document to v.
func (a *accumulator) raise(docs []int32, v uint16) {
	for _, d := range docs {
		switch b := a.best[d]; {
		case b == 0:
			a.term = append(a.term, d)
			a.best[d] = v
		case b < v:
			a.best[d] = v
		}
	}
}

// phraseIDs returns the query's phrase as vocab ids, or nil when it has no
// phrase or a phrase token occurs in no document.
func (ix *Index) phraseIDs(q Query) []uint32 {
	if q.phrase == "" {
		return nil
	}
	toks := strings.Fields(q.phrase)
	ids := make([]uint32, len(toks))
	for i, t := range toks {
		id, ok := slices.BinarySearch(ix.vocab, t)
		if !ok {
			return nil
		}
		ids[i] = uint32(id)
	}
	return ids
}

// nameHas reports whether the phrase occurs as consecutive tokens of doc's
// name, which is what the substring test on phrase keys decides.
func (ix *Index) nameHas(doc int32, phrase []uint32) bool {
	seq := ix.nameSeq[ix.nameOff[doc]:ix.nameOff[doc+1]]
	for i := 0; i+len(phrase) <= len(seq); i++ {
		if slices.Equal(seq[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}
