package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// openBoth builds a Source over the file at path twice: reading every
// Location again after dataset.OpenFile, and from FileVisitors during
// dataset.OpenFileWith in the given number of sections; the second also
// returns how many sections saw the records.
func openBoth(t *testing.T, path string, parts int) (read, visitedSrc *Source, sections int, readErr, visitErr error) {
	t.Helper()
	df, err := dataset.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { df.Close() })
	read, readErr = NewFile(df, Options{MaxDistance: 500_000})
	dv, err := dataset.OpenFileWith(path, parts, FileVisitors())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dv.Close() })
	sections = len(dv.Visitors())
	visitedSrc, visitErr = NewFile(dv, Options{MaxDistance: 500_000})
	return read, visitedSrc, sections, readErr, visitErr
}

// canonicalItems renumbers s's item codes in item id order, since codes
// are numbered in the order concurrent decoders first meet an item, and
// lays the sets out anew in doc order, one for each entry.
func canonicalItems(s *Source) {
	names := make([]string, 0, len(s.itemCode))
	for it := range s.itemCode {
		names = append(names, it)
	}
	slices.Sort(names)
	renumber := make(map[int32]int32, len(names))
	for c, it := range names {
		renumber[s.itemCode[it]] = int32(c)
		s.itemCode[it] = int32(c)
	}
	sets := []int32{0}
	for i := range s.ents {
		e := &s.ents[i]
		old := s.itemsOf(e)
		if len(old) == 0 {
			continue
		}
		at := len(sets)
		sets = append(sets, int32(len(old)))
		for _, c := range old {
			sets = append(sets, renumber[c])
		}
		slices.Sort(sets[at+1:])
		e.items = uint32(at)
	}
	s.itemSets = sets
}

// TestFileVisitorsBuildTheSameSource: a Source built from the sections'
// visits, whatever their number, holds exactly what the build that reads
// every Location again holds, and answers every request with the same
// bytes; it keeps the decoded Locations exactly when that build does.
func TestFileVisitorsBuildTheSameSource(t *testing.T) {
	saved := keepDecodedUpTo
	defer func() { keepDecodedUpTo = saved }()
	type datasetCase struct {
		name string
		data []byte
		keep int
	}
	light := generated(t, 3000, storegen.Light)
	cases := []datasetCase{
		{"default dataset", sampledata.JSON(t), saved},
		{"storegen light 3000", light, saved},
		{"storegen full 2000", generated(t, 2000, storegen.Full), saved},
		{"storegen full 2000, few kept", generated(t, 2000, storegen.Full), 700},
		{"storegen light 3000, none kept", light, 0},
		// The same hours and exception hours texts (shared by the parse)
		// under different time zones, with and without one another.
		{"one schedule's lists in three zones, none kept", zonedSchedules(600), 0},
		// A Location ReadLocation parses in more than one try: far longer
		// than the one before it.
		{"storegen light 3000, one Location 40 times longer", lengthen(t, light, 1700, 40), saved},
	}
	sectionCounts := []int{1, 2, 3, 7, 64}
	if testshared.Race {
		// One dataset cut in several sections runs the concurrent visits;
		// the plain pass compares every case.
		cases, sectionCounts = cases[3:], []int{3}
	}
	for _, tc := range cases {
		keepDecodedUpTo = tc.keep
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, tc.data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range sectionCounts {
			read, vis, sections, errR, errV := openBoth(t, path, parts)
			if errR != nil || errV != nil {
				t.Fatalf("%s, %d sections: %v / %v", tc.name, parts, errR, errV)
			}
			if parts > 1 && len(tc.data) > 1<<20 && sections < 2 {
				t.Fatalf("%s: %d sections asked, %d made; the test cuts nothing", tc.name, parts, sections)
			}
			keptR, keptV := read.ents[0].loc != nil, vis.ents[len(vis.ents)-1].loc != nil
			if keptR != keptV || slices.ContainsFunc(vis.ents, func(e entry) bool { return (e.loc != nil) != keptR }) {
				t.Errorf("%s, %d sections: decoded Locations kept %v, want %v for all", tc.name, parts, keptV, keptR)
			}
			canonicalItems(read)
			canonicalItems(vis)
			sameSource(t, read, vis)
			sameAnswers(t, read, vis)
		}
	}
}

