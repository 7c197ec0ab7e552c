package finder

import (
	"context"
	"strings"
	"testing"
)

func TestQueryWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"  coffee   shops ", 2},
		{"a,b,c;d", 4},
		{"wi-fi", 2},
		{"café\u0000late", 2},
		{"東京駅", 3},
		{"---", 0},
	} {
		if got := QueryWords(tc.text); got != tc.want {
			t.Errorf("QueryWords(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestQueryWordCap: a query of more than MaxQueryWords words (however they
// are separated) is -32602 at /query before any source call; one of
// exactly MaxQueryWords is served.
func TestQueryWordCap(t *testing.T) {
	words := func(n int, sep string) string { return strings.TrimSuffix(strings.Repeat("w"+sep, n), sep) }
	for _, tc := range []struct {
		name, text string
		refused    bool
	}{
		{"at the cap", words(MaxQueryWords, " "), false},
		{"one above", words(MaxQueryWords+1, " "), true},
		{"commas", words(15000, ","), true},
		{"no spaces in CJK", strings.Repeat("駅", MaxQueryWords+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSource(5)
			e := newEngine(t, s, Options{})
			_, err := e.Search(context.Background(), SearchRequest{Text: tc.text})
			if !tc.refused {
				if err != nil {
					t.Fatalf("a %d-word query: %v", QueryWords(tc.text), err)
				}
				return
			}
			assertInvalid(t, err, "/query", "maxWords", "at most 32 are read")
			if s.candidates != 0 {
				t.Errorf("source read %d times for a refused query", s.candidates)
			}
		})
	}
}
