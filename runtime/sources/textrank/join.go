package textrank

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Join returns the finished index of the documents of parts, unfinished
// indexes built concurrently (each as after its last Add), renumbered by
// order: the document number d of part p becomes number order[b+d], b being
// the number of documents in the parts before p. It equals the index that
// adding every document in the new order to one Index would build, so a
// loader can tokenise and index parts of a collection on several cores, in
// the order it reads them. order must be a permutation of the documents.
func Join(parts []*Index, order []int32) (*Index, error) {
	n := 0
	for _, p := range parts {
		n += p.n
	}
	if len(order) != n {
		return nil, fmt.Errorf("text index join: %d positions for %d documents", len(order), n)
	}
	if err := checkPermutation(order); err != nil {
		return nil, err
	}
	vocab, rename := joinVocab(parts)
	ix := &Index{n: n, vocab: vocab}
	ix.joinPostings(parts, rename, order)
	ix.joinNames(parts, rename, order)
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
func joinVocab(parts []*Index) ([]string, [][]uint32) {
	seen := map[string]struct{}{}
	for _, p := range parts {
		for t := range p.ids {
			seen[t] = struct{}{}
		}
	}
	vocab := make([]string, 0, len(seen))
	for t := range seen {
		vocab = append(vocab, t)
	}
	slices.Sort(vocab)
	rename := make([][]uint32, len(parts))
	for k, p := range parts {
		rename[k] = make([]uint32, len(p.lists))
		for t, old := range p.ids {
			id, _ := slices.BinarySearch(vocab, t)
			rename[k][old] = uint32(id)
		}
	}
	return vocab, rename
}

// joinPostings lays out every posting list of parts in its place and
// renumbers and sorts each one, the lists spread over the cores.
func (ix *Index) joinPostings(parts []*Index, rename [][]uint32, order []int32) {
	lists := numFields * len(ix.vocab)
	ix.off = make([]uint32, lists+1)
	for k, p := range parts {
		for old, l := range p.lists {
			for f := range numFields {
				ix.off[numFields*int(rename[k][old])+f+1] += uint32(len(l[f]))
			}
		}
	}
	for l := range lists {
		ix.off[l+1] += ix.off[l]
	}
	ix.post = make([]int32, ix.off[lists])
	fill := slices.Clone(ix.off[:lists])
	base := 0
	for k, p := range parts {
		for old, l := range p.lists {
			for f := range numFields {
				at := numFields*int(rename[k][old]) + f
				for _, d := range l[f] {
					ix.post[fill[at]] = order[base+int(d)]
					fill[at]++
				}
			}
			p.lists[old] = [numFields][]int32{}
		}
		base += p.n
	}
	ix.sortLists()
}

// sortLists sorts each posting list, the lists shared out between the
// cores in contiguous ranges of about equal postings.
func (ix *Index) sortLists() {
	lists := len(ix.off) - 1
	workers := max(1, runtime.GOMAXPROCS(0))
	share := uint32(len(ix.post)/workers + 1)
	var wg sync.WaitGroup
	for lo := 0; lo < lists; {
		hi := lo + 1
		for hi < lists && ix.off[hi]-ix.off[lo] < share {
			hi++
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for l := lo; l < hi; l++ {
				slices.Sort(ix.post[ix.off[l]:ix.off[l+1]])
			}
		}(lo, hi)
		lo = hi
	}
	wg.Wait()
}

// joinNames lays out each document's name tokens in the new document order.
func (ix *Index) joinNames(parts []*Index, rename [][]uint32, order []int32) {
	// from[doc] is the part and provisional number of the new doc.
	type origin struct{ part, doc int32 }
	from := make([]origin, ix.n)
	base := 0
	total := 0
	for k, p := range parts {
		for d := range p.n {
			from[order[base+d]] = origin{int32(k), int32(d)}
		}
		base += p.n
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
