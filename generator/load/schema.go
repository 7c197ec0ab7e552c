package load

import (
	"fmt"
	"math/big"
	"strings"
)

// Schema is one JSON Schema (Draft 2020-12) object with its references
// resolved to other Schema values. Keywords the generator does not interpret
// (ucp_request, ucp_response, name, and unknown ones) are kept.
type Schema struct {
	Loc Loc

	// Bool is set for the boolean schemas true and false.
	Bool *bool

	ID        string
	Ref       *Schema
	RefString string

	Title       string
	Description string
	Types       []string

	Properties           []*Property
	Required             []string
	AdditionalProperties *Schema
	PropertyNames        *Schema
	MinProperties        *int
	MaxProperties        *int
	DependentRequired    []Dependent

	Items       *Schema
	MinItems    *int
	MaxItems    *int
	UniqueItems bool
	// Contains must match at least MinContains (default 1) and at most
	// MaxContains items; the two counts mean nothing without it.
	Contains    *Schema
	MinContains *int
	MaxContains *int

	MinLength *int
	MaxLength *int
	Pattern   string
	Format    string

	Minimum          *big.Rat
	Maximum          *big.Rat
	ExclusiveMinimum *big.Rat
	ExclusiveMaximum *big.Rat
	MultipleOf       *big.Rat

	Const   *Node
	Enum    []*Node
	Default *Node

	AllOf []*Schema
	AnyOf []*Schema
	OneOf []*Schema
	Not   *Schema
	If    *Schema
	Then  *Schema
	Else  *Schema

	Defs []*Property

	// UcpRequest and UcpResponse are the UCP direction annotations, verbatim.
	UcpRequest  *Node
	UcpResponse *Node
	// Name is UCP's non-standard capability name keyword (e.g. on location_search.json).
	Name string
	// Extra holds keywords nobody interprets, in source order.
	Extra []Member
	// Node is the raw source of this schema.
	Node *Node
}

// Property is a named subschema (a properties member or a $defs entry).
type Property struct {
	Name   string
	Schema *Schema
}

// Dependent is one dependentRequired entry.
type Dependent struct {
	Property string
	Requires []string
}

// IsBool reports whether s is the boolean schema b.
func (s *Schema) IsBool(b bool) bool { return s != nil && s.Bool != nil && *s.Bool == b }

// Property returns the named property subschema, or nil.
func (s *Schema) Property(name string) *Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// Reaches reports whether s, or a schema it requires through $ref and
// allOf (each once, so cycles end), satisfies ok: what a value that s
// accepts must also be.
func (s *Schema) Reaches(ok func(*Schema) bool) bool {
	seen := map[*Schema]bool{}
	var walk func(x *Schema) bool
	walk = func(x *Schema) bool {
		if x == nil || seen[x] {
			return false
		}
		if ok(x) {
			return true
		}
		seen[x] = true
		if walk(x.Ref) {
			return true
		}
		for _, a := range x.AllOf {
			if walk(a) {
				return true
			}
		}
		return false
	}
	return walk(s)
}

// HasType reports whether the type keyword lists t.
func (s *Schema) HasType(t string) bool {
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

// keywordError is the one error shape of schema parsing: file#pointer: reason.
func keywordError(loc Loc, format string, args ...any) error {
	return fmt.Errorf("%s: %s", loc, fmt.Sprintf(format, args...))
}

// knownKeywords are the keywords the loader reads; lint suggests one of them
// for an unknown keyword one edit away, since a typo drops a constraint.
var knownKeywords = map[string]bool{
	"$schema": true, "$id": true, "$ref": true, "$defs": true, "$comment": true,
	"title": true, "description": true, "type": true, "properties": true,
	"required": true, "additionalProperties": true, "propertyNames": true,
	"minProperties": true, "maxProperties": true, "dependentRequired": true,
	"items": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"contains": true, "minContains": true, "maxContains": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "const": true, "enum": true, "default": true, "examples": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true,
	"else": true, "ucp_request": true, "ucp_response": true, "name": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
}

// unsupportedKeywords are assertions the generator would silently ignore;
// failing loudly is the only safe answer for them.
var unsupportedKeywords = map[string]bool{
	"patternProperties": true, "prefixItems": true, "dependentSchemas": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "$dynamicRef": true,
	"$anchor": true, "$dynamicAnchor": true, "contentEncoding": false,
}

var validTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "integer": true, "string": true}

