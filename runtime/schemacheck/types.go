package schemacheck

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Types is a set of JSON Schema type names, as a bit set for cheap checks.
type Types uint8

// Type bits; TypeInteger is a number with no fractional part.
const (
	TypeNull Types = 1 << iota
	TypeBoolean
	TypeObject
	TypeArray
	TypeNumber
	TypeInteger
	TypeString
)

var typeNames = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

func (t Types) String() string {
	var names []string
	for i, n := range typeNames {
		if t&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// Bound is a numeric limit kept both as float64 for the fast comparison and
// as its exact decimal text for the rare values that round onto it.
type Bound struct {
	F    float64
	Text string
}

// TypeNamed is the bit of one JSON Schema type name ("integer"), or 0 for a
// name the keyword does not define.
func TypeNamed(name string) Types {
	for i, n := range typeNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

func kindTypes(v *Value) Types {
	switch v.Kind {
	case Null:
		return TypeNull
	case Bool:
		return TypeBoolean
	case Object:
		return TypeObject
	case Array:
		return TypeArray
	case String:
		return TypeString
	case Number:
		if isIntegral(v.Str) {
			return TypeNumber | TypeInteger
		}
		return TypeNumber
	}
	return 0
}

func describeKind(v *Value) string {
	if v.Kind == Number && !isIntegral(v.Str) {
		return "number " + v.Str
	}
	return v.Kind.String()
}

// short renders a value for a message, cut so hostile input cannot bloat it.
func short(v *Value) string {
	r := v.Raw
	if r == "" {
		r = quote(v.Str)
	}
	if len(r) > 60 {
		r = r[:57] + "..."
	}
	return r
}

// Mismatch reports a JSON value whose type the Go field cannot hold; after
// validation it only happens when the schema admits more than the Go type.
func Mismatch(v *Value, want string) error {
	return rpcerr.Invalid("", "type", "must be %s to decode, got %s", want, v.Kind)
}

// Unexpected reports a member a closed object does not list.
func Unexpected(name string) error {
	return rpcerr.Invalid("/"+rpcerr.EscapeToken(name), "additionalProperties", "member %q is not allowed here", name)
}

// UnknownTag reports a union discriminator with no matching variant.
func UnknownTag(member, tag string) error {
	return rpcerr.Invalid("/"+rpcerr.EscapeToken(member), "oneOf", "discriminator %q has no variant for %q", member, tag)
}

// NoVariant reports a value that matches no variant of an untagged union.
func NoVariant(union string) error {
	return rpcerr.Invalid("", "anyOf", "matches none of the alternatives of %s", union)
}

// Int64 converts an integer-valued number to int64. An integer beyond the
// int64 range, which JSON Schema accepts wherever the schema states no
// bound that refuses it (the schema checks run before any decode), is
// lowered or raised to the nearest int64 (math.MaxInt64, math.MinInt64),
// never wrapped. The integers of the UCP schemas are counts and sizes, for
// which the saturated value gives the same answer as the number sent: a
// page limit of 1e30 is capped to the maximum page size exactly as 100000
// is, where refusing it would cite a maximum the schema does not have.
func Int64(v *Value) (int64, error) {
	if v.Kind != Number || !isIntegral(v.Str) {
		return 0, rpcerr.Invalid("", "type", "must be an integer to decode, got %s", v.Kind)
	}
	n, ok := int64Of(v.Str)
	if !ok {
		if strings.HasPrefix(v.Str, "-") {
			return math.MinInt64, nil
		}
		return math.MaxInt64, nil
	}
	return n, nil
}

// AsString is the string v holds; decoders use it for a member of Go type
// string, whose JSON value may still be of another type when not validated.
func AsString(v *Value) (string, error) {
	if v.Kind != String {
		return "", Mismatch(v, "string")
	}
	return v.Str, nil
}

// AsNumber is the number v holds, as a float64.
func AsNumber(v *Value) (float64, error) {
	if v.Kind != Number {
		return 0, Mismatch(v, "number")
	}
	return v.Num, nil
}

// AsBool is the boolean v holds.
func AsBool(v *Value) (bool, error) {
	if v.Kind != Bool {
		return false, Mismatch(v, "boolean")
	}
	return v.Bool, nil
}

// AsStrings is the array of strings v holds, naming the index of an item
// that is not a string.
func AsStrings(v *Value) ([]string, error) {
	if v.Kind != Array {
		return nil, Mismatch(v, "array")
	}
	out := make([]string, len(v.Items))
	for i := range v.Items {
		if v.Items[i].Kind != String {
			return nil, At(Mismatch(&v.Items[i], "string"), strconv.Itoa(i))
		}
		out[i] = v.Items[i].Str
	}
	return out, nil
}

// AsRawItems is the array v holds, each item kept as its source text.
func AsRawItems(v *Value) ([]json.RawMessage, error) {
	if v.Kind != Array {
		return nil, Mismatch(v, "array")
	}
	out := make([]json.RawMessage, len(v.Items))
	for i := range v.Items {
		out[i] = json.RawMessage(v.Items[i].Raw)
	}
	return out, nil
}

// AsRawMembers is the object v holds, each member kept as its source text.
func AsRawMembers(v *Value) (map[string]json.RawMessage, error) {
	if v.Kind != Object {
		return nil, Mismatch(v, "object")
	}
	out := make(map[string]json.RawMessage, len(v.Members))
	for i := range v.Members {
		out[v.Members[i].Name] = json.RawMessage(v.Members[i].Value.Raw)
	}
	return out, nil
}

// Keep adds m, a member the schema does not list, to unknown verbatim and
// returns the map, made on first use so that a value without such members
// keeps a nil one.
func Keep(unknown map[string]json.RawMessage, m *Member) map[string]json.RawMessage {
	if unknown == nil {
		unknown = map[string]json.RawMessage{}
	}
	unknown[m.Name] = json.RawMessage(m.Value.Raw)
	return unknown
}

// At nests the pointers of a decode error under the given reference tokens
// (outermost first); decoders call it only on their error path, so successful
// decodes build no pointer strings.
func At(err error, tokens ...string) error {
	e, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		return err
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(rpcerr.EscapeToken(t))
	}
	return e.Prefix(b.String())
}
