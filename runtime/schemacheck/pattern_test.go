package schemacheck_test

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/dlclark/regexp2"

	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
	"github.com/ucpgen/ucpgen/schemas"
)

// ecmaMatch runs pattern on s with dlclark/regexp2 in ECMAScript mode, the
// engine the conformance suite's reference validator uses.
func ecmaMatch(t *testing.T, pattern, s string) bool {
	t.Helper()
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
	if err != nil {
		t.Fatalf("regexp2 cannot compile %q: %v", pattern, err)
	}
	ok, err := re.MatchString(s)
	if err != nil {
		t.Fatalf("regexp2 on %q: %v", s, err)
	}
	return ok
}

// compile translates and compiles pattern, failing the test when the
// translation is refused or does not compile.
func compile(t *testing.T, pattern string) *regexp.Regexp {
	t.Helper()
	tr, err := sc.TranslatePattern(pattern)
	if err != nil {
		t.Fatalf("TranslatePattern(%q): %v", pattern, err)
	}
	re, err := regexp.Compile(tr)
	if err != nil {
		t.Fatalf("translation %q of %q does not compile: %v", tr, pattern, err)
	}
	if got := sc.Pattern(pattern).String(); got != tr {
		t.Errorf("Pattern(%q) compiles %q, TranslatePattern gives %q", pattern, got, tr)
	}
	return re
}

// ECMA-262 §12.2 WhiteSpace and §12.3 LineTerminator, which \s covers
// (§22.2.2.9 CharacterClassEscape).
func isECMAWhiteSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\uFEFF':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

func isECMALineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

// runesToCheck is every BMP code point except surrogates, plus a spread of
// supplementary ones: enough to catch any class that is too wide or narrow.
func runesToCheck() []rune {
	var rs []rune
	for r := rune(0); r <= 0xFFFF; r++ {
		if r < 0xD800 || r > 0xDFFF {
			rs = append(rs, r)
		}
	}
	for r := rune(0x10000); r <= unicode.MaxRune; r += 0x3FF {
		rs = append(rs, r)
	}
	return append(rs, 0x1F600, 0xE0020, unicode.MaxRune)
}

