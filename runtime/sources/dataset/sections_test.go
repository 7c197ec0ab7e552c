package dataset

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestSectionsPerCore: a large file is cut into sectionsPerCore sections
// per core by default, however many cores there are, and the sections'
// Visitors still see every record once, in file order, and Records are
// the records in order however many blocks each section parsed them into.
func TestSectionsPerCore(t *testing.T) {
	saved, savedBlock := parallelFrom, recsBlock
	parallelFrom = 0
	defer func() { parallelFrom, recsBlock = saved, savedBlock }()
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampleJSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	plain, err := OpenFileWith(path, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	cases := []struct {
		procs, sections, want int // want: sections made
		block                 int // records per block
	}{
		{1, 0, sectionsPerCore, savedBlock},
		{2, 0, 2 * sectionsPerCore, savedBlock},
		{3, 0, 3 * sectionsPerCore, savedBlock},
		{2, 5, 5, savedBlock},
		{1, 9, 9, savedBlock},
		{2, 0, 2 * sectionsPerCore, 1},
		{2, 3, 3, 7},
	}
	for _, tc := range cases {
		recsBlock = tc.block
		prev := runtime.GOMAXPROCS(tc.procs)
		made := 0
		df, err := OpenFileWith(path, tc.sections, func() Visitor {
			made++
			return &recorder{}
		})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatalf("GOMAXPROCS %d, %d sections: %v", tc.procs, tc.sections, err)
		}
		if made != tc.want || len(df.Visitors()) != tc.want {
			t.Errorf("GOMAXPROCS %d, %d sections: %d Visitors made, %d kept, want %d", tc.procs, tc.sections, made, len(df.Visitors()), tc.want)
		}
		var ids []string
		for _, v := range df.Visitors() {
			ids = append(ids, v.(*recorder).ids...)
		}
		var want []string
		for _, r := range plain.Records {
			want = append(want, r.ID)
		}
		if !reflect.DeepEqual(ids, want) || !reflect.DeepEqual(df.Records, plain.Records) {
			t.Errorf("GOMAXPROCS %d, %d sections: records differ from one section's", tc.procs, tc.sections)
		}
		df.Close()
	}
}

// TestCheckSectionIdentifiers: however the records are cut into sections,
// the identifier rules give the error (record numbers included) they give
// over the records in one piece, or none.
func TestCheckSectionIdentifiers(t *testing.T) {
	rec := func(id string, aliases ...string) Record { return Record{ID: id, Aliases: aliases} }
	cases := []struct {
		name string
		recs []Record
		want string // "" for none
	}{
		{"distinct", []Record{rec("a", "x"), rec("b"), rec("c", "y", "z")}, ""},
		{"id twice", []Record{rec("a"), rec("b"), rec("a")}, `/2/location/id: location id "a" is already used by record 0`},
		{"alias of another id", []Record{rec("a"), rec("b", "q", "a")}, `/1/aliases/1: alias "a" equals the location id of record 0`},
		{"alias is own id", []Record{rec("a"), rec("b", "b")}, `/1/aliases/0: alias "b" repeats the store's own location id`},
		{"alias twice", []Record{rec("a", "x"), rec("b"), rec("c", "x")}, `/2/aliases/0: alias "x" is also an alias of record 0`},
		{"alias repeated in one record", []Record{rec("a", "x", "x")}, ""},
		{"id beats a later alias", []Record{rec("a", "x"), rec("x"), rec("a")}, `/2/location/id: location id "a" is already used by record 0`},
	}
	for _, tc := range cases {
		whole := checkIdentifiers(tc.recs)
		got := ""
		if whole != nil {
			got = whole.Error()
		}
		if !strings.Contains(got, tc.want) || (tc.want == "") != (whole == nil) {
			t.Fatalf("%s: whole: %v, want %q", tc.name, whole, tc.want)
		}
		// Every way of cutting the records into two or three sections.
		n := len(tc.recs)
		for i := 0; i <= n; i++ {
			for j := i; j <= n; j++ {
				err := checkSectionIdentifiers([][]Record{tc.recs[:i], tc.recs[i:j], tc.recs[j:]})
				if !reflect.DeepEqual(err, whole) {
					t.Errorf("%s, cut at %d and %d: %v, want %v", tc.name, i, j, err, whole)
				}
			}
		}
	}
}

