// Package country reads the country of a UCP locality (address_country) in
// every form the schema allows, an ISO 3166-1 alpha-2 code, an alpha-3 code
// or the country's English name, and returns the one form a Business
// compares: the upper-case alpha-2 code. Without it "US", "us", "USA" and
// "United States" would name four different countries, and three of them
// would match nothing in silence.
//
// The code tables are those of golang.org/x/text (CLDR), so they follow ISO
// 3166-1 without a hand-kept copy.
package country

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// Normalize returns the upper-case ISO 3166-1 alpha-2 code s names, and
// false when s is no country: not a current alpha-2 or alpha-3 code of a
// country (case-insensitive), and not a country's English name (compared
// case-insensitively, ignoring surrounding blanks). Numeric codes, regions
// such as "EU" or "419" and private-use codes are not countries.
func Normalize(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	if isLetters(s) && (len(s) == 2 || len(s) == 3) {
		if r, err := language.ParseRegion(s); err == nil && r.IsCountry() {
			// Canonical form: the reserved "UK" reads as "GB".
			return r.Canonicalize().String(), true
		}
		if len(s) == 2 {
			return "", false
		}
	}
	code, ok := byName()[strings.ToLower(s)]
	return code, ok
}

// IsAlpha2 reports whether s is already a canonical code: two upper-case
// letters naming a country. Capabilities use it to refuse a lower-case or
// alpha-3 configuration that requests could never match.
func IsAlpha2(s string) bool {
	c, ok := Normalize(s)
	return ok && c == s
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// byName maps lower-case English country names to alpha-2 codes, built once
// from every two-letter code that names a country.
var byName = sync.OnceValue(func() map[string]string {
	names := display.English.Regions()
	m := make(map[string]string, 260)
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			r, err := language.ParseRegion(string([]rune{a, b}))
			if err != nil || !r.IsCountry() || r.String() != string([]rune{a, b}) {
				continue
			}
			n := strings.ToLower(names.Name(r))
			if _, taken := m[n]; n != "" && !taken {
				m[n] = r.Canonicalize().String()
			}
		}
	}
	// Long forms Platforms commonly send for the short names above.
	for name, code := range map[string]string{
		"united states of america": "US",
		"great britain":            "GB",
		"russian federation":       "RU",
		"republic of korea":        "KR",
		"czech republic":           "CZ",
	} {
		m[name] = code
	}
	return m
})
