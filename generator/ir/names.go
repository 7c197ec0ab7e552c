package ir

import (
	"path"
	"strings"
	"unicode"
)

// initialisms are written in upper case inside Go names, as golint expects.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "ucp": "UCP", "url": "URL", "uri": "URI", "ip": "IP",
	"http": "HTTP", "json": "JSON", "api": "API", "mcp": "MCP", "rpc": "RPC", "uuid": "UUID",
	"jwk": "JWK", "utc": "UTC", "a2a": "A2A",
}

// GoName turns a JSON or schema name (snake, kebab, dotted, spaced or
// parenthesised) into an exported Go identifier.
func GoName(s string) string {
	words := splitWords(s)
	var b strings.Builder
	for _, w := range words {
		lw := strings.ToLower(w)
		if up, ok := initialisms[lw]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	name := b.String()
	if name == "" {
		return "X"
	}
	if unicode.IsDigit([]rune(name)[0]) {
		name = "X" + name
	}
	return name
}

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

// singular makes an item type name from a plural field name.
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "IDs"):
		return strings.TrimSuffix(s, "s")
	case strings.HasSuffix(s, "ies"):
		return strings.TrimSuffix(s, "ies") + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "ss"):
		return s
	case strings.HasSuffix(s, "s") && len(s) > 1:
		return strings.TrimSuffix(s, "s")
	}
	return s + "Item"
}

// fileStem is the file name without directory and extension (location_search).
func fileStem(file string) string {
	return strings.TrimSuffix(path.Base(file), path.Ext(file))
}

// joinNoStutter prefixes name unless it already starts with prefix, so that
// generated names do not stutter (LocationLocation).
func joinNoStutter(prefix, name string) string {
	if strings.HasPrefix(name, prefix) {
		return name
	}
	return prefix + name
}
