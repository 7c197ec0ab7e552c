// Package textrank scores location candidates against the free-text
// query of a Search request. The spec makes query a ranking hint only: it
// never creates or relaxes a structured constraint. This package therefore
// only computes scores; it has no way to drop or add a candidate, and Order
// returns a permutation of every candidate it is given.
//
// Text is normalised the same way on both sides: compatibility
// decomposition (so full-width "Ｗｉ－Ｆｉ" reads as "Wi-Fi"), accents removed
// from Latin, Greek and Cyrillic letters (so "munchen" finds "München"),
// Unicode case folding (so "strasse" finds "Straße"). Words are runs of
// letters and digits; Han, Hiragana and Katakana, written without spaces,
// become one token per character, so a query matches any run of the same
// characters.
//
// A query scores each distinct term once, by the best field it occurs in:
// the store name counts 3, address fields 2, amenity descriptions 1; a term
// of three or more characters that is only a prefix of a word counts half.
// A query whose words appear consecutively in the name earns 2 more. Only
// the first 32 distinct terms of a query are scored, which bounds the work
// an oversized query can cause; a ranking hint needs no more.
package textrank

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Name identifies this scoring, for finder.Capabilities.Ranking: relevance
// cursors carry it, so change it whenever a change to the scoring or the
// normalisation can change a score.
const Name = "textrank/1"

// Field weights: a name hit says more about what the buyer asked for than a
// street or an amenity label.
const (
	nameWeight    = 3
	addressWeight = 2
	amenityWeight = 1
	// prefixFactor scales a match where the term only starts a word.
	prefixFactor = 0.5
	// minPrefixRunes keeps very short terms from matching half the data.
	minPrefixRunes = 3
	// phraseBonus rewards a query whose words appear in order in the name.
	phraseBonus = 2
	// maxTerms bounds the distinct query terms scored per candidate.
	maxTerms = 32
)

// Fields is the searchable text of one candidate.
type Fields struct {
	// Name is the Location's display name.
	Name string
	// Address holds the address fields (street, locality, region, postal
	// code, country), in any order.
	Address []string
	// Amenities holds the buyer-facing amenity descriptions.
	Amenities []string
}

// Doc is a candidate's text tokenised once, so the server can prepare its
// stores at load time and score each request cheaply.
type Doc struct {
	// namePhrase is the name's tokens in order, each followed by a space
	// and the whole preceded by one, for the phrase bonus.
	namePhrase string
	// Sorted, distinct tokens of each field, for binary search.
	name, address, amenities []string
}

// NewDoc tokenises a candidate's fields.
func NewDoc(f Fields) Doc {
	seq, name := withCompounds(f.Name)
	return Doc{
		namePhrase: phraseKey(seq),
		name:       sortedSet(name),
		address:    sortedSet(fieldTerms(f.Address)),
		amenities:  sortedSet(fieldTerms(f.Amenities)),
	}
}

// Query is a parsed free-text query, built once per request.
type Query struct {
	terms  []string // distinct, in first-occurrence order, at most maxTerms
	phrase string   // phraseKey of all tokens when there are two or more
}

// NewQuery parses the request's query text; an empty or all-punctuation
// query scores every candidate 0.
func NewQuery(text string) Query {
	toks := Tokenize(text)
	var q Query
	if len(toks) > 1 {
		q.phrase = phraseKey(toks)
	}
	seen := map[string]bool{}
	for _, t := range toks {
		if len(q.terms) == maxTerms {
			break
		}
		if !seen[t] {
			seen[t] = true
			q.terms = append(q.terms, t)
		}
	}
	return q
}

// Empty reports whether the query has no terms, so callers can skip
// scoring and keep their default order.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// Score returns the candidate's relevance to the query: 0 for no match,
// higher for better matches, never negative or NaN.
func (q Query) Score(d Doc) float64 {
	var s float64
	for _, t := range q.terms {
		s += max(
			nameWeight*match(t, d.name),
			addressWeight*match(t, d.address),
			amenityWeight*match(t, d.amenities),
		)
	}
	if q.phrase != "" && strings.Contains(d.namePhrase, q.phrase) {
		s += phraseBonus
	}
	return s
}

// match is 1 when some token of the sorted set equals t, prefixFactor when
// t (long enough) only starts one, and 0 otherwise.
func match(t string, sorted []string) float64 {
	i, found := slices.BinarySearch(sorted, t)
	switch {
	case found:
		return 1
	case i < len(sorted) && strings.HasPrefix(sorted[i], t) && utf8.RuneCountInString(t) >= minPrefixRunes:
		return prefixFactor
	}
	return 0
}

// phraseKey joins tokens so that a run of query tokens occurs in a name
// exactly when its key is a substring of the name's key (tokens never
// contain spaces).
func phraseKey(toks []string) string {
	return " " + strings.Join(toks, " ") + " "
}

func sortedSet(toks []string) []string {
	slices.Sort(toks)
	return slices.Compact(toks)
}

