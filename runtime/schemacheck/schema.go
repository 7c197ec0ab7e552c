package schemacheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

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

// Prop is one properties entry.
type Prop struct {
	Name   string
	Schema *Schema
}

// Dependent is one dependentRequired entry.
type Dependent struct {
	Name     string
	Requires []string
}

// Schema is the compiled form of one JSON Schema object, declared by generated
// code. A nil *Schema accepts everything; Never rejects everything (the
// boolean schema false). Ref points at another Schema so recursive schemas
// can be declared as Go variables.
type Schema struct {
	Never bool
	Ref   *Schema

	Types Types

	Properties []Prop
	Required   []string
	// AdditionalFalse is additionalProperties: false; Additional is a schema.
	AdditionalFalse   bool
	Additional        *Schema
	PropertyNames     *Schema
	MinProperties     int
	MaxProperties     int // -1 when absent
	DependentRequired []Dependent

	Items       *Schema
	MinItems    int
	MaxItems    int // -1 when absent
	UniqueItems bool

	MinLength int
	MaxLength int // -1 when absent
	// Pattern is the Go translation of the schema's ECMA-262 pattern (see
	// Pattern); PatternSource is the original text for messages.
	Pattern       *regexp.Regexp
	PatternSource string
	Format        string

	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum *Bound

	// Const and Enum hold parsed JSON values.
	Const *Value
	Enum  []Value

	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema
	If, Then, Else      *Schema
}

// Check validates v against s and returns every violation, each addressed
// by the JSON Pointer of the offending value relative to v, in a stable
// order (document order of the schema's keywords and the instance's members).
func Check(s *Schema, v *Value) []rpcerr.Violation {
	c := checker{}
	c.check(s, v, "")
	return dedupe(c.out)
}

// Valid reports whether v satisfies s without building messages.
func Valid(s *Schema, v *Value) bool {
	c := checker{quiet: true}
	c.check(s, v, "")
	return !c.failed
}

// Error wraps violations into the typed request error, or returns nil.
func Error(vs []rpcerr.Violation) error {
	if len(vs) == 0 {
		return nil
	}
	return &rpcerr.InvalidParams{Violations: vs}
}

// Decode parses data and validates it against s in one pass, returning the
// parsed value or a *rpcerr.InvalidParams naming each failure. JSON syntax
// errors are reported with the pointer of the value being read.
func Decode(s *Schema, data []byte) (*Value, error) {
	v, err := Parse(data)
	if err != nil {
		pe := err.(*ParseError)
		return nil, &rpcerr.InvalidParams{Violations: []rpcerr.Violation{{Pointer: pe.Pointer, Keyword: "json", Message: fmt.Sprintf("invalid JSON at byte %d: %s", pe.Offset, pe.Reason)}}}
	}
	if vs := Check(s, &v); len(vs) > 0 {
		return nil, &rpcerr.InvalidParams{Violations: vs}
	}
	return &v, nil
}

