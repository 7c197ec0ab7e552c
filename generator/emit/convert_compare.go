package emit

import (
	"fmt"

	"github.com/ucpgen/ucpgen/generator/ir"
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
// members become Conversion methods instead.
func (c *comparer) sameShape(dir ir.Direction, older, newer *ir.Type) bool {
	if older == nil || newer == nil {
		return older == nil && newer == nil
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