// lengthen makes record k of a storegen file's Location about times as
// long, by a street address of that many copies of its own.
func lengthen(t *testing.T, data []byte, k, times int) []byte {
	t.Helper()
	lines := strings.Split(string(data), "\n")
	re := regexp.MustCompile(`"street_address":"([^"]*)"`)
	m := re.FindStringSubmatch(lines[k+1])
	if m == nil {
		t.Fatalf("record %d has no street address: %.200s", k, lines[k+1])
	}
	long := strings.Repeat(m[1]+" ", len(lines[k+1])*times/(len(m[1])+1))
	lines[k+1] = strings.Replace(lines[k+1], m[0], `"street_address":"`+long+`"`, 1)
	return []byte(strings.Join(lines, "\n"))
}

// spoil makes record k (one per line, after the '[' line) of a storegen
// file break a rule: an unknown time zone, or a latitude out of range.
func spoil(t *testing.T, data []byte, k int, how string) []byte {
	t.Helper()
	lines := strings.Split(string(data), "\n")
	line := lines[k+1]
	var re *regexp.Regexp
	var with string
	switch how {
	case "zone":
		re, with = regexp.MustCompile(`"timezone":"[^"]*"`), `"timezone":"Mars/Olympus_Mons"`
	case "latitude":
		re, with = regexp.MustCompile(`"latitude":[-0-9.]+`), `"latitude":99`
	case "utf8": // valid to the dataset's scan, not to the Location's parser
		re, with = regexp.MustCompile(`"address_locality":"[^"]*"`), "\"address_locality\":\"\xff\""
	case "number": // not JSON: the file's error, whatever the records
		re, with = regexp.MustCompile(`"latitude":[-0-9.]+`), `"latitude":01`
	}
	spoiled := re.ReplaceAllString(line, with)
	if spoiled == line {
		t.Fatalf("record %d has nothing to spoil by %s: %.200s", k, how, line)
	}
	lines[k+1] = spoiled
	return []byte(strings.Join(lines, "\n"))
}

// TestFileVisitorsReportTheFirstError: when records of several sections
// are invalid, the error is the one of the first in file order, exactly
// as the build that reads every Location again reports it.
func TestFileVisitorsReportTheFirstError(t *testing.T) {
	good := generated(t, 3000, storegen.Light)
	type spoilCase struct {
		name  string
		spoil func([]byte) []byte
		index int
	}
	cases := []spoilCase{
		{"early and late", func(d []byte) []byte { return spoil(t, spoil(t, d, 2900, "zone"), 40, "latitude") }, 40},
		{"late only", func(d []byte) []byte { return spoil(t, d, 2999, "zone") }, 2999},
		{"middle then end", func(d []byte) []byte { return spoil(t, spoil(t, d, 1500, "zone"), 2999, "latitude") }, 1500},
		{"first", func(d []byte) []byte { return spoil(t, spoil(t, d, 0, "latitude"), 1, "zone") }, 0},
	}
	sectionCounts := []int{1, 2, 3, 7, 64}
	if testshared.Race {
		// Sections failing at once run the concurrent path; the plain
		// pass checks every placement.
		cases, sectionCounts = cases[:1], []int{3}
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, tc.spoil(good), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range sectionCounts {
			_, _, _, want, got := openBoth(t, path, parts)
			var fe *dataset.FieldError
			if got == nil || want == nil || got.Error() != want.Error() || !errors.As(got, &fe) {
				t.Fatalf("%s, %d sections: error %v, want %v", tc.name, parts, got, want)
			}
			if fe.Index != tc.index || fe.Offset == 0 {
				t.Errorf("%s, %d sections: record %d at byte %d, want record %d with its offset", tc.name, parts, fe.Index, fe.Offset, tc.index)
			}
		}
	}
}

