package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generator/load"
)

// keywordsSpec is the synthetic spec with one member per keyword the check
// emitter compiles; it lives in this repository, so the keyword differential
// runs in every checkout, not only beside ../shared.
const keywordsSpec = "../testdata/keywords"

// keywordsTargets is the one payload kind of the keywords spec: the
// check_keywords tool's sample parameter.
var keywordsTargets = map[string]target{
	"sample": {name: "Sample", url: "mem:///schemas/sample.json", dir: "request", op: "check"},
}

// keywordMember is one member of a family object of the sample
// ("numbers/minimum"), with its schema as written.
type keywordMember struct {
	family, name string
	schema       json.RawMessage
}

func (m keywordMember) String() string { return m.family + "/" + m.name }

// keywordMembers reads the sample schema and its family files and lists
// every family member, in file order, so the corpus follows the spec and
// grows with it.
func keywordMembers(t *testing.T) []keywordMember {
	t.Helper()
	dir := filepath.Join(keywordsSpec, "schemas")
	sample := readOrdered(t, filepath.Join(dir, "sample.json"), "properties")
	var out []keywordMember
	for _, fam := range sample {
		var ref struct {
			Ref string `json:"$ref"`
		}
		if err := json.Unmarshal(fam.value, &ref); err != nil || ref.Ref == "" {
			t.Fatalf("sample.json: family %s must be a plain $ref to its file", fam.key)
		}
		for _, m := range readOrdered(t, filepath.Join(dir, ref.Ref), "properties") {
			out = append(out, keywordMember{family: fam.key, name: m.key, schema: m.value})
		}
	}
	return out
}

type orderedMember struct {
	key   string
	value json.RawMessage
}

// readOrdered returns the members of the object under key in the JSON file,
// in source order (load.Parse keeps it).
func readOrdered(t *testing.T, path, key string) []orderedMember {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := load.Parse(filepath.Base(path), b)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	obj := root.Get(key)
	if obj == nil || obj.Kind != load.Object {
		t.Fatalf("%s: no %q object", path, key)
	}
	var out []orderedMember
	for _, m := range obj.Members {
		out = append(out, orderedMember{m.Key, m.Value.JSON()})
	}
	return out
}