// TestCheckShardsMatchOnePass: on datasets with identifiers drawn from a
// small pool (so ids repeat, aliases hit ids, their own record's id and
// other aliases), checking on 2 to 5 shards gives exactly the error of one
// pass, or none when it finds none.
func TestCheckShardsMatchOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	kinds := map[string]int{}
	for trial := range 3000 {
		n := 1 + rng.IntN(40)
		pool := n + rng.IntN(4*n) // smaller pools conflict more often
		recs := make([]Record, n)
		for i := range recs {
			recs[i].ID = "s" + strconv.Itoa(rng.IntN(pool))
			for range rng.IntN(3) {
				recs[i].Aliases = append(recs[i].Aliases, "s"+strconv.Itoa(rng.IntN(pool)))
			}
		}
		cut := rng.IntN(n + 1)
		secs := [][]Record{recs[:cut], recs[cut:]}
		want := checkShards(secs, n, 1)
		kinds[conflictOf(want)]++
		for shards := 2; shards <= 5; shards++ {
			if got := checkShards(secs, n, shards); !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d, %d shards: %v, one pass: %v", trial, shards, got, want)
			}
		}
	}
	// The pools must have produced every outcome, or the comparison proved
	// little.
	for _, k := range append([]string{"none"}, conflictRules...) {
		if kinds[k] == 0 {
			t.Errorf("no trial gave %q: %v", k, kinds)
		}
	}
}

// conflictRules are words of each identifier rule's error, one per rule.
var conflictRules = []string{"already used", "repeats the store", "equals the location id", "also an alias"}

// conflictOf names the rule err reports ("none" for nil).
func conflictOf(err error) string {
	if err == nil {
		return "none"
	}
	for _, k := range conflictRules {
		if strings.Contains(err.Error(), k) {
			return k
		}
	}
	return err.Error()
}

// TestCheckSectionIdentifiersShardsLargeDatasets: a dataset large enough
// to be sorted first passes when no identifier repeats (one record's alias
// twice aside), and then reports the conflict one pass meets first
// (here an alias clash near the end, then also an id clash after it, which
// comes first since every id is read before any alias).
func TestCheckSectionIdentifiersShardsLargeDatasets(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	n := shardIdentifiersFrom + 10
	recs := make([]Record, n)
	for i := range recs {
		recs[i].ID = "store-" + strconv.Itoa(i)
		recs[i].Aliases = []string{"alias-" + strconv.Itoa(i)}
	}
	recs[9].Aliases = append(recs[9].Aliases, "alias-9") // one record's alias twice: allowed
	secs := [][]Record{recs[:n/3], recs[n/3:]}
	if err := checkSectionIdentifiers(secs); err != nil {
		t.Fatalf("no conflict: %v", err)
	}
	recs[n-3].Aliases = append(recs[n-3].Aliases, "alias-17")
	want := fmt.Sprintf(`/%d/aliases/1: alias "alias-17" is also an alias of record 17`, n-3)
	if err := checkSectionIdentifiers(secs); err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("alias clash: %v, want %s", err, want)
	}
	recs[n-1].ID = "store-5"
	want = fmt.Sprintf(`/%d/location/id: location id "store-5" is already used by record 5`, n-1)
	if err := checkSectionIdentifiers(secs); err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("id clash: %v, want %s", err, want)
	}
}

