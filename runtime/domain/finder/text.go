package finder

import (
	"unicode"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// MaxQueryWords is the most words of free text a search may carry. Every
// word is a term a source must score (a text index probe, an OR branch of
// a tsquery), so an unbounded query costs time and stack depth in
// proportion to its length; 32 words are far more than a buyer types.
const MaxQueryWords = 32

// QueryPointer is the JSON Pointer of the free-text query in a search
// request, relative to the request as the engine's other pointers are.
const QueryPointer = "/query"

// QueryWords counts the words of text as a text index would split them:
// runs of letters, digits and combining marks, with every Han, Hiragana
// and Katakana character a word of its own (those scripts have no spaces),
// so no source, whatever its tokenizer, sees more terms than this counts
// (up to the parts of a hyphenated compound).
func QueryWords(text string) int {
	n := 0
	in := false
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r):
			if !in {
				n++
				in = true
			}
		default:
			in = false
		}
	}
	return n
}

// checkText refuses a query longer than MaxQueryWords, before any source
// is called, with the same -32602 whichever source serves the search.
func checkText(text string) error {
	if n := QueryWords(text); n > MaxQueryWords {
		return rpcerr.Invalid(QueryPointer, "maxWords", "query has %d words: at most %d are read; shorten it to the words that matter", n, MaxQueryWords)
	}
	return nil
}
