package schemacheck

import (
	"math/rand"
	"regexp"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// dfaPatterns are the UCP schema patterns (ECMA form) plus shapes that
// exercise each automaton feature: unanchored search, end anchors, an empty
// match, case folding, a negated class and runes above ASCII.
var dfaPatterns = []string{
	`^([01][0-9]|2[0-3]):[0-5][0-9]$`,
	`(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$`,
	`^/(?!/)`,
	`^[A-Z]{3}$`,
	`^\d{4}-\d{2}-\d{2}$`,
	`^[a-z_]+(?:\.[a-z_]+)*$`,
	`^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$`,
	`^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+:[a-z][a-z0-9_]*$`,
	`^(ec|ep\.cart)\.[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$`,
	`^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+(~[A-Za-z0-9_-]+)*$`,
	`^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$`,
	`^(?:[A-Za-z0-9._-]+|~[A-Za-z0-9_-]+):[1-9][0-9]*(?:,(?:[A-Za-z0-9._-]+|~[A-Za-z0-9_-]+):[1-9][0-9]*)*$`,
	`^https://[^/?#\s\\@]+(?:/[^?#\s\\]*[^/?#\s\\])?$`,
	`a`, `^$`, `$`, `^`, `x*`, `b+$`, `^ab|cd$`, `.x`, `[^a]é`,
}

// TestDFAAgreesWithRegexp drives every pattern's automaton and Go's regexp
// with the same random strings, drawn from an alphabet of the runes the
// patterns care about, and requires identical answers.
func TestDFAAgreesWithRegexp(t *testing.T) {
	alpha := []rune("aAzZbcdeghpstx_019:+-/.,~#?@\\ \t\n\r\u00a0\u2028é€")
	prefixes := []string{"", "12:34", "https://", "dev.ucp.", "ec.", "2026-08-25", "USD", "/"}
	r := rand.New(rand.NewSource(1))
	for _, src := range dfaPatterns {
		goSyntax, err := TranslatePattern(src)
		if err != nil {
			t.Fatalf("translate %s: %v", src, err)
		}
		d := buildDFA(goSyntax)
		if d == nil {
			t.Fatalf("%s: no automaton; UCP patterns must not fall back to regexp", src)
		}
		re := regexp.MustCompile(goSyntax)
		// 20,000 random inputs a pattern; 2,000 under the race detector,
		// which adds nothing to a matcher on one goroutine.
		inputs := 20000
		if testshared.Race {
			inputs = 2000
		}
		for i := range inputs {
			s := make([]rune, r.Intn(12))
			for j := range s {
				s[j] = alpha[r.Intn(len(alpha))]
			}
			in := prefixes[r.Intn(len(prefixes))] + string(s)
			if i%2 == 0 {
				in = in[:r.Intn(len(in)+1)]
			}
			if got, want := d.match(in), re.MatchString(in); got != want {
				t.Fatalf("%s on %q: automaton says %v, regexp says %v", src, in, got, want)
			}
		}
	}
}

// TestDFAFallsBack keeps Go's regexp for what the automaton does not model.
func TestDFAFallsBack(t *testing.T) {
	for _, p := range []string{`\bword\b`, `(?m)^a$`} {
		if buildDFA(p) != nil {
			t.Errorf("%s: built an automaton for an unsupported assertion", p)
		}
		m := &Matcher{re: regexp.MustCompile(p)}
		if !m.MatchString("a word") && p == `\bword\b` {
			t.Errorf("%s: fallback does not match", p)
		}
	}
}
