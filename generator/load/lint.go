package load

import (
	"fmt"
	"sort"
)

// Warning is a lint finding: the input is valid JSON Schema, but probably
// not what its author meant (a misspelled keyword is a valid annotation, so
// the constraint it was meant to be is silently absent).
type Warning struct {
	Loc Loc
	Msg string
	// Notice marks a finding that is reported but not refused by
	// --strict, because the input it describes is legitimate (a tree with
	// no REST binding gives an MCP-only Business).
	Notice bool
}

// String gives the file#/pointer: message form every error also uses.
func (w Warning) String() string { return fmt.Sprintf("%s: %s", w.Loc, w.Msg) }

// Kind is "notice" or "warning", the word the CLI prints before a finding
// so a reader can tell what --strict would refuse.
func (w Warning) Kind() string {
	if w.Notice {
		return "notice"
	}
	return "warning"
}

// Refused returns the findings of ws that --strict refuses: all but the
// notices.
func Refused(ws []Warning) []Warning {
	var out []Warning
	for _, w := range ws {
		if !w.Notice {
			out = append(out, w)
		}
	}
	return out
}

// otherKeywords are Draft 2020-12 keywords neither interpreted nor refused,
// listed so a near miss of them is suggested too.
var otherKeywords = []string{"contentMediaType", "contentSchema", "contentEncoding", "$vocabulary"}

// suggestion returns the keyword that key is one edit away from (insert,
// delete, substitute or swap two neighbours, which includes case slips such as
// minlength), or "" when there is none. Keywords shorter than four letters
// are never suggested: "id" is one edit from "if", but means something else.
func suggestion(key string) string {
	var cands []string
	for k := range knownKeywords {
		cands = append(cands, k)
	}
	for k := range unsupportedKeywords {
		cands = append(cands, k)
	}
	cands = append(cands, otherKeywords...)
	sort.Strings(cands)
	for _, k := range cands {
		if k != key && len(k) >= 4 && oneEdit(key, k) {
			return k
		}
	}
	return ""
}

// oneEdit reports whether a becomes b by exactly one insertion, deletion,
// substitution or transposition of adjacent bytes.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i == len(a) {
			return false // equal
		}
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}

// lintKeyword records a warning for an unknown schema keyword that looks
// like a misspelling of a known one.
func (set *Set) lintKeyword(loc Loc, key string) {
	if s := suggestion(key); s != "" {
		set.warnings = append(set.warnings, Warning{Loc: loc, Msg: fmt.Sprintf("unknown keyword %q is ignored; did you mean %s?", key, s)})
	}
}