// keywordBoundaries are hand-picked values for each member, at and around
// the edges of its keywords. Every member of the spec must have an entry,
// so a new member cannot go untested by accident, and each list starts with
// a value its member accepts (the "every member valid" document, which both
// sides must accept, is made of those).
var keywordBoundaries = map[string][]string{
	// minimum -1.5; the long decimals round to -1.5 as float64 but lie
	// on either side of it.
	"numbers/minimum": {`-1.5`, `-1.50`, `-15e-1`, `-0.15e1`, `-1.5000000000000000001`, `-1.4999999999999999999`, `-1.51`, `-2`, `"-1"`, `-1.5e0`},
	// maximum 100
	"numbers/maximum": {`100`, `100.0`, `1e2`, `1E+2`, `100.00000000000000001`, `99.99999999999999999`, `101`, `1e3`, `-1e308`, `1e400`, `-1e400`},
	// exclusiveMinimum 0: 1e-400 is zero as a float64 but positive
	"numbers/exclusive_minimum": {`5e-324`, `0`, `-0`, `0.0`, `0e10`, `1e-400`, `-1e-400`, `1e-7`, `-0.0`, `0.000000000000000000000000000001`},
	// exclusiveMaximum 1e2
	"numbers/exclusive_maximum": {`99.9`, `100`, `1e2`, `100.0`, `99.999999999999999999`, `100.00000000000000001`, `-100`, `0.1e3`},
	// integer strictly between -3 and 3
	"numbers/exclusive_range": {`-2`, `-3`, `2`, `3`, `2.0`, `2.5`, `-2.0e0`, `0`, `-0`, `1e0`, `3e0`, `-3.0`, `2.9999999999999999999`, `0.2e1`},
	// 0.1 <= x < 0.3, bounds no float64 holds exactly
	"numbers/decimal_bound": {`0.1`, `0.10`, `1e-1`, `0.09999999999999999999`, `0.1000000000000000000001`, `0.3`, `0.29999999999999999999`,
		`0.30000000000000000001`, `0.299999999999999988897769753748434595763683319091796875`, `0.2`, `0.30000000000000004`, `3e-1`, `0.1000000000000000055511151231257827021181583404541015625`},
	// minimum 5, exclusiveMaximum 10, no type: other types pass
	"numbers/untyped_bounds": {`5`, `4.999`, `10`, `9.99`, `5.0`, `1e1`, `"1"`, `null`, `true`, `[]`, `{}`},

	// minLength 2, in code points
	"strings/min_length": {`"ab"`, `""`, `"a"`, `"é"`, `"éé"`, `"😀"`, `"😀😀"`, `"\ud83d\ude00"`, `"a\u0000"`, `"e\u0301"`, `"\u00e9"`, `2`},
	// maxLength 3: astral characters are one code point (two UTF-16 units, four bytes)
	"strings/max_length": {`"abc"`, `"abcd"`, `"ééé"`, `"éééé"`, `"😀😀😀"`, `"😀😀😀😀"`, `"\ud83d\ude00\ud83d\ude00\ud83d\ude00"`,
		`"\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00"`, `"a😀b"`, `"a😀bc"`, `"👍🏽x"`, `"👍🏽xy"`, `"\n\t\r"`, `""`, `"e\u0301e\u0301"`, `"\u0000\u0000\u0000\u0000"`},
	// exactly one code point
	"strings/exact_length": {`"a"`, `""`, `"😀"`, `"é"`, `"e\u0301"`, `"ab"`, `"\ud83d\ude00"`, `"\u0000"`, `"\ufeff"`, `"🇫🇷"`},
	// an unanchored search for b+c
	"strings/pattern_search": {`"bc"`, `"abbbcd"`, `"abc"`, `"ac"`, `"cb"`, `"BC"`, `"xbcx"`, `"b\nc"`, `"\nbc\n"`, `""`, `"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbc"`},
	// anchored: $ is the end of input, not before a final newline
	"strings/pattern_anchored": {`"ab"`, `"abcd"`, `"abcde"`, `"a"`, `"ab\n"`, `"\nab"`, `"AB"`, `"ab1"`, `"é"`, `"abé"`, `"abc\u2028"`},
	// \w and \d are ASCII, \s is Unicode whitespace and line terminators
	"strings/pattern_classes": {`"a 1"`, `"a_1 23"`, `"a\t1"`, `"a\u00a01"`, `"a\u30001"`, `"a\ufeff1"`, `"a\u200b1"`, `"é 1"`, `"a ١"`,
		`"a  1"`, `"a 1\n"`, `"a\n1"`, `"a\u20281"`, `"a\u00851"`, `"Z9 0"`},
	// '.' is one code point other than a line terminator
	"strings/pattern_dot": {`"abc"`, `"a\nc"`, `"a\rc"`, `"a😀c"`, `"aéc"`, `"a\u0085c"`, `"a\u000bc"`, `"ac"`, `"abbc"`, `"a\u0000c"`, `"a\u2028c"`, `"a\u2029c"`},
	// minLength and pattern without a type: non-strings pass
	"strings/untyped_string": {`"xy"`, `"x"`, `"yx"`, `"x😀"`, `1`, `null`, `[]`, `{}`, `true`},

	// RFC 3339 date-time: 't' and 'z' are allowed; a leap second only at 23:59:60 UTC
	"formats/date_time": {`"2026-08-25T10:00:00Z"`, `"2026-08-25t10:00:00z"`, `"2026-12-31T23:59:60Z"`, `"2026-12-31T22:59:60-01:00"`, `"2027-01-01T00:59:60+01:00"`,
		`"2026-12-31T23:58:60Z"`, `"2026-06-30T12:00:60+00:00"`, `"2026-08-25T10:00:00"`, `"2026-08-25 10:00:00Z"`, `"2026-08-25T24:00:00Z"`,
		`"2026-08-25T10:00:00.123456789Z"`, `"2026-08-25T10:00:00.Z"`, `"2026-08-25T10:00:00+24:00"`, `"2026-08-25T10:00:00+23:59"`, `"2026-02-29T10:00:00Z"`,
		`"2024-02-29T10:00:00Z"`, `"2026-08-25T10:60:00Z"`, `"2026-08-25T10:00:61Z"`, `"2026-08-25T10:00:00+0100"`, `"2026-08-25T1:00:00Z"`, `"2026-08-25"`, `""`},
	"formats/date": {`"2026-02-28"`, `"2026-02-29"`, `"2024-02-29"`, `"1900-02-29"`, `"2000-02-29"`, `"2026-13-01"`, `"2026-00-10"`, `"2026-01-00"`, `"2026-04-31"`,
		`"2026-1-01"`, `"20260101"`, `"0000-01-01"`, `"2026-08-25T10:00:00Z"`, `"２０２６-01-01"`},
	"formats/uri": {`"https://example.com"`, `"mailto:a@b.c"`, `"urn:isbn:0451450523"`, `"/relative/path"`, `"//host/path"`, `""`, `"http://[::1]/"`,
		`"http://::1/"`, `"x:"`, `":x"`, `"1http://x"`, `"http://example.com/é"`, `"http://example.com:port/"`, `"HTTP://EXAMPLE.COM"`},
	// uri-reference without a type: non-strings pass
	"formats/uri_reference": {`"/relative/path"`, `"#frag"`, `""`, `"https://example.com/x?y#z"`, `"a\\b"`, `"http://[::1/"`, `"%zz"`, `7`, `null`},
	"formats/uuid": {`"123e4567-e89b-12d3-a456-426614174000"`, `"123E4567-E89B-12D3-A456-426614174000"`, `"00000000-0000-0000-0000-000000000000"`,
		`"123e4567e89b12d3a456426614174000"`, `"{123e4567-e89b-12d3-a456-426614174000}"`, `"urn:uuid:123e4567-e89b-12d3-a456-426614174000"`,
		`"123e4567-e89b-12d3-a456-42661417400"`, `"123e4567-e89b-12d3-a456-42661417400g"`, `"123e4567-e89b-12d3-a4564-26614174000"`},

	"arrays/item_count": {`[1]`, `[]`, `[1,2,3]`, `[1,2,3,4]`, `[null,null,null]`, `[[],[],[],[]]`, `{"0":1}`},
	"arrays/no_items":   {`[]`, `[null]`, `[[]]`, `{}`},
	// uniqueItems by JSON equality: 1 = 1.0 = 1e0, -0 = 0, member order does not matter, array order does
	"arrays/unique": {`[]`, `[1]`, `[1,1]`, `[1,1.0]`, `[1,"1"]`, `[1,true]`, `[0,-0]`, `[0,false]`, `[1e2,100]`, `[0.1,0.10000000000000001]`,
		`[null,null]`, `[[1,2],[2,1]]`, `[[1,2],[1,2.0]]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `[{"a":1},{"a":1.0}]`, `[{"a":1},{"a":"1"}]`,
		`[{"a":[1,{"b":null}]},{"a":[1,{"b":null}]}]`, `[{},[]]`, `["a","a "]`, `["é","e\u0301"]`, `[1,2,3,1]`, `[0.1,1e-1]`},
	"arrays/unique_objects": {`[]`, `[{}]`, `[{},{}]`, `[{"a":1,"b":[1,2]},{"b":[1,2.0],"a":1}]`, `[{"a":1},{"b":1}]`, `[{"a":null},{}]`,
		`[{},{"a":1},{"b":1},{"c":1}]`, `[{},{"a":1},{"b":1},{"c":1},{"d":1}]`, `[1]`, `[[]]`},
	// items through a $ref to a recursive tree
	"arrays/forest": {`[]`, `[{"value":0}]`, `[{"value":99,"children":[]}]`, `[{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}]`,
		`[{"value":1,"children":[{"value":2,"children":[{"value":100}]}]}]`, `[{"value":1,"children":[{"value":2,"children":[{}]}]}]`,
		`[{"value":1,"children":[{"value":2,"children":[{"value":3,"x":1}]}]}]`, `[{"value":1.0}]`, `[{"value":1.5}]`, `[{"value":-1}]`,
		`[{"value":1,"children":{}}]`, `[{"value":1,"children":[null]}]`, `[{"value":"1"}]`, `[{"children":[]}]`, `[{"value":1},{"value":2,"children":[{"value":3}]}]`},
	// at least one integer of at least 5; 5.0 is an integer
	"arrays/contains": {`[5]`, `[]`, `[4]`, `[4.9,5.0]`, `["5"]`, `[1,2,3,1e1]`, `[5.5]`, `[null,{},[],6]`, `[[5]]`, `{"0":5}`},
	// at least two "x"
	"arrays/min_contains": {`["x","x"]`, `["x"]`, `[]`, `["x","y","x"]`, `["X","x"]`, `["x",["x"],"x"]`, `[["x"],["x"]]`, `["x","x","x","x"]`, `"xx"`},
	// one string, not two (minContains defaults to 1)
	"arrays/max_contains": {`["a"]`, `[]`, `[1]`, `["a","b"]`, `[1,"a",2]`, `[1,"a",2,""]`, `[[""]]`, `[""]`},
	// no type: at most two objects with kind, zero allowed; non-arrays pass
	"arrays/contains_range": {`[]`, `[{"kind":1}]`, `[{"kind":1},{"kind":2}]`, `[{"kind":1},{"kind":2},{"kind":3}]`, `[{},{},{}]`, `[{"kind":1},{},{"kind":2},{"kind":null}]`, `{"kind":1}`, `"a"`, `null`},
	// minContains and maxContains without contains assert nothing
	"arrays/counts_alone": {`[]`, `[1]`, `[1,2]`, `[1,2,3]`, `{}`},
	// exactly one total and one subtotal, in any order
	"arrays/exactly_one": {`[{"kind":"total"},{"kind":"subtotal"}]`, `[{"kind":"subtotal"},{"kind":"tax"},{"kind":"total"}]`, `[]`, `[{"kind":"total"}]`,
		`[{"kind":"total"},{"kind":"total"},{"kind":"subtotal"}]`, `[{"kind":"subtotal"},{"kind":"subtotal"},{"kind":"total"}]`, `[{"kind":"Total"},{"kind":"subtotal"}]`, `[{"kind":"total"},{"kind":"subtotal"},1]`},

	"objects/property_count": {`{"a":1}`, `{}`, `{"a":1,"b":2}`, `{"a":1,"b":2,"c":3}`, `{"":null}`, `[]`},
	"objects/required":       {`{"a":1,"b":2}`, `{"a":1}`, `{"b":null}`, `{"a":null,"b":null}`, `{"A":1,"B":2}`, `{}`, `{"a":1,"b":2,"c":3}`},
	// card needs cvv and expiry; cvv needs card
	"objects/dependent_required": {`{}`, `{"card":1,"cvv":2,"expiry":3}`, `{"card":1}`, `{"card":1,"cvv":2}`, `{"cvv":2}`, `{"expiry":3}`, `{"cvv":2,"expiry":3}`, `{"card":null,"cvv":null,"expiry":null}`},
	"objects/name_pattern":       {`{}`, `{"abc":1}`, `{"a_b":1}`, `{"Abc":1}`, `{"a-b":1}`, `{"":1}`, `{"é":1}`, `{"ab\n":1}`, `{"ok":1,"NOT":2}`},
	// member names of at most three code points
	"objects/name_length": {`{}`, `{"abc":1}`, `{"abcd":1}`, `{"😀😀😀":1}`, `{"😀😀😀😀":1}`, `{"\ud83d\ude00ab":1}`, `{"ééé":1}`, `{"":1}`, `{"e\u0301e\u0301":1}`},
	// a map: names of at most two code points, integer values at most 9
	"objects/typed_map": {`{}`, `{"ab":9}`, `{"abc":9}`, `{"😀😀":9.0}`, `{"a":10}`, `{"a":-1e308}`, `{"a":"1"}`, `{"a":null}`},
	// other members must be integers in [0,100]
	"objects/additional_schema": {`{}`, `{"id":"x"}`, `{"id":1}`, `{"n":0}`, `{"n":100}`, `{"n":101}`, `{"n":-1}`, `{"n":1.0}`, `{"n":1.5}`, `{"n":"1"}`, `{"id":"x","n":5,"m":null}`, `{"ID":1}`},
	"objects/closed":            {`{}`, `{"a":"x"}`, `{"a":1}`, `{"b":[1,{}]}`, `{"b":null}`, `{"c":1}`, `{"A":"x"}`, `{"a":"x","b":1,"c":1}`},
	// object keywords without a type: non-objects pass
	"objects/untyped_object": {`{"k":1}`, `{}`, `{"k":1,"l":2}`, `{"K":1}`, `[]`, `"k"`, `null`, `1`},

	"values/const_number":       {`1`, `1.0`, `1e0`, `10e-1`, `1.00000000000000000001`, `0.99999999999999999999`, `"1"`, `true`, `[1]`, `-1`},
	"values/const_typed_number": {`1`, `1.0`, `1e0`, `100e-2`, `1.1`, `"1"`, `true`},
	"values/const_object":       {`{"a":[1,2],"b":null}`, `{"b":null,"a":[1,2]}`, `{"a":[1.0,2e0],"b":null}`, `{"a":[2,1],"b":null}`, `{"a":[1,2]}`, `{"a":[1,2],"b":null,"c":1}`, `{"a":[1,2],"b":false}`, `[["a",[1,2]],["b",null]]`},
	"values/const_array":        {`[1,"a",null,{"x":0}]`, `[1.0,"a",null,{"x":-0}]`, `[1,"a",null,{"x":0.0}]`, `["a",1,null,{"x":0}]`, `[1,"a",null]`, `[1,"a",null,{"x":0},1]`, `[1,"a",null,{"x":false}]`, `[1,"A",null,{"x":0}]`},
	"values/const_null":         {`null`, `0`, `false`, `""`, `"null"`, `[]`, `{}`, `[null]`},
	"values/const_false":        {`false`, `0`, `null`, `""`, `"false"`, `true`, `[false]`},
	"values/const_string":       {`"é😀"`, `"\u00e9\ud83d\ude00"`, `"e\u0301😀"`, `"é"`, `"é😀 "`, `"É😀"`},
	"values/enum_numbers":       {`1`, `1.0`, `2.5`, `25e-1`, `0`, `-0`, `0.0`, `100`, `1e2`, `100.0`, `2`, `-1`, `"1"`, `false`, `null`, `2.50000000000000000001`},
	"values/enum_mixed":         {`null`, `true`, `false`, `"1"`, `1`, `[]`, `{}`, `[1,{"x":"y"}]`, `[1.0,{"x":"y"}]`, `[{"x":"y"},1]`, `{"k":[null]}`, `{"k":[]}`, `{"k":null}`, `[[]]`, `[{}]`, `""`},
	"values/enum_strings":       {`"a"`, `"b"`, `"é"`, `"\u00e9"`, `"e\u0301"`, `"A"`, `"c"`, `""`, `"a "`, `1`, `null`},
	"values/enum_nullable":      {`"x"`, `null`, `3`, `3.0`, `"y"`, `"3"`, `false`, `[]`},

	// integer is about the value, not the spelling: 1.0 and 1e2 are integers
	"types/integer":           {`1`, `1.0`, `1e2`, `1E2`, `-0`, `1.5`, `1e-2`, `10e-1`, `1.0e1`, `9007199254740993`, `-9223372036854775808`, `9223372036854775807`, `"1"`, `true`, `null`, `1.000000000000000000001`},
	"types/integer_or_string": {`1`, `1.0`, `1e2`, `1.5`, `""`, `"1.5"`, `null`, `true`, `[]`, `{}`, `-7.00`},
	"types/number_or_null":    {`0`, `-0`, `1.5`, `-1`, `-1e-9`, `null`, `"0"`, `false`, `[]`, `0.0`},
	// integer, boolean, null or string; numbers at most 10, strings at most 2 code points
	"types/scalar":          {`10`, `10.0`, `11`, `1e1`, `1e2`, `2.5`, `true`, `false`, `null`, `""`, `"ab"`, `"abc"`, `"😀😀"`, `"😀😀😀"`, `[]`, `{}`, `-1e308`},
	"types/container":       {`{}`, `[]`, `[1]`, `[1,2]`, `{"a":1}`, `{"a":1,"b":2}`, `null`, `"[]"`, `0`},
	"types/nullable_object": {`{}`, `null`, `{"a":5}`, `{"a":6}`, `{"a":5.0}`, `[]`, `"a"`},
	"types/nullable_array":  {`[]`, `null`, `[5]`, `[6]`, `[5.0]`, `{}`, `0`},
	"types/nullable_string": {`null`, `""`, `"é"`, `"ab"`, `0`},
	"types/boolean":         {`true`, `false`, `0`, `1`, `"true"`, `null`, `[]`},
	"types/null":            {`null`, `0`, `false`, `""`, `"null"`, `[]`, `{}`},

	"combinators/not": {`1`, `null`, `""`, `"a"`, `[]`, `{}`, `true`, `["a"]`},
	// short strings must start with a; anything else must be an integer
	"combinators/if_then_else": {`"a"`, `"abc"`, `"b"`, `"abcd"`, `""`, `1`, `1.0`, `1.5`, `null`, `[]`, `"a😀😀"`, `"b😀😀"`},
	// kind "card" requires number
	"combinators/if_then": {`{}`, `{"kind":"card"}`, `{"kind":"card","number":1}`, `{"kind":"cash"}`, `{"number":1}`, `{"kind":"Card"}`, `{"kind":null}`, `[]`, `"card"`},
	// non-numbers must be non-empty strings
	"combinators/if_else": {`1`, `1.5`, `"a"`, `""`, `null`, `[]`, `{}`, `true`},
	// if without then/else, and then/else without if, assert nothing
	"combinators/if_alone":        {`1`, `6`, `1.5`, `"a"`},
	"combinators/then_else_alone": {`1`, `6`, `1.5`, `"a"`},
	"combinators/any_of":          {`""`, `"ab"`, `"abc"`, `"😀😀"`, `9`, `10`, `10.0`, `1e1`, `10.5`, `1e30`, `null`, `[]`},
	// branches overlap: a non-negative integer matches both
	"combinators/one_of": {`-1`, `-1.0`, `0`, `1`, `1.0`, `1e2`, `1.5`, `-1.5`, `0.5`, `-0`, `"1"`, `null`},
	// true matches everything, so a string matches both branches
	"combinators/one_of_true":    {`1`, `null`, `[]`, `{}`, `""`, `"a"`},
	"combinators/one_of_objects": {`{"a":1}`, `{"b":1}`, `{"a":1,"b":2}`, `{}`, `{"c":1}`, `{"A":1}`, `[]`},
	// a string matching exactly one of (length >= 2, starts with x), or a negative number
	"combinators/nested": {`"ab"`, `"x"`, `"xy"`, `"a"`, `""`, `"x😀"`, `-1`, `-0.5`, `0`, `-0`, `1`, `null`, `[]`},
	// 0 < x <= 100 and not 50, through two $refs
	"combinators/all_of": {`1`, `0`, `100`, `100.0`, `101`, `50`, `50.0`, `5e1`, `49.999`, `-1`, `"50"`, `null`, `1e-400`},
	// $ref next to other keywords: 0 < x <= 10 and not 5
	"combinators/ref_with_siblings": {`0.5`, `0`, `5`, `5.0`, `10`, `10.0`, `10.5`, `-1`, `"5"`, `null`, `[]`},
	"combinators/anything":          {`null`, `true`, `0`, `""`, `[]`, `{}`},
	// strings hit then:false; everything else must be a number (anyOf [false, number])
	"combinators/boolean_schemas": {`1`, `""`, `"a"`, `1.5`, `null`, `true`, `[]`, `{}`},
}

// keywordSwaps is the systematic part of the corpus: every member is set to
// each of these values, which span every JSON type and the edges the
// spec's keywords care about.
var keywordSwaps = []string{
	`null`, `true`, `false`,
	`0`, `-0`, `0.0`, `1`, `1.0`, `1e0`, `-1`, `1.5`, `-1.5`, `0.1`, `0.3`, `2.5`, `3`, `-3`, `5`, `10`, `50`, `99`, `100`, `1e2`, `101`,
	`1e-7`, `1e308`, `-1e308`, `1e400`, `1e-400`, `123456789012345678901234567890`, `9007199254740993`, `0.30000000000000000001`,
	`""`, `"a"`, `"ab"`, `"abc"`, `"abcd"`, `"x"`, `"xy"`, `"1"`, `"é"`, `"😀"`, `"é😀"`, `"\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00"`, `"a😀c"`,
	`"abbc"`, `"a 1"`, `"card"`, `"2026-08-25"`, `"2026-08-25T10:00:00Z"`, `"https://example.com/x"`, `"123e4567-e89b-12d3-a456-426614174000"`,
	`[]`, `[1]`, `[1,1.0]`, `[1,"1"]`, `[null]`, `[[]]`, `[{}]`, `["a","b","c","d"]`, `[{"value":1}]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `[1,"a",null,{"x":0}]`,
	`{}`, `{"a":1}`, `{"a":1,"b":2}`, `{"k":[null]}`, `{"k":1}`, `{"a":[1,2],"b":null}`, `{"value":1}`, `{"card":"1"}`, `{"kind":"card"}`, `{"ABCD":1}`, `{"😀":1}`,
}

// keywordReferenceWrong lists cases where the reference validator departs
// from the specification, keyed by member and value; the generated code
// answers per the specification and is not held to the reference there.
var keywordReferenceWrong = map[string]string{
	// ECMA-262 §22.2.2.7 (Atom :: .) matches any character but a
	// LineTerminator, and LineTerminator includes U+2028 and U+2029
	// (§12.3); regexp2's ECMAScript mode lets '.' match them.
	`strings/pattern_dot="a\u2028c"`: "regexp2's '.' matches U+2028",
	`strings/pattern_dot="a\u2029c"`: "regexp2's '.' matches U+2029",
}

// decodeGap is a disagreement the checks do not cause: the generated check
// accepts the value, as the reference does, and then decoding it into the
// generated Go type fails with message. members limits the gap to those
// spec members (nil: any member).
type decodeGap struct {
	members []string
	message string
	why     string
}

// keywordDecodeGaps are the known decode gaps. Only "ours rejects, the
// reference accepts" with the gap's message on one of its members is
// excused, and a gap no case hits any more fails the test, so fixing the
// generator forces this list to shrink.
var keywordDecodeGaps = []decodeGap{}

// decodeGapFor returns the index of the gap that excuses a disagreement on
// member where ours rejected with msg, or -1.
func decodeGapFor(member, msg string) int {
	for i, g := range keywordDecodeGaps {
		if !strings.Contains(msg, g.message) {
			continue
		}
		if g.members == nil {
			return i
		}
		for _, m := range g.members {
			if m == member {
				return i
			}
		}
	}
	return -1
}

// decodeStage reports whether a rejection comes from decoding into the Go
// type (schemacheck's Mismatch, Int64, UnknownTag and NoVariant messages)
// rather than from the schema checks, which run first.
func decodeStage(msg string) bool {
	for _, s := range []string{"to decode, got", "has no variant for", "matches none of the alternatives of "} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// everyMemberValid names the document that sets every member to the first
// of its boundary values.
const everyMemberValid = "every member valid"

// keywordCases builds the corpus: each member's boundary values, each
// member set to every swap value, and whole-document cases.
func keywordCases(t *testing.T, members []keywordMember) []testCase {
	var out []testCase
	seen := map[string]bool{}
	add := func(name, payload string) {
		if !json.Valid([]byte(payload)) {
			t.Fatalf("case %s: invalid JSON %s", name, payload)
		}
		// A swap value that is also a boundary value is one case.
		if seen[payload] {
			return
		}
		seen[payload] = true
		out = append(out, testCase{name, "sample", []byte(payload)})
	}
	one := func(m keywordMember, value string) string {
		return fmt.Sprintf(`{%q:{%q:%s}}`, m.family, m.name, value)
	}
	for _, m := range members {
		for _, v := range keywordBoundaries[m.String()] {
			add(m.String()+"="+v, one(m, v))
		}
	}
	for _, m := range members {
		for _, v := range keywordSwaps {
			add(m.String()+"="+v, one(m, v))
		}
	}
	// Whole documents: the closed root, open families, several members at
	// once, and the first boundary value of every member together (each
	// list starts with a value its member accepts).
	families := map[string]bool{}
	var all []string
	byFamily := map[string][]string{}
	for _, m := range members {
		families[m.family] = true
		first := keywordBoundaries[m.String()][0]
		byFamily[m.family] = append(byFamily[m.family], fmt.Sprintf("%q:%s", m.name, first))
	}
	var names []string
	for f := range families {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		all = append(all, fmt.Sprintf("%q:{%s}", f, strings.Join(byFamily[f], ",")))
		add("family "+f+" unknown member", fmt.Sprintf(`{%q:{"x_unknown":1}}`, f))
		add("family "+f+" null", fmt.Sprintf(`{%q:null}`, f))
		add("family "+f+" array", fmt.Sprintf(`{%q:[]}`, f))
	}
	add(everyMemberValid, "{"+strings.Join(all, ",")+"}")
	for i, s := range []string{`{}`, `null`, `[]`, `"sample"`, `{"x_unknown":1}`, `{"Numbers":{}}`,
		`{"numbers":{"minimum":-2,"maximum":101}}`, `{"numbers":{},"strings":{},"formats":{},"arrays":{},"objects":{},"values":{},"types":{},"combinators":{}}`,
		`{"arrays":{"forest":[{"value":1,"children":[{"value":2,"children":[{"value":3,"children":[{"value":4,"children":[{"value":5,"children":[{"value":6}]}]}]}]}]}]}}`,
		`{"arrays":{"forest":[{"value":1,"children":[{"value":2,"children":[{"value":3,"children":[{"value":4,"children":[{"value":5,"children":[{"value":600}]}]}]}]}]}]}}`,
	} {
		add(fmt.Sprintf("document %d", i), s)
	}
	return out
}

// TestDifferentialKeywords generates the keywords spec, builds a harness
// over its DecodeSample and requires the same verdict as
// santhosh-tekuri/jsonschema/v6 on every case of the corpus. It also
// requires the corpus to make each member both pass and fail (except the
// true schema), so a member whose check never runs cannot hide.
func TestDifferentialKeywords(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the generated keywords package (not in -short mode)")
	}
	start := time.Now()
	members := keywordMembers(t)
	if len(members) < 50 {
		t.Fatalf("only %d members in the keywords spec", len(members))
	}
	known := map[string]bool{}
	for _, m := range members {
		known[m.String()] = true
		if len(keywordBoundaries[m.String()]) == 0 {
			t.Errorf("member %s has no boundary values", m)
		}
	}
	for k := range keywordBoundaries {
		if !known[k] {
			t.Errorf("boundary values for %s, which the spec does not have", k)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	cases := keywordCases(t, members)

	ref := referenceIn(t, os.DirFS(keywordsSpec), keywordsTargets["sample"])
	exe := buildHarness(t, os.DirFS(keywordsSpec), "openrpc.json", "kw", []string{"Sample"})
	built := time.Now()
	ours := runHarness(t, exe, cases, keywordsTargets)

	type tally struct{ accepted, rejected int }
	perMember := map[string]*tally{}
	disagree, excluded, accepted := 0, 0, 0
	gapHits := make([]int, len(keywordDecodeGaps))
	for i, c := range cases {
		v := ours[i]
		theirs := referenceVerdict(ref, c.data)
		if v.wrongType {
			t.Errorf("%s: error is not *rpcerr.InvalidParams: %s", c.name, v.msg)
		}
		if c.name == everyMemberValid && (!v.accept || theirs != nil) {
			t.Errorf("%s: both sides must accept it (each boundary list must start with a valid value): ours=%q reference=%s\npayload: %s", c.name, v.msg, firstLine(theirs), c.data)
		}
		if member, _, ok := strings.Cut(c.name, "="); ok && known[member] {
			tl := perMember[member]
			if tl == nil {
				tl = &tally{}
				perMember[member] = tl
			}
			if theirs == nil {
				tl.accepted++
			} else {
				tl.rejected++
			}
		}
		if v.accept {
			accepted++
		}
		if v.accept == (theirs == nil) {
			// Same verdict; but a rejection by the decoder alone means the
			// checks passed a value the reference rejects.
			if !v.accept && decodeStage(v.msg) {
				disagree++
				t.Errorf("%s: the checks accepted and only decoding refused (%s); reference=%s\npayload: %s", c.name, v.msg, firstLine(theirs), c.data)
			}
			continue
		}
		if why, ok := keywordReferenceWrong[c.name]; ok {
			excluded++
			t.Logf("%s: reference departs from the specification (%s); ours=%v", c.name, why, v.accept)
			continue
		}
		if member, _, _ := strings.Cut(c.name, "="); !v.accept {
			if g := decodeGapFor(member, v.msg); g >= 0 {
				gapHits[g]++
				continue
			}
		}
		disagree++
		ourMsg := "<nil>"
		if !v.accept {
			ourMsg = v.msg
		}
		t.Errorf("%s: ours=%s reference=%s\npayload: %s", c.name, ourMsg, firstLine(theirs), c.data)
	}
	for _, m := range members {
		tl := perMember[m.String()]
		if bytes.Equal(bytes.TrimSpace(m.schema), []byte("true")) {
			if tl.rejected != 0 {
				t.Errorf("member %s is the true schema but the reference rejected %d values", m, tl.rejected)
			}
			continue
		}
		if tl.accepted == 0 || tl.rejected == 0 {
			t.Errorf("member %s: the corpus has %d accepted and %d rejected values; it needs both", m, tl.accepted, tl.rejected)
		}
	}
	for name := range keywordReferenceWrong {
		found := false
		for _, c := range cases {
			found = found || c.name == name
		}
		if !found {
			t.Errorf("exclusion %s names no case", name)
		}
	}
	gaps := 0
	for i, g := range keywordDecodeGaps {
		gaps += gapHits[i]
		if gapHits[i] == 0 {
			t.Errorf("decode gap %q is no longer hit; remove it from keywordDecodeGaps (%s)", g.message, g.why)
			continue
		}
		t.Logf("decode gap, %d cases: %s", gapHits[i], g.why)
	}
	t.Logf("keywords differential: %d cases over %d members, %d accepted, %d rejected, %d disagreements, %d excluded (reference off-spec), %d known decode gaps; generate+build %v, run %v",
		len(cases), len(members), accepted, len(cases)-accepted, disagree, excluded, gaps,
		built.Sub(start).Round(time.Millisecond), time.Since(built).Round(time.Millisecond))
}

// compiledKeywords are the keywords generator/emit's check emitter compiles
// (multipleOf it refuses), plus the two boolean schemas; the keywords spec
// must use each of them somewhere, so the differential above exercises all.
var compiledKeywords = []string{
	"$ref", "type", "const", "enum",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern", "format",
	"minItems", "maxItems", "uniqueItems", "items", "contains", "minContains", "maxContains",
	"minProperties", "maxProperties", "required", "dependentRequired", "properties", "propertyNames", "additionalProperties",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
	"true", "false",
}

// TestKeywordsSpecCoverage walks every schema of the keywords spec and
// requires each compiled keyword, each format the runtime asserts, and both
// boolean schemas to appear.
func TestKeywordsSpecCoverage(t *testing.T) {
	used := map[string]bool{}
	var walk func(n *load.Node)
	walk = func(n *load.Node) {
		switch n.Kind {
		case load.Bool:
			used[fmt.Sprint(n.Bool)] = true
			return
		case load.Object:
		default:
			return
		}
		for _, m := range n.Members {
			used[m.Key] = true
			switch m.Key {
			case "properties", "$defs":
				for _, p := range m.Value.Members {
					walk(p.Value)
				}
			case "allOf", "anyOf", "oneOf":
				for _, it := range m.Value.Items {
					walk(it)
				}
			case "not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames":
				walk(m.Value)
			case "format":
				used["format "+m.Value.Str] = true
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(keywordsSpec, "schemas", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", keywordsSpec, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		root, err := load.Parse(filepath.Base(f), b)
		if err != nil {
			t.Fatal(err)
		}
		walk(root)
	}
	want := append([]string{}, compiledKeywords...)
	for _, f := range []string{"date-time", "date", "uri", "uri-reference", "uuid"} {
		want = append(want, "format "+f)
	}
	for _, k := range want {
		if !used[k] {
			t.Errorf("the keywords spec does not use %s", k)
		}
	}
}