// TestMayConflictFindsEveryRule: the sort that clears a large dataset
// before the shards run finds every rule's conflict, wherever it is, and
// lets one record name the same alias twice, which the rules allow.
func TestMayConflictFindsEveryRule(t *testing.T) {
	rec := func(id string, aliases ...string) Record { return Record{ID: id, Aliases: aliases} }
	for _, tc := range []struct {
		name string
		recs []Record
		want bool
	}{
		{"none", []Record{rec("a", "x"), rec("b", "y", "z"), rec("c")}, false},
		{"ids differing in case", []Record{rec("a"), rec("A")}, false},
		{"id twice", []Record{rec("a"), rec("b"), rec("a")}, true},
		{"alias is its own id", []Record{rec("a"), rec("b", "y", "b")}, true},
		{"alias is another id", []Record{rec("a", "b"), rec("b")}, true},
		{"alias of two records", []Record{rec("a", "x"), rec("b", "y"), rec("c", "x")}, true},
		{"one record's alias twice", []Record{rec("a", "x", "x"), rec("b", "x0")}, false},
		{"one record's alias twice, then another's", []Record{rec("a", "x", "x"), rec("b", "x")}, true},
		{"another's, then one record's twice", []Record{rec("a", "x"), rec("b", "x", "x")}, true},
		{"the empty id twice", []Record{rec(""), rec("")}, true},
	} {
		for _, cut := range []int{0, 1, len(tc.recs)} {
			secs := [][]Record{tc.recs[:cut], tc.recs[cut:]}
			if _, got := sortIdentifiers(secs, len(tc.recs)); got != tc.want {
				t.Errorf("%s, sections cut at %d: sortIdentifiers = %v, want %v", tc.name, cut, got, tc.want)
			}
			// The sort only clears: whenever it finds nothing, the rules
			// find nothing either.
			if !tc.want && checkShards(secs, len(tc.recs), 1) != nil {
				t.Errorf("%s: cleared, but the rules report %v", tc.name, checkShards(secs, len(tc.recs), 1))
			}
		}
	}
}

// TestMayConflictAgreesWithTheRules: on random small datasets (few
// distinct identifiers, so that every kind of repeat happens, in sections
// cut anywhere) the sort says "may conflict" exactly when the rules find a
// conflict, wherever the merge's halves are cut.
func TestMayConflictAgreesWithTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 34))
	names := []string{"", "a", "b", "ab", "b0", "c", "store-1", "store-10", "z"}
	pick := func() string { return names[rng.IntN(len(names))] }
	conflicts := 0
	for round := range 3000 {
		recs := make([]Record, 1+rng.IntN(7))
		for k := range recs {
			recs[k].ID = pick()
			for range rng.IntN(3) {
				recs[k].Aliases = append(recs[k].Aliases, pick())
			}
		}
		cut := rng.IntN(len(recs) + 1)
		secs := [][]Record{recs[:cut], recs[cut:]}
		want := checkShards(secs, len(recs), 1)
		if _, got := sortIdentifiers(secs, len(recs)); got != (want != nil) {
			t.Fatalf("round %d, %+v cut at %d: sortIdentifiers = %v, the rules say %v", round, recs, cut, got, want)
		}
		if want != nil {
			conflicts++
		}
	}
	if conflicts == 0 || conflicts == 3000 {
		t.Fatalf("%d of 3000 rounds conflict: the cases do not tell the two answers apart", conflicts)
	}
}

// BenchmarkCheckIdentifiers times the identifier rules over a million
// records of the light shape's identifiers (an id and one or two aliases
// each) in two sections, in one pass (the baseline), sharded on every
// core, and as OpenFile checks a dataset that large (sorted, the shards
// only when the sort finds a repeated identifier).
func BenchmarkCheckIdentifiers(b *testing.B) {
	const n = 1_000_000
	recs := make([]Record, n)
	for i := range recs {
		recs[i].ID = fmt.Sprintf("loc_%012x", uint64(i)*0x9e3779b97f4a7c15>>16)
		recs[i].Aliases = []string{fmt.Sprintf("store-%07d", i)}
		if i%2 == 0 {
			recs[i].Aliases = append(recs[i].Aliases, fmt.Sprintf("VBE-%07d", i))
		}
	}
	secs := [][]Record{recs[:n/2], recs[n/2:]}
	for _, bc := range []struct {
		name   string
		shards int
	}{{"baseline=one_pass", 1}, {"sharded", min(runtime.GOMAXPROCS(0), maxIdentifierShards)}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := checkShards(secs, n, bc.shards); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("sorted", func(b *testing.B) {
		for b.Loop() {
			if err := checkSectionIdentifiers(secs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