// TestPatternClasses checks the translated character classes code point by
// code point against ECMA-262's definitions: \s and its complement, '.'
// (any code point but a line terminator, §22.2.2.7 with the u flag JSON
// Schema 2020-12 recommends), and the ASCII-only \d and \w.
func TestPatternClasses(t *testing.T) {
	space := func(r rune) bool { return isECMAWhiteSpace(r) || isECMALineTerminator(r) }
	for _, tc := range []struct {
		pattern string
		want    func(rune) bool
	}{
		{`^\s$`, space},
		{`^\S$`, func(r rune) bool { return !space(r) }},
		{`^[\s]$`, space},
		{`^[^\s]$`, func(r rune) bool { return !space(r) }},
		{`^[x\s-]$`, func(r rune) bool { return space(r) || r == 'x' || r == '-' }},
		{`^.$`, func(r rune) bool { return !isECMALineTerminator(r) }},
		{`^\d$`, func(r rune) bool { return r >= '0' && r <= '9' }},
		{`^\D$`, func(r rune) bool { return r < '0' || r > '9' }},
		{`^\w$`, func(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') }},
		{`^\W$`, func(r rune) bool { return !(r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')) }},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			re := compile(t, tc.pattern)
			bad := 0
			for _, r := range runesToCheck() {
				if got, want := re.MatchString(string(r)), tc.want(r); got != want {
					if bad++; bad <= 10 {
						t.Errorf("%s on U+%04X: %v, want %v", tc.pattern, r, got, want)
					}
				}
			}
			if bad > 10 {
				t.Errorf("... %d code points wrong in all", bad)
			}
		})
	}
	// the whitespace set agrees with the reference engine too
	for _, r := range []rune{'\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x180E, 0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF, 'a'} {
		if got, ref := compile(t, `^\s$`).MatchString(string(r)), ecmaMatch(t, `^\s$`, string(r)); got != ref {
			t.Errorf(`^\s$ on U+%04X: %v, regexp2 says %v`, r, got, ref)
		}
	}
}

// patternCases give the ECMA-262 answer for each documented rule. ref names
// a known divergence of regexp2 from ECMA-262; elsewhere regexp2 must give
// the same answer, which checks the expectations themselves.
var patternCases = []struct {
	pattern, in string
	want        bool
	ref         string
}{
	// a pattern is searched for, not matched whole (JSON Schema 2020-12
	// validation §6.3.3)
	{`b`, "abc", true, ""},
	{`^b`, "abc", false, ""},
	{`b$`, "abc", false, ""},
	{`^abc$`, "abc", true, ""},
	// without the m flag ^ and $ are the ends of input; $ does not match
	// before a final newline as it does in Perl
	{`^abc$`, "abc\n", false, ""},
	{`^abc$`, "\nabc", false, ""},
	{`^a$`, "a\u2028", false, ""},

	// \s is Unicode whitespace and line terminators
	{`^\s+$`, " \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff", true, ""},
	{`^\s$`, "\u0085", false, ""}, // NEL is Cc, not Zs
	{`^\s$`, "\u200b", false, ""}, // ZERO WIDTH SPACE is Cf
	{`^\s$`, "\u180e", false, ""}, // Cf since Unicode 6.3
	{`^a\sb$`, "a\u00a0b", true, ""},
	{`^\S+$`, "ab\u00a0", false, ""},
	{`^\S+$`, "é😀", true, ""},
	{`^[\s,]+$`, ", \u3000,", true, ""},
	{`^[^\s]+$`, "a\ufeff", false, ""},

	// '.' excludes exactly the four line terminators
	{`^a.c$`, "abc", true, ""},
	{`^a.c$`, "a\nc", false, ""},
	{`^a.c$`, "a\rc", false, ""},
	{`^a.c$`, "a\u2028c", false, "regexp2's '.' admits U+2028"},
	{`^a.c$`, "a\u2029c", false, "regexp2's '.' admits U+2029"},
	{`^a.c$`, "a\u0085c", true, ""},
	{`^a.c$`, "a\vc", true, ""},
	{`^a.c$`, "a\x00c", true, ""},
	{`^a.c$`, "a😀c", true, ""},
	{`^.*$`, "tab\there", true, ""},
	{`^[.]$`, ".", true, ""},
	{`^[.]$`, "a", false, ""},
	{`^a\.c$`, "a.c", true, ""},
	{`^a\.c$`, "abc", false, ""},

	// ASCII-only \d, \w, \b
	{`^\d+$`, "0123456789", true, ""},
	{`^\d$`, "٣", false, ""},
	{`^\d$`, "３", false, ""},
	{`^\w+$`, "az_AZ09", true, ""},
	{`^\w$`, "é", false, ""},
	{`a\b`, "a-", true, ""},
	{`a\b`, "ab", false, ""},
	{`a\b`, "aé", true, "regexp2's \\b takes é for a word character"},
	{`\Ba`, "ba", true, ""},

	// a trailing (?!c) becomes "not followed by c"
	{`ab(?!c)`, "abd", true, ""},
	{`ab(?!c)`, "abc", false, ""},
	{`ab(?!c)`, "ab", true, ""},
	{`ab(?!c)`, "abcab", true, ""},
	{`ab(?!c)`, "abcabc", false, ""},
	{`ab(?!c)`, "ab\n", true, ""},
	{`^a(?!-)`, "a-", false, ""},
	{`^a(?!-)`, "a", true, ""},
	{`^a(?!-)`, "aa", true, ""},
	{`a*(?!b)`, "b", true, ""},
	{`x|a(?!b)`, "ab", false, ""},
	{`x|a(?!b)`, "xb", true, ""},
	{`(?!c)`, "c", true, ""},

	// groups, alternation and quantifiers need no translation
	{`^(?:ab)+$`, "abab", true, ""},
	{`^(?:ab)+$`, "aba", false, ""},
	{`^(a|bc){2}$`, "abc", true, ""},
	{`^a{2,3}$`, "aaaa", false, ""},
	{`^a+?b*?$`, "aab", true, ""},
	{`^[a-c-]+$`, "a-c", true, ""},
	{`^[\]]$`, "]", true, ""},
	{`^\($`, "(", true, ""},
	{`^a\/b$`, "a/b", true, ""},
	{`^\t\n$`, "\t\n", true, ""},
	{`^é+$`, "éé", true, ""},
}

func TestPatternRules(t *testing.T) {
	for _, tc := range patternCases {
		re := compile(t, tc.pattern)
		if got := re.MatchString(tc.in); got != tc.want {
			t.Errorf("%s on %q: %v, want %v", tc.pattern, tc.in, got, tc.want)
		}
		if tc.ref != "" {
			continue
		}
		if ref := ecmaMatch(t, tc.pattern, tc.in); ref != tc.want {
			t.Errorf("%s on %q: regexp2 says %v, the table %v", tc.pattern, tc.in, ref, tc.want)
		}
	}
}

// TestPatternRefused checks that constructs with no RE2 equivalent are
// refused, naming the pattern so the generator's error points at the
// schema, and that Pattern panics on them rather than compiling something
// else.
func TestPatternRefused(t *testing.T) {
	for _, p := range []string{
		`(a)\1`,         // backreference
		`(?<n>a)\k<n>`,  // named group and its reference
		`(?<n>a)`,       // named group
		`(?<=a)b`,       // lookbehind
		`(?<!a)b`,       // negative lookbehind
		`(?=a)`,         // lookahead
		`a(?=b)c`,       // lookahead mid-pattern
		`a(?!bc)`,       // negative lookahead of more than one character
		`(?!c)a`,        // negative lookahead not at the end
		`(a(?!c))`,      // ... nor at the top level
		`a(?!\d)`,       // ... nor of an escape
		`a(?!.)`,        // ... nor of a metacharacter
		`\u0041`,        // \u escape
		`\u{1F600}`,     // code point escape
		`\x41`,          // \x escape
		`\cJ`,           // control escape
		`\0`,            // NUL escape
		`[\S]`,          // \S in a class
		`[^\S]`,         // ... negated
		`[]`,            // empty class, matches nothing in ECMA-262
		`[^]`,           // negated empty class, matches anything
		`[]a]`,          // ']' first in a class
		`a\`,            // trailing backslash
		`(?i)a`,         // inline flags
		`(?P<name>a)`,   // RE2 named group
		`(?:a)(?<=a)b$`, // lookbehind after a group
	} {
		t.Run(p, func(t *testing.T) {
			_, err := sc.TranslatePattern(p)
			if err == nil {
				t.Fatalf("TranslatePattern(%q) accepted it", p)
			}
			if msg := err.Error(); !strings.Contains(msg, p) && !strings.Contains(msg, strconv.Quote(p)) {
				t.Errorf("error %q does not name the pattern", msg)
			}
			defer func() {
				if recover() == nil {
					t.Errorf("Pattern(%q) did not panic", p)
				}
			}()
			sc.Pattern(p)
		})
	}
}

// ucpPatterns collects every "pattern" keyword in the embedded schemas.
func ucpPatterns(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if s, ok := v.(string); ok && k == "pattern" {
					seen[s] = true
				}
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	err := fs.WalkDir(schemas.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := fs.ReadFile(schemas.FS, path)
		if err != nil {
			return err
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		walk(doc)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ucpPatternCases are answers read off each UCP pattern by hand.
var ucpPatternCases = map[string][]struct {
	in   string
	want bool
}{
	`^\d{4}-\d{2}-\d{2}$`: {
		{"2026-08-25", true},
		{"0000-00-00", true},
		{"2026-8-25", false},
		{"2026-08-25\n", false},
		{"12026-08-25", false},
		{"x2026-08-25", false},
		{"٢٠٢٦-08-25", false},
		{"2026/08/25", false},
		{"", false},
	},
	`^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$`: {
		{"dev.ucp.amenity.parking", true},
		{"d.e", true},
		{"dev.ucp_", true},
		{"dev.u-c_p", true},
		{"com.example9.x1", true},
		{"a-b.c", true},
		{"dev", false},
		{"Dev.ucp", false},
		{"dev-.ucp", false},
		{"1dev.ucp", false},
		{"dev..ucp", false},
		{"dev.ucp.", false},
		{"dev.-ucp", false},
		{"dev._ucp", false},
		{"dev.ucp\n", false},
		{"dév.ucp", false},
		{".dev", false},
	},
	`(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$`: {
		{"2026-01-01T10:00:00Z", true},
		{"2026-01-01T10:00:00z", true},
		{"2026-01-01T10:00:00+05:30", true},
		{"2026-01-01T10:00:00-00:00", true},
		{"+23:59", true},
		{"10:00:00+24:00", false},
		{"10:00:00+05:60", false},
		{"10:00:00+5:30", false},
		{"10:00", false},
		{"Zx", false},
		{"Z\n", false},
		{"", false},
	},
	`^([01][0-9]|2[0-3]):[0-5][0-9]$`: {
		{"00:00", true},
		{"09:05", true},
		{"19:59", true},
		{"23:59", true},
		{"24:00", false},
		{"9:00", false},
		{"09:60", false},
		{"09:00:00", false},
		{" 09:00", false},
		{"09:00\n", false},
		{"０9:00", false},
	},
}

// mutate returns s with one random edit drawn from alphabet.
func mutate(rng *rand.Rand, s []rune, alphabet []rune) string {
	out := append([]rune(nil), s...)
	c := alphabet[rng.IntN(len(alphabet))]
	switch i := rng.IntN(len(out) + 1); {
	case len(out) == 0 || rng.IntN(3) == 0:
		out = append(out[:i], append([]rune{c}, out[i:]...)...)
	case rng.IntN(2) == 0 && i < len(out):
		out = append(out[:i], out[i+1:]...)
	case i < len(out):
		out[i] = c
	}
	return string(out)
}

// TestUCPPatterns translates every pattern the UCP schemas use, checks the
// hand-read answers, and compares the translation with regexp2 on strings
// near the examples.
func TestUCPPatterns(t *testing.T) {
	patterns := ucpPatterns(t)
	if len(patterns) == 0 {
		t.Fatal("no pattern keyword found in the embedded schemas")
	}
	rng := rand.New(rand.NewPCG(8259, 3339))
	for _, p := range patterns {
		t.Run(p, func(t *testing.T) {
			re := compile(t, p)
			cases := ucpPatternCases[p]
			if len(cases) == 0 {
				t.Logf("no hand-read cases for %q; comparing with regexp2 only", p)
			}
			alphabet := []rune("09az_-.:+Zz\n \u00a0é٣")
			var seeds [][]rune
			for _, c := range cases {
				if got := re.MatchString(c.in); got != c.want {
					t.Errorf("%q: %v, want %v", c.in, got, c.want)
				}
				if ref := ecmaMatch(t, p, c.in); ref != c.want {
					t.Errorf("%q: regexp2 says %v, the table %v", c.in, ref, c.want)
				}
				seeds = append(seeds, []rune(c.in))
				alphabet = append(alphabet, []rune(c.in)...)
			}
			seeds = append(seeds, []rune(""), []rune(p))
			for i := 0; i < 3000; i++ {
				s := mutate(rng, seeds[rng.IntN(len(seeds))], alphabet)
				if got, ref := re.MatchString(s), ecmaMatch(t, p, s); got != ref {
					t.Errorf("%q: %v, regexp2 says %v", s, got, ref)
				}
			}
		})
	}
}

// TestPatternKeepsMeaningOrRefuses holds TranslatePattern to its contract
// on valid ECMA-262 patterns whose RE2 spelling means something else: it
// may refuse them, but what it accepts must compile and match as ECMA-262
// does. The answers are those of ECMA-262 Annex B.1.2 (no u flag); with the
// u flag JSON Schema recommends, the identity escapes and the lone ']' are
// early errors, so refusing them is right either way.
func TestPatternKeepsMeaningOrRefuses(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		cases   map[string]bool
	}{
		// IdentityEscape: \a is 'a' (RE2: BEL), \z 'z' (RE2: end of text),
		// \A 'A' (RE2: start of text), \Q 'Q' (RE2: quoting), \pL "pL"
		// (RE2: letters), \e and \C 'e' and 'C' (RE2: no such escape)
		{`^\a$`, map[string]bool{"a": true, "\a": false}},
		{`^x\z`, map[string]bool{"xz": true, "x": false}},
		{`x\A`, map[string]bool{"xA": true, "x": false}},
		{`^\Q.\E$`, map[string]bool{"QxE": true, ".": false}},
		{`^\pL$`, map[string]bool{"pL": true, "a": false}},
		{`^\e$`, map[string]bool{"e": true, "\x1b": false}},
		{`^\C$`, map[string]bool{"C": true}},
		// ClassEscape \b is U+0008 in every mode (RE2: no such escape)
		{`^[\b]$`, map[string]bool{"\b": true, "b": false}},
		// '[' in a class is literal: [[:alpha:] is the class {[ : a l p h},
		// then a literal ']' (RE2: the POSIX class alpha)
		{`^[[:alpha:]]$`, map[string]bool{"a]": true, "a": false, "z": false}},
		// quantifier bounds are any decimal digits (RE2: at most 1000, no
		// leading zeros, else literal text)
		{`^a{01}$`, map[string]bool{"a": true, "a{01}": false}},
		{`^a{1001}$`, map[string]bool{strings.Repeat("a", 1001): true, strings.Repeat("a", 1000): false}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			tr, err := sc.TranslatePattern(tc.pattern)
			if err != nil {
				return // refusing is allowed
			}
			re, err := regexp.Compile(tr)
			if err != nil {
				t.Fatalf("accepted as %q, which does not compile (Pattern would panic): %v", tr, err)
			}
			for in, want := range tc.cases {
				if got := re.MatchString(in); got != want {
					t.Errorf("accepted as %q, which on %q gives %v; ECMA-262 gives %v", tr, in, got, want)
				}
			}
		})
	}
}
