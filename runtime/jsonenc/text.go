package jsonenc

import (
	"slices"
	"unicode/utf8"
)

// AppendJSONAsString appends the JSON text canonical as one JSON string,
// the bytes AppendString(b, string(canonical)) gives, for the MCP text block
// that repeats a tool's structured content. A text written the way
// encoding/json writes it (compact, HTML-escaped, valid UTF-8) needs only
// '"' and '\\' escaped, so it is copied in one pass without a string copy;
// any other input goes through AppendString, so the result is right for
// every input.
func AppendJSONAsString(b []byte, canonical []byte) []byte {
	b = append(b, '"')
	b = appendText(b, canonical)
	return append(b, '"')
}

// appendText is AppendJSONAsString without the quotes.
func appendText(b []byte, canonical []byte) []byte {
	if !utf8.Valid(canonical) {
		return appendStringText(b, string(canonical))
	}
	// Room for the worst case (every byte escaped to two), so the loop
	// stores by index instead of appending byte by byte.
	start := len(b)
	b = slices.Grow(b, 2*len(canonical))
	out := b[start : start+2*len(canonical)]
	j := 0
	for i := 0; i < len(canonical); i++ {
		c := canonical[i]
		switch verbatim[c] {
		case copyByte:
			out[j] = c
			j++
		case escapeByte:
			out[j], out[j+1] = '\\', c
			j += 2
		default:
			if c == 0xE2 && !(i+2 < len(canonical) && canonical[i+1] == 0x80 && (canonical[i+2] == 0xA8 || canonical[i+2] == 0xA9)) {
				// Part of a valid multi-byte rune other than U+2028 and U+2029.
				out[j] = c
				j++
				continue
			}
			// A control character, '<', '>', '&', U+2028 or U+2029: not
			// canonical; let appendStringText escape it.
			return appendStringText(b[:start], string(canonical))
		}
	}
	return b[:start+j]
}

// How AppendJSONAsString treats each byte of valid UTF-8.
const (
	checkByte  = iota // not canonical, or 0xE2, which may begin U+2028 or U+2029
	copyByte          // copied as it is: safe ASCII and the other bytes of multi-byte runes
	escapeByte        // '"' and '\\', written after a backslash
)

// verbatim classifies every byte value for AppendJSONAsString.
var verbatim = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c < utf8.RuneSelf && safe[c]:
			t[c] = copyByte
		case c == '"' || c == '\\':
			t[c] = escapeByte
		case c >= utf8.RuneSelf && c != 0xE2:
			t[c] = copyByte
		}
	}
	return t
}()
