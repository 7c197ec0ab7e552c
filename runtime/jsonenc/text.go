package jsonenc

import "unicode/utf8"

// AppendJSONAsString appends the JSON text canonical as one JSON string,
// the bytes AppendString(b, string(canonical)) gives, for the MCP text block
// that repeats a tool's structured content. A text written the way
// encoding/json writes it (compact, HTML-escaped, valid UTF-8) needs only
// '"' and '\\' escaped, so it is copied in one pass without a string copy;
// any other input goes through AppendString, so the result is right for
// every input.
func AppendJSONAsString(b []byte, canonical []byte) []byte {
	if !utf8.Valid(canonical) {
		return AppendString(b, string(canonical))
	}
	start := len(b)
	b = append(b, '"')
	for i := 0; i < len(canonical); i++ {
		c := canonical[i]
		switch {
		case c < utf8.RuneSelf && safe[c]:
			b = append(b, c)
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c >= utf8.RuneSelf && !(c == 0xE2 && i+2 < len(canonical) && canonical[i+1] == 0x80 && (canonical[i+2] == 0xA8 || canonical[i+2] == 0xA9)):
			// Part of a valid multi-byte rune other than U+2028 and U+2029.
			b = append(b, c)
		default:
			// A control character, '<', '>', '&', U+2028 or U+2029: not
			// canonical; let AppendString escape it.
			return AppendString(b[:start], string(canonical))
		}
	}
	return append(b, '"')
}
