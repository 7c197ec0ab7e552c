package textrank

import (
	"fmt"
	"slices"
)

// FieldsPerToken is how many posting lists each token has in Frozen.Off,
// one per indexed field.
const FieldsPerToken = numFields

// Frozen is a finished Index as plain arrays, so a store can save its index
// beside its data and open it again without tokenising every document.
// Its fields mean what the Index's do; FromFrozen checks every invariant a
// search relies on, so a damaged copy is an error, never a wrong answer or
// a panic.
type Frozen struct {
	// Docs is the number of documents.
	Docs int
	// Vocab holds the distinct tokens in ascending order.
	Vocab []string
	// Off has numFields entries per token plus one: token t's documents for
	// field f are Post[Off[3t+f]:Off[3t+f+1]].
	Off []uint32
	// Post holds every posting list, each ascending.
	Post []int32
	// NameOff has Docs+1 entries: document d's name tokens (vocab ids, in
	// order) are NameSeq[NameOff[d]:NameOff[d+1]].
	NameOff []uint32
	NameSeq []uint32
}

// Frozen returns the index's arrays; they are shared with the index and
// must not be modified. Call it only after Finish.
func (ix *Index) Frozen() Frozen {
	return Frozen{Docs: ix.n, Vocab: ix.vocab, Off: ix.off, Post: ix.post, NameOff: ix.nameOff, NameSeq: ix.nameSeq}
}

// FromFrozen returns the finished Index whose Frozen form is f, taking
// ownership of f's slices, or an error naming the first broken invariant.
func FromFrozen(f Frozen) (*Index, error) {
	if f.Docs < 0 {
		return nil, fmt.Errorf("text index: %d documents", f.Docs)
	}
	for i := 1; i < len(f.Vocab); i++ {
		if f.Vocab[i-1] >= f.Vocab[i] {
			return nil, fmt.Errorf("text index: token %d (%q) is not after token %d (%q)", i, f.Vocab[i], i-1, f.Vocab[i-1])
		}
	}
	if len(f.Off) != numFields*len(f.Vocab)+1 || f.Off[0] != 0 || int(f.Off[len(f.Off)-1]) != len(f.Post) {
		return nil, fmt.Errorf("text index: %d list offsets for %d tokens and %d postings", len(f.Off), len(f.Vocab), len(f.Post))
	}
	for l := 0; l+1 < len(f.Off); l++ {
		lo, hi := f.Off[l], f.Off[l+1]
		if lo > hi {
			return nil, fmt.Errorf("text index: list %d ends (%d) before it starts (%d)", l, hi, lo)
		}
		prev := int32(-1)
		for _, d := range f.Post[lo:hi] {
			if d <= prev || int(d) >= f.Docs {
				return nil, fmt.Errorf("text index: list %d holds document %d after %d (of %d)", l, d, prev, f.Docs)
			}
			prev = d
		}
	}
	if len(f.NameOff) != f.Docs+1 || f.NameOff[0] != 0 || int(f.NameOff[f.Docs]) != len(f.NameSeq) {
		return nil, fmt.Errorf("text index: %d name offsets for %d documents and %d name tokens", len(f.NameOff), f.Docs, len(f.NameSeq))
	}
	for d := 0; d < f.Docs; d++ {
		if f.NameOff[d] > f.NameOff[d+1] {
			return nil, fmt.Errorf("text index: document %d's name ends before it starts", d)
		}
	}
	if i := slices.IndexFunc(f.NameSeq, func(id uint32) bool { return int(id) >= len(f.Vocab) }); i >= 0 {
		return nil, fmt.Errorf("text index: name token %d is vocab id %d of %d", i, f.NameSeq[i], len(f.Vocab))
	}
	ix := &Index{n: f.Docs, vocab: f.Vocab, off: f.Off, post: f.Post, nameOff: f.NameOff, nameSeq: f.NameSeq}
	if ix.vocab == nil {
		ix.vocab = []string{}
	}
	return ix, nil
}
