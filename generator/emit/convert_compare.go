package emit

import (
	"fmt"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

// This file compares an older model with the newer one it serves from, by
// JSON member name: which members keep their shape (carried over by
// generated code) and which changed (left to the Business's Conversion).

// memberChange is one member of an older struct type whose shape differs
// from the newer version's, so the Business converts it.
type memberChange struct {
	// Method is the Conversion method's name.
	Method string
	// Dir is request (older to newer) or response (newer to older).
	Dir ir.Direction
	// Older and Newer are the struct types holding the member.
	Older, Newer *ir.Type
	// Field is the older member, or the newer one for a member only the
	// newer request requires.
	Field *ir.Field
	// Counterpart is the newer member of the same name, when there is one:
	// then the method converts the member's value alone, and every struct
	// holding the same pair of members from the same schemas shares it.
	Counterpart *ir.Field
	// Holders are the older struct types whose member the method converts.
	Holders []string
	// Reason says in a phrase how the member differs.
	Reason string
	// key identifies a value-level change for sharing.
	key string
}

// pairKey names a pair of types compared in one direction.
type pairKey struct {
	dir          ir.Direction
	older, newer *ir.Type
}

// comparer memoises shape comparisons; a pair under comparison counts as
// matching, so recursive types terminate.
type comparer struct {
	memo map[pairKey]bool
}

func newComparer() *comparer { return &comparer{memo: map[pairKey]bool{}} }

// sameShape reports whether values of older and newer convert into each
// other in direction dir member by member: same kind, and for composites
// elements of the same shape. Two struct types always do: their differing
// members become Conversion methods instead. An answer's value that this
// version keeps as a plain JSON object converts too (see asJSON).
func (c *comparer) sameShape(dir ir.Direction, older, newer *ir.Type) bool {
	if older == nil || newer == nil {
		return older == nil && newer == nil
	}
	if asJSON(dir, older, newer) {
		return true
	}
	if older.Kind != newer.Kind {
		return false
	}
	k := pairKey{dir, older, newer}
	if v, ok := c.memo[k]; ok {
		return v
	}
	c.memo[k] = true
	ok := c.compare(dir, older, newer)
	c.memo[k] = ok
	return ok
}

func (c *comparer) compare(dir ir.Direction, older, newer *ir.Type) bool {
	switch older.Kind {
	case ir.Struct:
		if !older.IsNamed() || !newer.IsNamed() {
			return false
		}
		if (older.Extra != nil) != (newer.Extra != nil) {
			return false
		}
		return older.Extra == nil || c.sameShape(dir, older.Extra, newer.Extra)
	case ir.Union:
		if !older.IsNamed() || !newer.IsNamed() || len(older.Variants) != len(newer.Variants) {
			return false
		}
		for _, v := range older.Variants {
			w := variantNamed(newer, v.GoName)
			if w == nil || !c.sameShape(dir, v.Type, w.Type) {
				return false
			}
		}
		return true
	case ir.Array:
		return c.sameShape(dir, older.Elem, newer.Elem)
	case ir.Map:
		return (older.Key == nil) == (newer.Key == nil) && c.sameShape(dir, older.Key, newer.Key) && c.sameShape(dir, older.Elem, newer.Elem)
	}
	return true // scalars and raw JSON of the same kind
}

// variantNamed returns the union variant with the Go name, or nil.
func variantNamed(t *ir.Type, goName string) *ir.Variant {
	for _, v := range t.Variants {
		if v.GoName == goName {
			return v
		}
	}
	return nil
}

// memberDiff says why the older member f differs from the newer member g
// (nil when absent), or "" when it is carried over.
func (c *comparer) memberDiff(dir ir.Direction, f, g *ir.Field) string {
	switch {
	case g == nil:
		return "which the newer version does not have"
	case dir == ir.Request && !f.Required && g.Required:
		return "optional here, required in the newer version"
	case dir == ir.Response && f.Required && !g.Required:
		return "required here, optional in the newer version"
	case asJSON(dir, f.Type, g.Type):
		return ""
	case f.Type.Kind != g.Type.Kind:
		return fmt.Sprintf("%s here, %s in the newer version", withArticle(typeLabel(unnamed(f.Type))), withArticle(typeLabel(unnamed(g.Type))))
	case !c.sameShape(dir, f.Type, g.Type):
		return "of another shape in the newer version"
	}
	return ""
}

// unnamed is t without its name, so typeLabel says its kind.
func unnamed(t *ir.Type) *ir.Type {
	u := *t
	u.Name = ""
	return &u
}

// sameGoType reports whether both types spell the same Go type without a
// package qualifier (unnamed scalars, raw JSON, and lists or string-keyed
// maps of them), so a value is assigned across as it is.
func sameGoType(a, b *ir.Type) bool {
	if a.IsNamed() || b.IsNamed() || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case ir.Struct, ir.Union:
		return false
	case ir.Array:
		return sameGoType(a.Elem, b.Elem)
	case ir.Map:
		return a.Key == nil && b.Key == nil && sameGoType(a.Elem, b.Elem)
	}
	return true
}

// asJSON reports whether an answer's newer value of type newer is carried
// into older by its JSON, with no Conversion method: older is an object of
// any members (openObject) and newer always encodes as an object, so the
// Platform gets the members the newer version sends, neither more nor
// fewer. A request's value is never carried so, since the older object may
// hold members the newer type refuses; that takes the Business's judgement.
func asJSON(dir ir.Direction, older, newer *ir.Type) bool {
	if dir != ir.Response || !openObject(older) || sameGoType(older, newer) {
		return false
	}
	return newer.Kind == ir.Struct || newer.Kind == ir.Map
}

// openObject reports whether t is a string-keyed map of raw JSON whose
// schemas assert nothing of the object but its type and minProperties
// (minMembers, which the generated code checks), so any JSON object with
// enough members is one of its values.
func openObject(t *ir.Type) bool {
	if t.IsNamed() || t.Kind != ir.Map || t.Key != nil || t.Elem.Kind != ir.Any || len(t.Elem.Sources) > 0 || len(t.Sources) == 0 {
		return false
	}
	for _, s := range t.Sources {
		if !onlyObjectType(s) {
			return false
		}
	}
	return true
}

// onlyObjectType reports whether s asserts no more than type object, any
// additional members and a minimum member count; a keyword the loader
// keeps uninterpreted (Extra) might mean more to a Platform, so it leaves
// the member to the Business.
func onlyObjectType(s *load.Schema) bool {
	switch {
	case s.Bool != nil:
		return *s.Bool
	case s.Ref != nil && !onlyObjectType(s.Ref):
		return false
	case len(s.Types) > 1 || len(s.Types) == 1 && s.Types[0] != "object":
		return false
	case s.AdditionalProperties != nil && !s.AdditionalProperties.IsBool(true):
		return false
	}
	return len(s.Properties) == 0 && len(s.Required) == 0 && s.PropertyNames == nil && s.MaxProperties == nil && len(s.Extra) == 0 &&
		len(s.DependentRequired) == 0 && s.Const == nil && len(s.Enum) == 0 &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil && s.If == nil
}

// minMembers is the largest minProperties of an open object's schemas.
func minMembers(t *ir.Type) int {
	n := 0
	for _, s := range t.Sources {
		for ; s != nil; s = s.Ref {
			if s.MinProperties != nil {
				n = max(n, *s.MinProperties)
			}
		}
	}
	return n
}