// TestFileVisitorsRefuseLocationsAsTheScanDoes: the FileVisitors parse
// each Location themselves (dataset.LocationParser), so their sections'
// scan only delimits it; a file with a Location that is not JSON, or that
// the scan accepts and the Location's parser does not, still fails with
// the error a checked scan and the build that reads every Location again
// report.
func TestFileVisitorsRefuseLocationsAsTheScanDoes(t *testing.T) {
	good := generated(t, 3000, storegen.Light)
	cases := []struct {
		name  string
		spoil func([]byte) []byte
		index int  // the record the error names
		scan  bool // the dataset's scan itself refuses the file
	}{
		{"bad UTF-8", func(d []byte) []byte { return spoil(t, d, 1500, "utf8") }, 1500, false},
		{"bad UTF-8, then a bad zone", func(d []byte) []byte { return spoil(t, spoil(t, d, 2900, "zone"), 40, "utf8") }, 40, false},
		{"a bad zone, then a number that is not JSON", func(d []byte) []byte { return spoil(t, spoil(t, d, 2900, "number"), 40, "zone") }, 2900, true},
		{"bad UTF-8, then a number that is not JSON", func(d []byte) []byte { return spoil(t, spoil(t, d, 2999, "number"), 0, "utf8") }, 2999, true},
	}
	sectionCounts := testshared.RaceCases([]int{1, 3, 7}, []int{3})
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, tc.spoil(good), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range sectionCounts {
			var got, want error
			if tc.scan {
				_, want = dataset.OpenFile(path)
				_, got = dataset.OpenFileWith(path, parts, FileVisitors())
			} else {
				_, _, _, want, got = openBoth(t, path, parts)
			}
			var fe *dataset.FieldError
			if got == nil || want == nil || got.Error() != want.Error() || !errors.As(got, &fe) {
				t.Fatalf("%s, %d sections: error %v, want %v", tc.name, parts, got, want)
			}
			if fe.Index != tc.index {
				t.Errorf("%s, %d sections: record %d, want record %d", tc.name, parts, fe.Index, tc.index)
			}
		}
	}
}

// TestFileVisitorsBuildOnce: a File whose FileVisitors saw its records
// builds one Source; building it again, or after its records changed, is
// an error rather than a Source without the items the visits took over.
func TestFileVisitorsBuildOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampledata.JSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(df *dataset.File)
	}{
		{"built twice", func(df *dataset.File) {
			if _, err := NewFile(df, Options{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"records set", func(df *dataset.File) {
			if df.Records != nil || df.Len() == 0 {
				t.Fatalf("%d Records held, Len %d: want none held, all counted", len(df.Records), df.Len())
			}
			df.Records = []dataset.Record{{ID: "other"}}
		}},
	} {
		df, err := dataset.OpenFileWith(path, 2, FileVisitors())
		if err != nil {
			t.Fatal(err)
		}
		tc.change(df)
		if _, err := NewFile(df, Options{}); !errors.Is(err, errNotVisited) {
			t.Errorf("%s: err = %v, want errNotVisited", tc.name, err)
		}
		df.Close()
	}
}

// TestFileVisitorsLetTheLoadGo: once built, the Source (which keeps its
// File, and the File its sections) holds neither the sections' memos nor
// the loader, only what serving reads.
func TestFileVisitorsLetTheLoadGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampledata.JSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	df, err := dataset.OpenFileWith(path, 2, FileVisitors())
	if err != nil {
		t.Fatal(err)
	}
	defer df.Close()
	s, err := NewFile(df, Options{})
	if err != nil {
		t.Fatal(err)
	}
	secs := 0
	for _, v := range s.file.Visitors() {
		sec, ok := v.(*section)
		if !ok {
			continue
		}
		secs++
		if sec.memo != nil || sec.load.ld != nil {
			t.Errorf("a section still holds its memo (%v) or the loader (%v)", sec.memo != nil, sec.load.ld != nil)
		}
	}
	if secs == 0 {
		t.Fatal("the Source's File holds no sections")
	}
	if len(s.compiled) < 2 || len(s.lists) < 2 {
		t.Errorf("the Source lost its tables: %d schedules, %d lists", len(s.compiled), len(s.lists))
	}
}

// TestFileVisitorsReadEachLocationInPlace: the sections decode every
// Location of a clean file from the tree ReadLocation parsed where the
// scan found it (dataset.LocationReader), a Location far longer than the
// one before it included, rather than parsing its text a second time.
func TestFileVisitorsReadEachLocationInPlace(t *testing.T) {
	light := generated(t, 3000, storegen.Light)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"storegen light 3000", light},
		{"one Location 40 times longer", lengthen(t, light, 1700, 40)},
	} {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, tc.data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, parts := range testshared.RaceCases([]int{1, 3}, []int{3}) {
			dv, err := dataset.OpenFileWith(path, parts, FileVisitors())
			if err != nil {
				t.Fatal(err)
			}
			readIn, repeats := 0, 0
			for _, v := range dv.Visitors() {
				readIn += v.(*section).readIn
				repeats = v.(*section).load.repeats.Len()
			}
			dv.Close()
			if readIn != 3000 {
				t.Errorf("%s, %d sections: %d of 3000 Locations decoded from the tree read in place", tc.name, parts, readIn)
			}
			// A chain's stores repeat their opening hours: the load parses
			// a week once and shares its tree.
			if repeats == 0 || repeats > 3000/4 {
				t.Errorf("%s, %d sections: the sections remember %d repeated arrays of 3000 Locations", tc.name, parts, repeats)
			}
		}
	}
}