// Scored pairs a candidate's id with its score, the input of Order.
type Scored struct {
	ID    string
	Score float64
}

// Order returns the positions of all candidates sorted by descending score,
// then ascending id, then original position: a permutation of 0..len-1, so
// ranking can reorder candidates but never drop one. A NaN score sorts last.
func Order(cands []Scored) []int {
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	key := func(s float64) float64 {
		if math.IsNaN(s) {
			return math.Inf(-1)
		}
		return s
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(key(cands[b].Score), key(cands[a].Score)); c != 0 {
			return c
		}
		return cmp.Compare(cands[a].ID, cands[b].ID)
	})
	return idx
}

var folder = cases.Fold()

// normalize applies the normalisation described in the package comment.
func normalize(s string) string {
	if ascii(s) {
		// Compatibility decomposition, accent removal and NFC leave ASCII
		// as it is, and case folding ASCII is lowering it.
		return strings.ToLower(s)
	}
	var b strings.Builder
	latinLike := false
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			if latinLike {
				continue // an accent on a Latin, Greek or Cyrillic letter
			}
		} else {
			latinLike = unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
		}
		b.WriteRune(r)
	}
	return folder.String(norm.NFC.String(b.String()))
}

// unspaced reports scripts written without spaces between words.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r)
}

// Tokenize splits text into normalised tokens: words of letters and digits,
// and single characters of Han, Hiragana and Katakana.
func Tokenize(text string) []string {
	toks, _ := tokens(text)
	return toks
}

// tokens also reports, for each token, whether it was joined to the next
// one by a single hyphen or apostrophe (as in "Wi-Fi" or "Year's").
func tokens(text string) ([]string, []bool) {
	return appendTokens(text, make([]string, 0, 8), make([]bool, 0, 8))
}

// appendTokens is tokens appending to toks and joined, which may be scratch
// slices reused from text to text (the rune path makes its own).
func appendTokens(text string, toks []string, joined []bool) ([]string, []bool) {
	s := normalize(text)
	if ascii(s) {
		return appendTokensASCII(s, toks, joined)
	}
	return tokensRunes(s)
}

// tokensASCII is tokensRunes for ASCII text, a byte at a time: there a
// word rune is a letter or digit and no script is unspaced.
func tokensASCII(s string) ([]string, []bool) {
	return appendTokensASCII(s, make([]string, 0, 8), make([]bool, 0, 8))
}

// appendTokensASCII is tokensASCII appending to toks and joined, which may
// be scratch slices reused from text to text.
func appendTokensASCII(s string, toks []string, joined []bool) ([]string, []bool) {
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if wordASCII(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			toks = append(toks, s[start:i])
			joined = append(joined, false)
			start = -1
		}
		if (c == '-' || c == '\'') && len(toks) > 0 && i > 0 && i+1 < len(s) && wordASCII(s[i-1]) && wordASCII(s[i+1]) {
			joined[len(joined)-1] = true
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
		joined = append(joined, false)
	}
	return toks, joined
}

func wordASCII(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// tokensRunes splits normalised text s as tokens describes.
func tokensRunes(s string) ([]string, []bool) {
	var toks []string
	var joined []bool
	start := -1
	flush := func(end int) {
		if start >= 0 {
			toks = append(toks, s[start:end])
			joined = append(joined, false)
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case unspaced(r):
			flush(i)
			toks = append(toks, string(r))
			joined = append(joined, false)
		case wordRune(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
			if (r == '-' || r == '\'' || r == '’') && len(toks) > 0 && i > 0 {
				next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
				prev, _ := utf8.DecodeLastRuneInString(s[:i])
				if wordRune(prev) && !unspaced(prev) && wordRune(next) && !unspaced(next) {
					joined[len(joined)-1] = true
				}
			}
		}
	}
	flush(len(s))
	return toks, joined
}

// fieldTerms are the tokens, compounds included, of every value of a
// many-valued field (address lines, amenities), in order.
func fieldTerms(values []string) []string {
	var out []string
	for _, v := range values {
		_, all := withCompounds(v)
		out = append(out, all...)
	}
	return out
}

// withCompounds tokenises document text, returning the tokens in order and
// the tokens plus each hyphenated or apostrophised word written solid
// ("wi-fi" adds "wifi"), so either spelling in a query finds it.
func withCompounds(text string) (seq, all []string) {
	toks, joined := tokens(text)
	return toks, appendCompounds(slices.Clone(toks), toks, joined)
}

// appendCompounds appends to out each run of joined tokens written solid.
func appendCompounds(out, toks []string, joined []bool) []string {
	for i := 0; i < len(toks); i++ {
		if !joined[i] {
			continue
		}
		j := i
		var b strings.Builder
		for ; j < len(toks) && joined[j]; j++ {
			b.WriteString(toks[j])
		}
		if j < len(toks) {
			b.WriteString(toks[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