func dedupe(vs []rpcerr.Violation) []rpcerr.Violation {
	if len(vs) < 2 {
		return vs
	}
	seen := make(map[rpcerr.Violation]bool, len(vs))
	out := vs[:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

type checker struct {
	quiet  bool
	failed bool
	out    []rpcerr.Violation
}

func (c *checker) report(ptr, keyword, format string, args ...any) {
	c.failed = true
	if c.quiet {
		return
	}
	c.out = append(c.out, rpcerr.Violation{Pointer: ptr, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
}

// sub runs s against v in quiet mode, for branches whose failures are not
// reported one by one (anyOf, oneOf, not, if).
func sub(s *Schema, v *Value, ptr string) bool {
	c := checker{quiet: true}
	c.check(s, v, ptr)
	return !c.failed
}

// firstReason explains why a branch failed, for anyOf/oneOf messages.
func firstReason(s *Schema, v *Value, ptr string) string {
	c := checker{}
	c.check(s, v, ptr)
	if len(c.out) == 0 {
		return ""
	}
	return c.out[0].String()
}

func join(ptr, token string) string { return ptr + "/" + rpcerr.EscapeToken(token) }

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

func (c *checker) check(s *Schema, v *Value, ptr string) {
	if s == nil {
		return
	}
	if s.Never {
		c.report(ptr, "false", "no value is allowed here")
		return
	}
	if s.Ref != nil {
		c.check(s.Ref, v, ptr)
	}
	if s.Types != 0 && kindTypes(v)&s.Types == 0 {
		c.report(ptr, "type", "must be %s, got %s", s.Types, describeKind(v))
		return
	}
	if s.Const != nil && !Equal(s.Const, v) {
		c.report(ptr, "const", "must be %s, got %s", s.Const.Raw, short(v))
	}
	if s.Enum != nil {
		ok := false
		for i := range s.Enum {
			if Equal(&s.Enum[i], v) {
				ok = true
				break
			}
		}
		if !ok {
			c.report(ptr, "enum", "must be one of %s, got %s", enumList(s.Enum), short(v))
		}
	}
	switch v.Kind {
	case Object:
		c.object(s, v, ptr)
	case Array:
		c.array(s, v, ptr)
	case String:
		c.str(s, v, ptr)
	case Number:
		c.number(s, v, ptr)
	}
	for _, a := range s.AllOf {
		c.check(a, v, ptr)
	}
	if len(s.AnyOf) > 0 {
		ok := false
		for _, a := range s.AnyOf {
			if sub(a, v, ptr) {
				ok = true
				break
			}
		}
		if !ok {
			c.reportBranches(ptr, "anyOf", "must match at least one of %d alternatives", s.AnyOf, v)
		}
	}
	if len(s.OneOf) > 0 {
		n := 0
		var matched []int
		for i, a := range s.OneOf {
			if sub(a, v, ptr) {
				n++
				matched = append(matched, i+1)
			}
		}
		switch {
		case n == 0:
			c.reportBranches(ptr, "oneOf", "must match exactly one of %d alternatives, matches none", s.OneOf, v)
		case n > 1:
			c.report(ptr, "oneOf", "must match exactly one of %d alternatives, matches alternatives %v", len(s.OneOf), matched)
		}
	}
	if s.Not != nil && sub(s.Not, v, ptr) {
		c.report(ptr, "not", "must not match the excluded schema")
	}
	if s.If != nil {
		if sub(s.If, v, ptr) {
			c.check(s.Then, v, ptr)
		} else {
			c.check(s.Else, v, ptr)
		}
	}
}

func (c *checker) reportBranches(ptr, keyword, format string, branches []*Schema, v *Value) {
	if c.quiet {
		c.failed = true
		return
	}
	msg := fmt.Sprintf(format, len(branches))
	var reasons []string
	for _, b := range branches {
		if r := firstReason(b, v, ptr); r != "" {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) > 0 {
		msg += " (" + strings.Join(reasons, "; ") + ")"
	}
	c.report(ptr, keyword, "%s", msg)
}

func (c *checker) object(s *Schema, v *Value, ptr string) {
	n := len(v.Members)
	if n < s.MinProperties {
		c.report(ptr, "minProperties", "must have at least %d members, got %d", s.MinProperties, n)
	}
	if s.MaxProperties >= 0 && n > s.MaxProperties && s.MaxProperties != unlimited {
		c.report(ptr, "maxProperties", "must have at most %d members, got %d", s.MaxProperties, n)
	}
	for _, r := range s.Required {
		if v.Get(r) == nil {
			c.report(join(ptr, r), "required", "required member %q is missing", r)
			if c.quiet {
				return
			}
		}
	}
	for _, d := range s.DependentRequired {
		if v.Get(d.Name) == nil {
			continue
		}
		for _, r := range d.Requires {
			if v.Get(r) == nil {
				c.report(join(ptr, r), "dependentRequired", "member %q is required when %q is present", r, d.Name)
			}
		}
	}
	for i := range v.Members {
		m := &v.Members[i]
		mp := join(ptr, m.Name)
		if s.PropertyNames != nil {
			name := Value{Kind: String, Str: m.Name, Raw: quote(m.Name)}
			if !sub(s.PropertyNames, &name, mp) {
				if c.quiet {
					c.failed = true
					return
				}
				c.report(mp, "propertyNames", "member name %q is not allowed: %s", m.Name, strings.TrimPrefix(firstReason(s.PropertyNames, &name, ""), "(root): "))
			}
		}
		known := false
		for _, p := range s.Properties {
			if p.Name == m.Name {
				known = true
				c.check(p.Schema, &m.Value, mp)
				break
			}
		}
		if known {
			continue
		}
		if s.AdditionalFalse {
			c.report(mp, "additionalProperties", "member %q is not allowed here", m.Name)
		} else if s.Additional != nil {
			c.check(s.Additional, &m.Value, mp)
		}
		if c.quiet && c.failed {
			return
		}
	}
}

// unlimited marks an absent upper limit.
const unlimited = -1

func (c *checker) array(s *Schema, v *Value, ptr string) {
	n := len(v.Items)
	if n < s.MinItems {
		c.report(ptr, "minItems", "must have at least %d items, got %d", s.MinItems, n)
	}
	if s.MaxItems != unlimited && n > s.MaxItems {
		c.report(ptr, "maxItems", "must have at most %d items, got %d", s.MaxItems, n)
	}
	if s.UniqueItems {
	outer:
		for i := 1; i < n; i++ {
			for j := 0; j < i; j++ {
				if Equal(&v.Items[i], &v.Items[j]) {
					c.report(join(ptr, itoa(i)), "uniqueItems", "items must be unique, item %d equals item %d", i, j)
					break outer
				}
			}
		}
	}
	if s.Items != nil {
		for i := range v.Items {
			c.check(s.Items, &v.Items[i], join(ptr, itoa(i)))
			if c.quiet && c.failed {
				return
			}
		}
	}
}

func (c *checker) str(s *Schema, v *Value, ptr string) {
	if s.MinLength > 0 || s.MaxLength != unlimited {
		n := utf8.RuneCountInString(v.Str)
		if n < s.MinLength {
			c.report(ptr, "minLength", "must be at least %d characters long, got %d", s.MinLength, n)
		}
		if s.MaxLength != unlimited && n > s.MaxLength {
			c.report(ptr, "maxLength", "must be at most %d characters long, got %d", s.MaxLength, n)
		}
	}
	if s.Pattern != nil && !s.Pattern.MatchString(v.Str) {
		c.report(ptr, "pattern", "must match the pattern %s, got %s", s.PatternSource, short(v))
	}
	if s.Format != "" {
		if err := CheckFormat(s.Format, v.Str); err != nil {
			c.report(ptr, "format", "must be a valid %s: %v", s.Format, err)
		}
	}
}

func (c *checker) number(s *Schema, v *Value, ptr string) {
	if b := s.Minimum; b != nil && compareBound(v, b) < 0 {
		c.report(ptr, "minimum", "must be >= %s, got %s", b.Text, v.Str)
	}
	if b := s.Maximum; b != nil && compareBound(v, b) > 0 {
		c.report(ptr, "maximum", "must be <= %s, got %s", b.Text, v.Str)
	}
	if b := s.ExclusiveMinimum; b != nil && compareBound(v, b) <= 0 {
		c.report(ptr, "exclusiveMinimum", "must be > %s, got %s", b.Text, v.Str)
	}
	if b := s.ExclusiveMaximum; b != nil && compareBound(v, b) >= 0 {
		c.report(ptr, "exclusiveMaximum", "must be < %s, got %s", b.Text, v.Str)
	}
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

func enumList(vs []Value) string {
	parts := make([]string, len(vs))
	for i := range vs {
		parts[i] = vs[i].Raw
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, ", ") + "]"
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

// Int64 converts an integer-valued number to int64, refusing values a Go
// int64 cannot hold rather than wrapping them.
func Int64(v *Value) (int64, error) {
	if v.Kind != Number || !isIntegral(v.Str) {
		return 0, rpcerr.Invalid("", "type", "must be an integer to decode, got %s", v.Kind)
	}
	if v.Num < -9.223372036854775808e18 || v.Num >= 9.223372036854775808e18 {
		return 0, rpcerr.Invalid("", "maximum", "integer %s does not fit in 64 bits", v.Str)
	}
	return int64(v.Num), nil
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
