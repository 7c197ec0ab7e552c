package schemacheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ecmaSpace is ECMA-262's \s: WhiteSpace plus LineTerminator, which is wider
// than RE2's ASCII-only \s.
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// TranslatePattern rewrites an ECMA-262 pattern into Go regexp syntax with
// the same match set, or fails when it cannot promise that. The rules:
//   - \s and \S become ECMA's Unicode whitespace class (RE2's is ASCII only);
//   - \d, \w, \b already mean the ASCII classes in both engines;
//   - an unescaped '.' becomes [^\n\r\u2028\u2029] (ECMA excludes all line
//     terminators, RE2 only \n);
//   - '$' and '^' without the m flag anchor at the ends of input in both;
//   - a trailing negative lookahead of one literal character, "(?!c)" as the
//     pattern's last element, becomes "(?:[^c]|$)": both say "not followed
//     by c" for an unanchored search;
//   - any other lookaround, backreference or named group is refused, and so
//     is every escape outside \d \D \w \W \s \S \b \B \t \n \r \f \v and
//     escaped punctuation (RE2 reads \a, \z, \A, \Q, \pL and [\b] differently
//     and rejects \e and \C), a "[:", "[." or "[=" inside a class (a POSIX
//     class in RE2), and repeat counts with leading zeros or above 1000.
func TranslatePattern(src string) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return "", fmt.Errorf("pattern %q: trailing backslash", src)
			}
			e := src[i+1]
			i++
			switch {
			case e == 's':
				if inClass {
					b.WriteString(ecmaSpace)
				} else {
					b.WriteString("[" + ecmaSpace + "]")
				}
			case e == 'S':
				if inClass {
					return "", fmt.Errorf("pattern %q: \\S inside a class has no exact RE2 form", src)
				}
				b.WriteString("[^" + ecmaSpace + "]")
			case strings.IndexByte("dDwWtnrfv", e) >= 0, e < utf8.RuneSelf && strings.IndexByte(`^$\.*+?()[]{}|/-`, e) >= 0:
				b.WriteByte('\\')
				b.WriteByte(e)
			case (e == 'b' || e == 'B') && !inClass:
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				// Everything else either means something else in RE2 (\a,
				// \z, \A, \Q, \pL, [\b]) or does not compile there (\e, \C).
				return "", fmt.Errorf("pattern %q: escape \\%c is not supported", src, e)
			}
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '[' && i+1 < len(src) && strings.IndexByte(":.=", src[i+1]) >= 0 {
				return "", fmt.Errorf("pattern %q: %q inside a class is a POSIX class in RE2", src, src[i:i+2])
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			if i+1 < len(src) && src[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(src) && src[i+1] == ']' {
				return "", fmt.Errorf("pattern %q: ']' first in a class differs between ECMA-262 and RE2", src)
			}
		case c == '{':
			if err := checkRepeat(src, i); err != nil {
				return "", err
			}
			b.WriteByte(c)
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '(' && strings.HasPrefix(src[i:], "(?"):
			rest := src[i+2:]
			switch {
			case strings.HasPrefix(rest, ":"):
				b.WriteString("(?:")
				i += 2
			case strings.HasPrefix(rest, "!") && len(rest) >= 3 && rest[2] == ')' && i+5 == len(src) && !strings.ContainsRune(`\^$.|?*+()[]{}`, rune(rest[1])):
				b.WriteString("(?:[^" + string(rest[1]) + "]|$)")
				i += 4
			default:
				return "", fmt.Errorf("pattern %q: group syntax %q is not supported", src, src[i:min(len(src), i+4)])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// checkRepeat refuses a {n,m} quantifier RE2 would read differently: bounds
// with leading zeros (RE2: literal text) or above 1000 (RE2: an error).
func checkRepeat(src string, i int) error {
	end := strings.IndexByte(src[i:], '}')
	if end < 0 {
		return nil // a lone '{' is literal in both
	}
	body := src[i+1 : i+end]
	lo, hi, comma := strings.Cut(body, ",")
	isNum := func(t string) bool {
		if t == "" {
			return false
		}
		for j := 0; j < len(t); j++ {
			if t[j] < '0' || t[j] > '9' {
				return false
			}
		}
		return true
	}
	if !isNum(lo) || comma && hi != "" && !isNum(hi) {
		return nil // not a quantifier: literal in both
	}
	for _, t := range []string{lo, hi} {
		if len(t) > 1 && t[0] == '0' {
			return fmt.Errorf("pattern %q: repeat count %q with a leading zero is not supported", src, t)
		}
		if len(t) > 4 || len(t) == 4 && t > "1000" {
			return fmt.Errorf("pattern %q: repeat count %s is above RE2's limit of 1000", src, t)
		}
	}
	return nil
}

// Pattern compiles an ECMA-262 pattern for generated schemas; it panics on a
// pattern the generator should have refused, so a bad pattern fails at
// package initialisation rather than silently accepting input.
func Pattern(src string) *Matcher {
	t, err := TranslatePattern(src)
	if err != nil {
		panic("schemacheck: " + err.Error())
	}
	return &Matcher{re: regexp.MustCompile(t), dfa: buildDFA(t)}
}
