package jsonmember

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The walks below are for JSON already known to be well formed, such as a
// part of a request body the scanner accepted: they find a value's end by
// following strings and brackets, not the grammar, several times faster
// than the scanner. Given malformed JSON they never panic and always end,
// but what they report is unspecified.

// FirstValid is First for obj already known to be well-formed JSON.
func FirstValid(obj []byte, name string) (_ json.RawMessage, ok bool) {
	found := json.RawMessage(nil)
	err := EachValid(obj, func(key string, value json.RawMessage) error {
		if key == name {
			found = value
			return errFoundFirst
		}
		return nil
	})
	return found, err == errFoundFirst
}

// errFoundFirst ends FirstValid's walk at the member it looks for.
var errFoundFirst = errors.New("found")

// EachValid is Each for obj already known to be well-formed JSON: it
// calls f with every member of the object obj, in order and repeated
// names included, and returns f's first error, or ErrNotObject when obj
// does not hold an object.
func EachValid(obj []byte, f func(key string, value json.RawMessage) error) error {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return ErrNotObject
	}
	i = skipSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := skipString(obj, i)
		if kEnd < 0 {
			return errMalformed
		}
		key, ok := memberName(obj[i:kEnd])
		if !ok {
			return errMalformed
		}
		if i = skipSpace(obj, kEnd); i >= len(obj) || obj[i] != ':' {
			return errMalformed
		}
		vStart := skipSpace(obj, i+1)
		vEnd := skipValue(obj, vStart)
		if vEnd <= vStart {
			return errMalformed
		}
		if err := f(key, json.RawMessage(obj[vStart:vEnd:vEnd])); err != nil {
			return err
		}
		if i = skipSpace(obj, vEnd); i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return nil
}

// errMalformed is what EachValid returns when it notices that obj is not
// well formed after all.
var errMalformed = &SyntaxError{Err: errors.New("malformed JSON given to EachValid")}

// skipString is the end of the string that starts at b[i] (a '"'): just
// past the next quote that no backslash escapes, or -1.
func skipString(b []byte, i int) int {
	for i++; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		// The quote is escaped when an odd run of backslashes precedes it.
		n := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
	return -1
}

// skipValue is the end of the value that starts at b[i], or -1 when b
// ends first.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
	default:
		// A number, true, false or null: up to the next delimiter.
		for i < len(b) && !delimiter(b[i]) {
			i++
		}
		return i
	}
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i = skipString(b, i); i < 0 {
				return -1
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
		return true
	}
	return false
}