// TestReadLocation: ReadLocation takes the Location at the start of the
// text, whatever follows it and however long it is, and returns its id;
// it refuses, holding nothing, text that is no whole Location or whose id
// the scan would not read (empty, not a string, written with an escape).
func TestReadLocation(t *testing.T) {
	long := `{"id":"b","name":"` + strings.Repeat("x", 3*firstBound) + `"}`
	for _, tc := range []struct {
		name, text string
		n          int
		id         string
	}{
		{"alone", `{"id":"a","name":"A"}`, 21, "a"},
		{"the rest of the record after it", `{"name":"A","id":"a"},"aliases":["x"]},` + "\n" + `{"location":{}}`, 21, "a"},
		{"longer than the first bound", long + `,"items":[]}`, len(long), "b"},
		{"space inside", `{ "id" : "a" }]`, 14, "a"},
		{"an escaped id", `{"id":"\u0061"}`, 0, ""},
		{"an empty id", `{"id":""}`, 0, ""},
		{"a number id", `{"id":7}`, 0, ""},
		{"no id", `{"name":"A"}`, 0, ""},
		{"not an object", `["a"]`, 0, ""},
		{"space first", ` {"id":"a"}`, 0, ""},
		{"cut off", `{"id":"a","name":"A`, 0, ""},
		{"a name twice", `{"id":"a","id":"b"}`, 0, ""},
		{"invalid UTF-8", "{\"id\":\"a\",\"x\":\"\xff\"}", 0, ""},
		{"empty", ``, 0, ""},
	} {
		s := FileVisitors()().(*section)
		b := []byte(tc.text)
		n, id, ok := s.ReadLocation(b)
		if ok != (tc.n > 0) || n != tc.n || id != tc.id {
			t.Errorf("%s: ReadLocation = %d, %q, %v; want %d, %q", tc.name, n, id, ok, tc.n, tc.id)
		}
		held := s.takeRead(b[:n])
		if ok != (held != nil) {
			t.Errorf("%s: holds a tree: %v, want %v", tc.name, held != nil, ok)
		}
		if held != nil && held.v.Raw != tc.text[:n] {
			t.Errorf("%s: holds %q", tc.name, held.v.Raw)
		}
	}
}

// TestReadLocationBound: a section's first Location is parsed from
// firstBound bytes, each next one from boundSlack more than the longest of
// the last recentLocations it read, so one long Location raises the bound
// for the next few only.
func TestReadLocationBound(t *testing.T) {
	s := FileVisitors()().(*section)
	if got := s.nextBound(); got != firstBound {
		t.Fatalf("first bound %d, want %d", got, firstBound)
	}
	loc := func(n int) []byte { // a Location of exactly n bytes
		head := `{"id":"a","name":"`
		return []byte(head + strings.Repeat("x", n-len(head)-2) + `"}`)
	}
	for k, n := range []int{300, 5000, 300, 300, 300, 300, 300, 300, 300, 300} {
		b := loc(n)
		if got, _, ok := s.ReadLocation(b); !ok || got != n {
			t.Fatalf("Location %d: ReadLocation = %d, %v; want %d", k, got, ok, n)
		}
		want := 5000 + boundSlack
		if k == 0 || k >= 1+recentLocations {
			want = 300 + boundSlack
		}
		if got := s.nextBound(); got != want {
			t.Errorf("after Location %d (%d bytes): bound %d, want %d", k, n, got, want)
		}
	}
}