// parseSchema turns a node into a Schema; refs are recorded as strings and
// resolved by the Set afterwards.
func (set *Set) parseSchema(n *Node) (*Schema, error) {
	if s, ok := set.byLoc[n.Loc]; ok {
		return s, nil
	}
	s := &Schema{Loc: n.Loc, Node: n}
	set.byLoc[n.Loc] = s
	switch n.Kind {
	case Bool:
		b := n.Bool
		s.Bool = &b
		return s, nil
	case Object:
	default:
		return nil, keywordError(n.Loc, "a schema must be an object or a boolean, got %s", n.Kind)
	}
	for _, m := range n.Members {
		if err := set.keyword(s, m.Key, m.Value); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (set *Set) keyword(s *Schema, key string, v *Node) error {
	var err error
	switch key {
	case "$schema", "$comment", "examples", "deprecated", "readOnly", "writeOnly":
		// annotations without generator meaning (examples are kept in Node)
	case "$id":
		s.ID, err = str(v)
	case "$ref":
		s.RefString, err = str(v)
	case "title":
		s.Title, err = str(v)
	case "description":
		s.Description, err = str(v)
	case "name":
		s.Name, err = str(v)
	case "type":
		switch v.Kind {
		case String:
			s.Types = []string{v.Str}
		case Array:
			for _, it := range v.Items {
				if it.Kind != String {
					return keywordError(it.Loc, "type entries must be strings, got %s", it.Kind)
				}
				s.Types = append(s.Types, it.Str)
			}
		default:
			return keywordError(v.Loc, "type must be a string or an array of strings, got %s", v.Kind)
		}
		for _, t := range s.Types {
			if !validTypes[t] {
				return keywordError(v.Loc, "unknown type %q", t)
			}
		}
	case "properties", "$defs":
		if v.Kind != Object {
			return keywordError(v.Loc, "%s must be an object, got %s", key, v.Kind)
		}
		for _, m := range v.Members {
			sub, err := set.parseSchema(m.Value)
			if err != nil {
				return err
			}
			p := &Property{Name: m.Key, Schema: sub}
			if key == "properties" {
				s.Properties = append(s.Properties, p)
			} else {
				s.Defs = append(s.Defs, p)
			}
		}
	case "required":
		s.Required, err = strList(v, true)
	case "additionalProperties":
		s.AdditionalProperties, err = set.parseSchema(v)
	case "propertyNames":
		s.PropertyNames, err = set.parseSchema(v)
	case "items":
		s.Items, err = set.parseSchema(v)
	case "contains":
		s.Contains, err = set.parseSchema(v)
	case "minContains":
		s.MinContains, err = nonNegInt(v)
	case "maxContains":
		s.MaxContains, err = nonNegInt(v)
	case "not":
		s.Not, err = set.parseSchema(v)
	case "if":
		s.If, err = set.parseSchema(v)
	case "then":
		s.Then, err = set.parseSchema(v)
	case "else":
		s.Else, err = set.parseSchema(v)
	case "allOf", "anyOf", "oneOf":
		if v.Kind != Array || len(v.Items) == 0 {
			return keywordError(v.Loc, "%s must be a non-empty array of schemas", key)
		}
		var list []*Schema
		for _, it := range v.Items {
			sub, err := set.parseSchema(it)
			if err != nil {
				return err
			}
			list = append(list, sub)
		}
		switch key {
		case "allOf":
			s.AllOf = list
		case "anyOf":
			s.AnyOf = list
		default:
			s.OneOf = list
		}
	case "minProperties":
		s.MinProperties, err = nonNegInt(v)
	case "maxProperties":
		s.MaxProperties, err = nonNegInt(v)
	case "minItems":
		s.MinItems, err = nonNegInt(v)
	case "maxItems":
		s.MaxItems, err = nonNegInt(v)
	case "minLength":
		s.MinLength, err = nonNegInt(v)
	case "maxLength":
		s.MaxLength, err = nonNegInt(v)
	case "uniqueItems":
		if v.Kind != Bool {
			return keywordError(v.Loc, "uniqueItems must be a boolean, got %s", v.Kind)
		}
		s.UniqueItems = v.Bool
	case "pattern":
		s.Pattern, err = str(v)
	case "format":
		s.Format, err = str(v)
	case "minimum":
		s.Minimum, err = number(v)
	case "maximum":
		s.Maximum, err = number(v)
	case "exclusiveMinimum":
		s.ExclusiveMinimum, err = number(v)
	case "exclusiveMaximum":
		s.ExclusiveMaximum, err = number(v)
	case "multipleOf":
		s.MultipleOf, err = number(v)
		if err == nil && s.MultipleOf.Sign() <= 0 {
			err = keywordError(v.Loc, "multipleOf must be greater than 0")
		}
	case "const":
		s.Const = v
	case "enum":
		if v.Kind != Array || len(v.Items) == 0 {
			return keywordError(v.Loc, "enum must be a non-empty array")
		}
		s.Enum = v.Items
	case "default":
		s.Default = v
	case "dependentRequired":
		if v.Kind != Object {
			return keywordError(v.Loc, "dependentRequired must be an object, got %s", v.Kind)
		}
		for _, m := range v.Members {
			req, err := strList(m.Value, true)
			if err != nil {
				return err
			}
			s.DependentRequired = append(s.DependentRequired, Dependent{Property: m.Key, Requires: req})
		}
	case "ucp_request":
		s.UcpRequest = v
	case "ucp_response":
		s.UcpResponse = v
	default:
		if unsupportedKeywords[key] {
			return keywordError(v.Loc, "keyword %q is not supported by ucpgen; refusing to generate code that would ignore it", key)
		}
		set.lintKeyword(v.Loc, key)
		s.Extra = append(s.Extra, Member{Key: key, Value: v})
	}
	return err
}

func str(v *Node) (string, error) {
	if v.Kind != String {
		return "", keywordError(v.Loc, "must be a string, got %s", v.Kind)
	}
	return v.Str, nil
}

func strList(v *Node, unique bool) ([]string, error) {
	if v.Kind != Array {
		return nil, keywordError(v.Loc, "must be an array of strings, got %s", v.Kind)
	}
	seen := map[string]bool{}
	out := []string{}
	for _, it := range v.Items {
		if it.Kind != String {
			return nil, keywordError(it.Loc, "must be a string, got %s", it.Kind)
		}
		if unique && seen[it.Str] {
			return nil, keywordError(it.Loc, "duplicate entry %q", it.Str)
		}
		seen[it.Str] = true
		out = append(out, it.Str)
	}
	return out, nil
}

func nonNegInt(v *Node) (*int, error) {
	if v.Kind != Number {
		return nil, keywordError(v.Loc, "must be a non-negative integer, got %s", v.Kind)
	}
	r, ok := new(big.Rat).SetString(v.Num.String())
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > 1<<31 {
		return nil, keywordError(v.Loc, "must be a non-negative integer, got %s", v.Num)
	}
	i := int(r.Num().Int64())
	return &i, nil
}

func number(v *Node) (*big.Rat, error) {
	if v.Kind != Number {
		return nil, keywordError(v.Loc, "must be a number, got %s", v.Kind)
	}
	r, ok := new(big.Rat).SetString(v.Num.String())
	if !ok {
		return nil, keywordError(v.Loc, "invalid number %s", v.Num)
	}
	return r, nil
}

// splitRef separates a resolved reference into document URL and fragment.
func splitRef(u string) (doc, frag string) {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i], u[i+1:]
	}
	return u, ""
}
