package textrank

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Scoring constants a source needs to bound scores it has not computed yet
// (a threshold top-k over posting lists); Score stays the only definition
// of a score.
const (
	// MaxWeight is the largest field weight (the name's).
	MaxWeight = nameWeight
	// PhraseBonus is added once when the query's words appear in order in
	// the name.
	PhraseBonus = phraseBonus
)

// Posting is one distinct token of a document with the best weight of the
// fields it occurs in, the row of a posting list a database can keep.
type Posting struct {
	Token  string
	Weight int
}

// Postings lists every distinct token of f (compounds included) with the
// largest weight of the fields holding it, sorted by token. A query term's
// contribution to Score is, over the postings whose token is the term
// (full weight) or, for a term of three or more characters, starts with it
// (half weight), the largest such value, so a source can read candidates
// term by term in weight order and still score them with Score.
func Postings(f Fields) []Posting {
	t := Analyze(f)
	best := map[string]int{}
	for w, toks := range map[int][]string{nameWeight: t.name, addressWeight: t.address, amenityWeight: t.amenities} {
		for _, tok := range toks {
			best[tok] = max(best[tok], w)
		}
	}
	out := make([]Posting, 0, len(best))
	for tok, w := range best {
		out = append(out, Posting{Token: tok, Weight: w})
	}
	slices.SortFunc(out, func(a, b Posting) int { return strings.Compare(a.Token, b.Token) })
	return out
}

// Terms returns the distinct terms the query scores, in first-occurrence
// order (at most 32).
func (q Query) Terms() []string { return slices.Clone(q.terms) }

// HasPhrase reports whether the query has two or more words, so a name
// holding them in order earns PhraseBonus.
func (q Query) HasPhrase() bool { return q.phrase != "" }

// MatchesPrefix reports whether term also matches, at half weight, the
// tokens it is only a prefix of.
func MatchesPrefix(term string) bool { return utf8.RuneCountInString(term) >= minPrefixRunes }
