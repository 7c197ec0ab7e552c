package textrank

import (
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/sampledata"
)

func TestTokenize(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  --  ", nil},
		{"Harvest Lane Market", []string{"harvest", "lane", "market"}},
		{"Straße", []string{"strasse"}},
		{"MÜNCHEN-Schwabing", []string{"munchen", "schwabing"}},
		{"Grünerløkka", []string{"grunerløkka"}},
		{"Ｗｉ－Ｆｉ", []string{"wi", "fi"}},
		{"無料駐車場", []string{"無", "料", "駐", "車", "場"}},
		{"ホットスナック", []string{"ホ", "ッ", "ト", "ス", "ナ", "ッ", "ク"}},
		{"がぎぐ", []string{"が", "ぎ", "ぐ"}},
		{"Shop 14, 2-14-5 Shinjuku", []string{"shop", "14", "2", "14", "5", "shinjuku"}},
		{"ΑΘΉΝΑ", []string{"αθηνα"}},
		{"New Year's Day", []string{"new", "year", "s", "day"}},
	}
	for _, c := range cases {
		if got := Tokenize(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWithCompounds(t *testing.T) {
	seq, all := withCompounds("Free Wi-Fi & New Year's")
	if want := []string{"free", "wi", "fi", "new", "year", "s"}; !slices.Equal(seq, want) {
		t.Errorf("seq = %q, want %q", seq, want)
	}
	if want := []string{"free", "wi", "fi", "new", "year", "s", "wifi", "years"}; !slices.Equal(all, want) {
		t.Errorf("all = %q, want %q", all, want)
	}
}

func TestScoreRanksLikeABuyerWould(t *testing.T) {
	shinjuku := NewDoc(Fields{Name: "Nightjar Express Shinjuku", Address: []string{"3-12-5", "Shinjuku-ku", "Tokyo", "160-0022", "JP"}, Amenities: []string{"無料駐車場", "ホットスナック"}})
	kreuzberg := NewDoc(Fields{Name: "Harvest Lane Market Berlin-Kreuzberg", Address: []string{"Müllerstraße 12", "Berlin", "Berlin", "10963", "DE"}, Amenities: []string{"Kostenloses WLAN", "Backshop mit frischen Brötchen"}})
	brooklyn := NewDoc(Fields{Name: "Voltbay Electronics Brooklyn", Address: []string{"12 Market Street", "Brooklyn", "NY", "11201", "US"}, Amenities: []string{"Curbside pickup", "Free Wi-Fi"}})
	market := NewDoc(Fields{Name: "Harvest Lane Market Brooklyn", Address: []string{"400 Oak Street", "Brooklyn", "NY", "11215", "US"}, Amenities: []string{"In-store bakery"}})

	score := func(q string, d Doc) float64 { return NewQuery(q).Score(d) }
	cases := []struct {
		name          string
		query         string
		better, worse Doc
	}{
		{"name hit beats address hit", "market", market, brooklyn},
		{"address beats nothing", "11201", brooklyn, market},
		{"amenity beats nothing", "curbside", brooklyn, market},
		{"folded ß", "mullerstrasse", kreuzberg, brooklyn},
		{"accent-free query", "kreuzberg brotchen", kreuzberg, market},
		{"CJK characters", "駐車場", shinjuku, kreuzberg},
		{"katakana", "スナック", shinjuku, brooklyn},
		{"prefix", "shinj", shinjuku, market},
		{"compound wifi", "wifi", brooklyn, market},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, w := score(c.query, c.better), score(c.query, c.worse)
			if !(b > w) {
				t.Errorf("query %q: better %v, worse %v", c.query, b, w)
			}
		})
	}
	exact := []struct {
		query string
		doc   Doc
		want  float64
	}{
		{"", market, 0},
		{"?!", market, 0},
		{"near me", market, 0},
		{"market", market, nameWeight},
		{"market market", market, nameWeight},
		{"MARKET brooklyn", market, 2*nameWeight + phraseBonus},
		{"brooklyn market", market, 2 * nameWeight},
		{"street", brooklyn, addressWeight},
		{"pickup", brooklyn, amenityWeight},
		{"pick", brooklyn, amenityWeight * prefixFactor},
		{"br", brooklyn, 0},
	}
	for _, c := range exact {
		if got := score(c.query, c.doc); got != c.want {
			t.Errorf("score(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

func TestQueryTermsAreBounded(t *testing.T) {
	words := make([]string, maxTerms+8)
	for i := range words {
		words[i] = "w" + strings.Repeat("x", i)
	}
	text := strings.Join(words, " ")
	if got, want := NewQuery(text).Score(NewDoc(Fields{Name: text})), float64(maxTerms*nameWeight+phraseBonus); got != want {
		t.Errorf("score of a %d-term query = %v, want %v", len(words), got, want)
	}
}

func TestOrderIsAPermutation(t *testing.T) {
	cands := []Scored{{"b", 1}, {"a", 1}, {"c", 0}, {"d", 5}, {"a", 1}, {"e", math.NaN()}, {"f", 0}}
	got := Order(cands)
	if want := []int{3, 1, 4, 0, 2, 6, 5}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v", got, want)
	}
	if len(Order(nil)) != 0 {
		t.Error("Order(nil) not empty")
	}
}

// TestRankingNeverDropsOrAdmitsCandidates is the package contract on the
// real dataset: for any query, every candidate gets a finite score >= 0 and
// Order returns each candidate exactly once, including the zero scores.
func TestRankingNeverDropsOrAdmitsCandidates(t *testing.T) {
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]Doc, len(recs))
	ids := make([]string, len(recs))
	for i, r := range recs {
		docs[i] = NewDoc(fieldsOf(t, r.Location))
		ids[i] = r.ID
	}
	rng := rand.New(rand.NewPCG(9, 9))
	queries := []string{"", "near me", "parking", "open now near Shinjuku", "Harvest Lane Market Brooklyn", "駐車場", "Straße", "store-0042", "zzz", "24h pharmacy"}
	for _, q := range queries {
		// A random subset stands in for the server's candidate set.
		var subset []int
		for i := range recs {
			if rng.IntN(3) == 0 {
				subset = append(subset, i)
			}
		}
		query := NewQuery(q)
		cands := make([]Scored, len(subset))
		nonzero := 0
		for k, i := range subset {
			s := query.Score(docs[i])
			if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
				t.Fatalf("query %q: store %s scored %v", q, ids[i], s)
			}
			if s > 0 {
				nonzero++
			}
			cands[k] = Scored{ID: ids[i], Score: s}
		}
		order := Order(cands)
		if len(order) != len(cands) {
			t.Fatalf("query %q: Order returned %d of %d candidates", q, len(order), len(cands))
		}
		if !slices.Equal(slices.Sorted(slices.Values(order)), seq(len(cands))) {
			t.Fatalf("query %q: Order is not a permutation", q)
		}
		for k := 1; k < len(order); k++ {
			a, b := cands[order[k-1]], cands[order[k]]
			if a.Score < b.Score || (a.Score == b.Score && a.ID > b.ID) {
				t.Fatalf("query %q: %v sorted before %v", q, a, b)
			}
		}
		if query.Empty() != (strings.TrimSpace(q) == "") {
			t.Errorf("query %q: Empty() = %v", q, query.Empty())
		}
		t.Logf("query %-32q %4d candidates, %4d with a positive score", q, len(cands), nonzero)
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func fieldsOf(t testing.TB, raw json.RawMessage) Fields {
	var loc struct {
		Name    string            `json:"name"`
		Address map[string]string `json:"address"`
		Amen    map[string]struct {
			Description string `json:"description"`
		} `json:"amenities"`
	}
	if err := json.Unmarshal(raw, &loc); err != nil {
		t.Fatal(err)
	}
	f := Fields{Name: loc.Name}
	for _, k := range []string{"street_address", "extended_address", "address_locality", "address_region", "postal_code", "address_country"} {
		if v := loc.Address[k]; v != "" {
			f.Address = append(f.Address, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(loc.Amen)) {
		f.Amenities = append(f.Amenities, loc.Amen[k].Description)
	}
	return f
}

// BenchmarkScoreDataset scores every store of the default dataset for one
// three-word query, the per-request cost of ranking a full browse, with the
// Docs prepared once; the baseline tokenises every store per request.
func BenchmarkScoreDataset(b *testing.B) {
	recs, err := sampledata.Records()
	if err != nil {
		b.Fatal(err)
	}
	fields := make([]Fields, len(recs))
	docs := make([]Doc, len(recs))
	for i, r := range recs {
		fields[i] = fieldsOf(b, r.Location)
		docs[i] = NewDoc(fields[i])
	}
	const text = "parking Brooklyn market"
	b.Run("prepared", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			q := NewQuery(text)
			var sum float64
			for _, d := range docs {
				sum += q.Score(d)
			}
			_ = sum
		}
	})
	b.Run("baseline=tokenise-per-request", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			q := NewQuery(text)
			var sum float64
			for _, f := range fields {
				sum += q.Score(NewDoc(f))
			}
			_ = sum
		}
	})
}

// TestTokensASCIIMatchesRunes holds the byte-at-a-time ASCII tokeniser to
// the rune one on every ASCII text of a small alphabet up to five bytes
// (letters of both cases, digits, hyphen, apostrophe, space, punctuation)
// and on longer samples.
func TestTokensASCIIMatchesRunes(t *testing.T) {
	alphabet := "aZ9-' .é"[:7]
	var texts []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		texts = append(texts, prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			grow(prefix+alphabet[i:i+1], n-1)
		}
	}
	grow("", 5)
	texts = append(texts, "Wi-Fi & 24/7 Year's-end", "rock'n'roll -lead trail- a--b", "Store #12, 5th Ave.")
	for _, s := range texts {
		gt, gj := tokensASCII(s)
		wt, wj := tokensRunes(s)
		if !reflect.DeepEqual(gt, wt) && !(len(gt) == 0 && len(wt) == 0) || !reflect.DeepEqual(gj, wj) && !(len(gj) == 0 && len(wj) == 0) {
			t.Fatalf("%q: ascii %q %v, runes %q %v", s, gt, gj, wt, wj)
		}
	}
}
