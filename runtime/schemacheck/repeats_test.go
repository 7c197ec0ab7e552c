package schemacheck_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// hoursOf is a week of opening hours as a store's Location writes them: an
// array of objects, long enough for a Repeats to keep.
func hoursOf(opens string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"day":%q,"opens":%q,"closes":"20:00"}`, d, opens)
	}
	b.WriteByte(']')
	return b.String()
}

// parseBoth reads text with ParseFirst and with ParseFirstRepeating over r,
// and fails unless both give the same tree, length and error. The tree is
// valid until the test ends.
func parseBoth(t *testing.T, r *sc.Repeats, text string) *sc.Value {
	t.Helper()
	plain := sc.NewDocument()
	defer plain.Release()
	want, wantN, wantErr := plain.ParseFirst([]byte(text))
	doc := sc.NewDocument()
	got, n, err := doc.ParseFirstRepeating([]byte(text), r)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || n != wantN {
		t.Fatalf("ParseFirstRepeating(%.60q) = %d, %v; ParseFirst %d, %v", text, n, err, wantN, wantErr)
	}
	if !sameTree(got, want) {
		t.Fatalf("ParseFirstRepeating(%.60q) read another tree than ParseFirst", text)
	}
	t.Cleanup(doc.Release)
	return got
}

// TestRepeatsShareTrees: a repeated array of objects is parsed once and its
// tree shared, and every document reads as ParseFirst reads it.
func TestRepeatsShareTrees(t *testing.T) {
	r := sc.NewRepeats()
	week := hoursOf("09:00")
	docs := []string{
		`{"id":"a","hours":` + week + `}`,
		`{"id":"b","hours":` + week + `,"more":1} trailing`,
		`{"id":"c","hours":` + hoursOf("10:00") + `}`,
		`{"id":"d","nested":{"hours":` + week + `}}`,
		`[` + week + `,` + week + `]`,
		`{"id":"e","hours": ` + week + ` }`,
	}
	var trees []*sc.Value
	for _, d := range docs {
		trees = append(trees, parseBoth(t, r, d))
	}
	if r.Len() != 3 {
		t.Errorf("Repeats holds %d texts, want 3 (the two weeks, the object holding the first)", r.Len())
	}
	// The first reading parsed the week; every later one shares the tree
	// the Repeats made of it.
	first := &trees[1].Get("hours").Items[0]
	if &trees[0].Get("hours").Items[0] == first {
		t.Error("the first reading of the week shares a tree")
	}
	for i, v := range []*sc.Value{trees[3].Get("nested").Get("hours"), &trees[4].Items[0], &trees[4].Items[1], trees[5].Get("hours")} {
		if &v.Items[0] != first {
			t.Errorf("repeat %d of the week has a tree of its own", i)
		}
		if v.Raw != week {
			t.Errorf("repeat %d: Raw %.40q, want the week's text", i, v.Raw)
		}
	}
	if other := trees[2].Get("hours"); &other.Items[0] == first {
		t.Error("another week shares the first week's tree")
	}
	// The shared tree outlives the Documents and their reuse.
	shared := *trees[0].Get("hours")
	for range 3 {
		doc := sc.NewDocument()
		if _, err := doc.Parse([]byte(`[{"x":"` + strings.Repeat("z", 200) + `"},[1,2,3]]`)); err != nil {
			t.Fatal(err)
		}
		doc.Release()
	}
	if want, _ := sc.Parse([]byte(week)); !sameTree(&shared, &want) {
		t.Error("the shared tree changed when Documents were released and reused")
	}
	// What follows a remembered text is still read, and refused when wrong.
	for _, bad := range []string{
		`{"hours":` + week + `,"hours":1}`,
		`{"hours":` + week + ` "x":1}`,
		`{"hours":` + week,
		`{"hours":` + week[:len(week)-1] + `,}`,
		`{"hours":` + week[:len(week)-1] + `,{"day":"x"}]}`,
	} {
		parseBoth(t, r, bad)
	}
	// Kept: the two weeks, the object holding the first, and the last bad
	// text above, which is a valid array.
	if r.Len() != 4 {
		t.Errorf("Repeats holds %d texts, want 4", r.Len())
	}
	for _, d := range []string{
		`{"list":[` + strings.Repeat(`"abcdefgh",`, 10) + `"z"]}`,
		`{"short":[{"a":1}]}`,
	} {
		parseBoth(t, r, d)
		parseBoth(t, r, d)
	}
	if r.Len() != 4 {
		t.Errorf("Repeats holds %d texts, want still 4", r.Len())
	}
}

// TestRepeatsShareObjects: an object of objects (a store's amenities) is
// shared as an array of them is; an object of scalars (an address) is not
// kept.
func TestRepeatsShareObjects(t *testing.T) {
	r := sc.NewRepeats()
	amenities := `{"dev.ucp.amenity.parking":{"description":"Free customer parking"},"dev.ucp.amenity.wi_fi":{"description":"Free Wi-Fi"}}`
	address := `{"street_address":"910 Mission Street","address_locality":"Yonkers","address_region":"NY"}`
	var trees []*sc.Value
	for _, id := range []string{"a", "b", "c"} {
		trees = append(trees, parseBoth(t, r, `{"id":"`+id+`","address":`+address+`,"amenities":`+amenities+`}`))
	}
	if r.Len() != 1 {
		t.Errorf("Repeats holds %d texts, want 1 (the amenities)", r.Len())
	}
	first := &trees[1].Get("amenities").Members[0]
	if &trees[2].Get("amenities").Members[0] != first {
		t.Error("the repeated amenities have a tree of their own")
	}
	if &trees[2].Get("address").Members[0] == &trees[1].Get("address").Members[0] {
		t.Error("an address shares a tree")
	}
	for _, bad := range []string{
		`{"amenities":` + amenities + `,"amenities":{}}`,
		`{"amenities":` + amenities + `]`,
		`[` + amenities + `}`,
	} {
		parseBoth(t, r, bad)
	}
}

// TestRepeatsKeepDepth: a remembered array repeated deeper than it was
// first read is refused when it nests past the limit there, as ParseFirst
// refuses it.
func TestRepeatsKeepDepth(t *testing.T) {
	r := sc.NewRepeats()
	deep := strings.Repeat("[", 40) + `{"k":"` + strings.Repeat("v", 64) + `"}` + strings.Repeat("]", 40)
	parseBoth(t, r, `{"a":`+deep+`}`)
	if r.Len() == 0 {
		t.Fatal("Repeats holds nothing")
	}
	for _, outer := range []int{400, 471, 472, 473, 600} {
		text := strings.Repeat(`{"o":`, outer) + deep + strings.Repeat("}", outer)
		parseBoth(t, r, text)
	}
}

// TestRepeatsBounded: a Repeats stops remembering at its bounds, and what
// it no longer remembers is parsed as before.
func TestRepeatsBounded(t *testing.T) {
	r := sc.NewRepeats()
	for i := range 3000 {
		parseBoth(t, r, fmt.Sprintf(`{"h":[{"n":%d,"title":"Independence Day","opens":"09:00","closes":"20:00"}]}`, i))
	}
	if r.Len() != 2048 {
		t.Errorf("Repeats holds %d texts, want its bound 2048", r.Len())
	}
	alike := sc.NewRepeats()
	for i := range 40 {
		// The same first 64 bytes: at most 16 are kept.
		parseBoth(t, alike, `{"a":[[`+strings.Repeat("0,", 40)+fmt.Sprint(i)+`]]}`)
	}
	if alike.Len() != 16 {
		t.Errorf("Repeats holds %d texts alike, want 16", alike.Len())
	}
	long := `{"a":[{"s":"` + strings.Repeat("x", 3000) + `"}]}`
	parseBoth(t, alike, long)
	if alike.Len() != 16 {
		t.Errorf("Repeats kept a %d-byte text", len(long))
	}
}

// FuzzParseFirstRepeating: a text read a second time over the Repeats its
// first reading filled reads as ParseFirst reads it.
func FuzzParseFirstRepeating(f *testing.F) {
	week := hoursOf("08:00")
	for _, s := range []string{
		`{"hours":` + week + `}`,
		`[` + week + `,` + week + `] x`,
		`{"a":` + week + `,"a":` + week + `}`,
		`[` + strings.Repeat(`[{"a":"`+strings.Repeat("b", 70)+`"}],`, 3) + `1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		r := sc.NewRepeats()
		parseBoth(t, r, string(data))
		parseBoth(t, r, string(data))
	})
}

