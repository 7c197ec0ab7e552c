package schemacheck_test

import (
	"strconv"
	"strings"
	"testing"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// distinctItems is a JSON array of n different strings.
func distinctItems(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"sku-` + strconv.Itoa(i) + `"`)
	}
	b.WriteByte(']')
	return b.String()
}

// TestUnique checks the hashed uniqueItems against the JSON Schema notion of
// equality: numbers by mathematical value, objects whatever their member
// order, arrays item by item, and the first earlier equal item named.
func TestUnique(t *testing.T) {
	wide := distinctItems(80_000)
	cases := []struct {
		name    string
		array   string
		pointer string // "" when the array is unique
		message string
	}{
		{"empty", `[]`, "", ""},
		{"one", `[1]`, "", ""},
		{"strings", `["a","b","A"]`, "", ""},
		{"repeated string", `["a","b","a"]`, "/2", "item 2 equals item 0"},
		{"1 and 1.0", `[1, 1.0]`, "/1", "item 1 equals item 0"},
		{"100 and 1e2", `[100, 2, 1e2]`, "/2", "item 2 equals item 0"},
		{"0 and -0", `[0, -0.0]`, "/1", "item 1 equals item 0"},
		{"0.1 and 1e-1", `[1e-1, 0.10]`, "/1", "item 1 equals item 0"},
		{"close numbers differ", `[1, 1.0000000000000000001, 1.0000000000000000002]`, "", ""},
		{"huge exponents", `[1e400, 10e399, 1e401]`, "/1", "item 1 equals item 0"},
		{"number and string", `[1, "1"]`, "", ""},
		{"null false true", `[null, false, true, 0, ""]`, "", ""},
		{"repeated null", `[null, 1, null]`, "/2", "item 2 equals item 0"},
		{"objects reordered", `[{"a":1,"b":[2]}, {"b":[2.0],"a":1}]`, "/1", "item 1 equals item 0"},
		{"objects differ", `[{"a":1,"b":2}, {"a":2,"b":1}, {"a":1}]`, "", ""},
		{"swapped names and values", `[{"a":"b"}, {"b":"a"}]`, "", ""},
		{"arrays order matters", `[[1,2], [2,1]]`, "", ""},
		{"nested equal arrays", `[[1,[2]], [1,[2e0]]]`, "/1", "item 1 equals item 0"},
		{"first earlier match named", `["x","y","y","x"]`, "/2", "item 2 equals item 1"},
		{"80k distinct", wide, "", ""},
		{"80k then a repeat", wide[:len(wide)-1] + `,"sku-79999"]`, "/80000", "item 80000 equals item 79999"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := sc.Parse([]byte(tc.array))
			if err != nil {
				t.Fatal(err)
			}
			var c sc.Checker
			c.Unique(nil, &v)
			vs := c.Violations()
			if tc.pointer == "" {
				if c.Failed() {
					t.Fatalf("unique array reported: %v", vs)
				}
				return
			}
			if len(vs) != 1 || vs[0].Pointer != tc.pointer || vs[0].Keyword != "uniqueItems" || !strings.Contains(vs[0].Message, tc.message) {
				t.Fatalf("violations %v, want one uniqueItems at %s saying %q", vs, tc.pointer, tc.message)
			}
		})
	}
}

// TestUniqueAgreesWithEqual checks, over every pair drawn from a pool of
// look-alike values, that Unique reports a pair exactly when Equal holds.
func TestUniqueAgreesWithEqual(t *testing.T) {
	pool := []string{`0`, `-0`, `0.0`, `1`, `1.0`, `10e-1`, `-1`, `2`, `1e400`, `"1"`, `""`, `null`, `true`, `false`,
		`[]`, `{}`, `[1]`, `[1.0]`, `[[]]`, `{"a":1}`, `{"a":1.0}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":"1"}`, `{"b":1}`}
	vals := make([]sc.Value, len(pool))
	for i, p := range pool {
		v, err := sc.Parse([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = v
	}
	for i := range pool {
		for j := range pool {
			arr := sc.Value{Kind: sc.Array, Items: []sc.Value{vals[i], vals[j]}}
			var c sc.Checker
			c.Unique(nil, &arr)
			if want := sc.Equal(&vals[i], &vals[j]); c.Failed() != want {
				t.Errorf("[%s, %s]: duplicate reported %v, Equal says %v", pool[i], pool[j], c.Failed(), want)
			}
		}
	}
}
