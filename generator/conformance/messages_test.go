package conformance_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// keywords are the rule names a violation may carry: the JSON Schema
// keywords the validators compile, "false" for the boolean schema and
// "json" for syntax errors.
var keywords = map[string]bool{
	"type": true, "required": true, "additionalProperties": true, "propertyNames": true,
	"dependentRequired": true, "minProperties": true, "maxProperties": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minLength": true, "maxLength": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "const": true, "enum": true, "anyOf": true, "oneOf": true, "not": true,
	"false": true, "json": true,
}

// TestMessagesNamePointerAndRule checks every violation the differential
// corpus produces: its pointer addresses the offending value in the payload
// (for a missing member, the place it should be), its keyword is the rule
// that failed, and its message is plain words with the expected value and,
// for bounds, the value that was sent.
func TestMessagesNamePointerAndRule(t *testing.T) {
	n := 0
	for _, c := range corpus(t, seedCases(t)) {
		err := targets[c.target].decode(c.data)
		if err == nil {
			continue
		}
		ip, ok := rpcerr.AsInvalidParams(err)
		if !ok || len(ip.Violations) == 0 {
			t.Fatalf("%s: error %v has no violations", c.name, err)
		}
		var doc any
		if err := json.Unmarshal(c.data, &doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, v := range ip.Violations {
			n++
			where := c.name + ": " + v.String()
			if !keywords[v.Keyword] {
				t.Errorf("%s: keyword %q is not a rule name", where, v.Keyword)
			}
			target, found := resolve(doc, v.Pointer)
			switch v.Keyword {
			case "required", "dependentRequired":
				parent := v.Pointer[:strings.LastIndexByte(v.Pointer, '/')]
				if _, ok := resolve(doc, parent); !ok || found {
					t.Errorf("%s: pointer should name a missing member of an existing object", where)
				}
			default:
				if !found {
					t.Errorf("%s: pointer does not resolve in the payload", where)
				}
			}
			m := v.Message
			if m == "" || strings.ContainsAny(m[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || strings.Contains(m, "%!") || strings.Contains(m, "<nil>") || strings.Contains(m, "schemacheck") {
				t.Errorf("%s: message is not plain words", where)
			}
			switch v.Keyword {
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				if !strings.HasPrefix(m, "must be ") || !strings.Contains(m, ", got ") {
					t.Errorf("%s: bound message should read \"must be <op> <bound>, got <value>\"", where)
				}
				sent, _ := target.(float64)
				if f, err := strconv.ParseFloat(m[strings.LastIndex(m, " ")+1:], 64); err != nil || f != sent {
					t.Errorf("%s: message does not quote the value sent (%v)", where, target)
				}
			case "type":
				if !strings.HasPrefix(m, "must be ") || !strings.Contains(m, ", got ") {
					t.Errorf("%s: type message should read \"must be <type>, got <type>\"", where)
				}
			case "required":
				if !strings.Contains(m, "is missing") {
					t.Errorf("%s: required message should say the member is missing", where)
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d violations checked", n)
	}
	t.Logf("%d violations checked", n)
}

// resolve follows an RFC 6901 pointer through a decoded JSON document.
func resolve(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