// TestRepeatsConcurrent: documents parsed on several goroutines over one
// Repeats read as ParseFirst reads them (run with -race).
func TestRepeatsConcurrent(t *testing.T) {
	r := sc.NewRepeats()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				week := hoursOf(fmt.Sprintf("%02d:00", (i+g)%24))
				text := []byte(`{"n":` + fmt.Sprint(i) + `,"hours":` + week + `}`)
				want, err := sc.Parse(text)
				if err != nil {
					t.Error(err)
					return
				}
				doc := sc.NewDocument()
				got, _, err := doc.ParseFirstRepeating(text, r)
				if err != nil || !sameTree(got, &want) {
					t.Errorf("goroutine %d, document %d: read another tree (%v)", g, i, err)
				}
				doc.Release()
			}
		})
	}
	wg.Wait()
	if r.Len() != 24 {
		t.Errorf("Repeats holds %d texts, want the 24 weeks", r.Len())
	}
}

// sameTree reports whether two trees hold the same values and texts, as
// reflect.DeepEqual would but for the number a shared tree carries.
func sameTree(a, b *sc.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Str != b.Str || a.Raw != b.Raw || a.Num != b.Num ||
		len(a.Items) != len(b.Items) || len(a.Members) != len(b.Members) ||
		(a.Items == nil) != (b.Items == nil) || (a.Members == nil) != (b.Members == nil) {
		return false
	}
	for i := range a.Items {
		if !sameTree(&a.Items[i], &b.Items[i]) {
			return false
		}
	}
	for i := range a.Members {
		if a.Members[i].Name != b.Members[i].Name || !sameTree(&a.Members[i].Value, &b.Members[i].Value) {
			return false
		}
	}
	return true
}

// TestSharedNumbersTheText: Shared is 0 for a value no Repeats shares (a
// first reading, or a plain parse), the same number for every later
// reading of one text, and another number for another text.
func TestSharedNumbersTheText(t *testing.T) {
	r := sc.NewRepeats()
	nine, ten := hoursOf("09:00"), hoursOf("10:00")
	hours := func(text string) uint32 {
		return parseBoth(t, r, `{"id":"x","hours":`+text+`}`).Get("hours").Shared()
	}
	if n := hours(nine); n != 0 {
		t.Errorf("first reading shared as %d", n)
	}
	a, b := hours(nine), hours(nine)
	hours(ten)
	c := hours(ten)
	if a == 0 || a != b {
		t.Errorf("one text read twice after its first reading: %d and %d", a, b)
	}
	if c == 0 || c == a {
		t.Errorf("another text: %d (the first's %d)", c, a)
	}
	plain := sc.NewDocument()
	defer plain.Release()
	v, err := plain.Parse([]byte(`{"hours":` + nine + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := v.Get("hours").Shared(); n != 0 {
		t.Errorf("a plain parse's value shared as %d", n)
	}
}