// zonedSchedules is a dataset of n stores sharing one weekly hours text
// and one exception hours text, in three time zones, each list present in
// some stores and absent in others.
func zonedSchedules(n int) []byte {
	const week = `[{"day":"monday","opens":"08:00","closes":"18:00"},{"day":"tuesday","opens":"08:00","closes":"18:00"},{"day":"saturday","opens":"09:00","closes":"13:00"}]`
	const closed = `[{"title":"Closed for stocktaking","valid_from":"2026-12-28","valid_through":"2026-12-29"}]`
	zones := []string{"Europe/Berlin", "America/New_York", "Asia/Tokyo"}
	var b strings.Builder
	b.WriteString("[\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"location":{"id":"z%04d","name":"Zoned %d","timezone":%q`, i, i, zones[i%3])
		if i%5 != 0 {
			b.WriteString(`,"hours":` + week)
		}
		if i%2 == 0 {
			b.WriteString(`,"exception_hours":` + closed)
		}
		fmt.Fprintf(&b, `},"aliases":["zoned-%d"]}`, i)
	}
	b.WriteString("\n]\n")
	return []byte(b.String())
}

// identifierFile writes n records (past the size whose identifiers the
// dataset checks by sorting them) with aliases in two alphabets, every
// seventh record private.
func identifierFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		id := fmt.Sprintf("loc_%012x", uint64(i)*0x9e3779b97f4a7c15>>16)
		fmt.Fprintf(&b, `{"location":{"id":%q,"name":"Store %d"},"aliases":[%q`, id, i, fmt.Sprintf("store-%07d", n-i))
		if i%3 == 0 {
			fmt.Fprintf(&b, `,%q`, fmt.Sprintf("VBE-%d", i))
		}
		b.WriteString("]")
		if i%7 == 3 {
			b.WriteString(`,"private":true`)
		}
		b.WriteString("}")
	}
	b.WriteString("\n]\n")
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSharedOrderIsTheSectionsOwn: the order the dataset's identifier
// check sorted every record's ids and aliases in gives the public
// records' doc numbers and sorted aliases exactly as sorting the
// sections' own gives them, private records included; and a Source built
// with it is the Source built without.
func TestSharedOrderIsTheSectionsOwn(t *testing.T) {
	path := identifierFile(t, 70_000)
	open := func() *dataset.File {
		df, err := dataset.OpenFileWith(path, 3, FileVisitors())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { df.Close() })
		return df
	}
	df := open()
	secs, err := visited(df)
	if err != nil || secs == nil {
		t.Fatalf("visited: %v, %d sections", err, len(secs))
	}
	o := df.TakeIdentifierOrder()
	if o == nil {
		t.Fatal("a file of 70,000 records has no identifier order to share")
	}
	if df.TakeIdentifierOrder() != nil {
		t.Error("the File still holds the order once taken")
	}
	own := make([][]alias, len(secs))
	for k, sec := range secs {
		own[k] = sec.aliases
	}
	order, aliases, ok := sharedOrder(o, secs)
	if !ok {
		t.Fatal("sharedOrder declined the dataset's order")
	}
	for k, sec := range secs {
		sec.aliases = own[k] // sharedOrder let them go
	}
	ids, all := gather(secs)
	wantOrder, wantAliases := idOrder(ids), byKey(all)
	for k := range wantAliases {
		wantAliases[k].doc = wantOrder[wantAliases[k].doc]
	}
	if !slices.Equal(order, wantOrder) {
		t.Error("doc numbers differ from the sections' own id order")
	}
	if !slices.Equal(aliases, wantAliases) {
		t.Errorf("aliases differ from the sections' own order: %d against %d", len(aliases), len(wantAliases))
	}
	withOrder, err := NewFile(open(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	useSharedOrder = false
	defer func() { useSharedOrder = true }()
	without, err := NewFile(open(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameSource(t, withOrder, without)
}
