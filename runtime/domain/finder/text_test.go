package finder

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
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

// TestRelevanceCursorCarriesRanking: a relevance cursor minted over a source
// with one ranking is -32602 on an engine (same keys) whose source ranks
// differently, and continues on one with the same ranking; id-order cursors
// continue across rankings, since ids order the same everywhere.
func TestRelevanceCursorCarriesRanking(t *testing.T) {
	signer, err := pagination.NewProcessSigner()
	if err != nil {
		t.Fatal(err)
	}
	engine := func(ranking string) *Engine[place] {
		s := newSource(30)
		s.caps.Ranking = ranking
		return newEngine(t, s, Options{Signer: signer})
	}
	a, same, other := engine("rank-a/1"), engine("rank-a/1"), engine("rank-b/1")
	ctx := context.Background()
	limit := 4
	for _, text := range []string{"coffee", ""} {
		first, err := a.Search(ctx, SearchRequest{Text: text, Limit: &limit})
		if err != nil || !first.HasNextPage {
			t.Fatalf("%q: first page: %v %+v", text, err, first)
		}
		c := first.Cursor
		want, err := a.Search(ctx, SearchRequest{Text: text, Limit: &limit, Cursor: &c})
		if err != nil {
			t.Fatal(err)
		}
		got, err := same.Search(ctx, SearchRequest{Text: text, Limit: &limit, Cursor: &c})
		if err != nil || !slices.Equal(pageIDs(got), pageIDs(want)) {
			t.Fatalf("%q: same ranking: %v %v, want %v", text, err, pageIDs(got), pageIDs(want))
		}
		got, err = other.Search(ctx, SearchRequest{Text: text, Limit: &limit, Cursor: &c})
		if text == "" {
			if err != nil || !slices.Equal(pageIDs(got), pageIDs(want)) {
				t.Fatalf("id order across rankings: %v %v, want %v", err, pageIDs(got), pageIDs(want))
			}
			continue
		}
		assertInvalid(t, err, "/pagination/cursor", "cursor", pagination.MsgCursorOtherRanking)
	}
	if _, err := New[place](&countingSource{caps: Capabilities{Ranking: strings.Repeat("r", MaxRankingLen+1)}}, placeBinding, Options{}); err == nil {
		t.Error("New accepted an over-long Ranking")
	}
}

func pageIDs(p Page[place]) []string {
	out := make([]string, len(p.Locations))
	for i, l := range p.Locations {
		out[i] = l.id
	}
	return out
}
