package ir

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load"
)

// parentRef is the type being shaped and the name it had when it was.
type parentRef struct {
	t    *Type
	name string
}

// offer is one use's proposal for the name of a type without a naming point
// of its own: the type that asked (nil for a method's parameter or result)
// and how the name follows from that type's name.
type offer struct {
	parent *Type
	derive func(parent string) string
}

func (b *builder) offer(t, parent *Type, derive func(string) string) {
	b.offers[t] = append(b.offers[t], offer{parent, derive})
}

// settleHints makes the name of every type without a naming point a
// function of where its schemas are written, not of which use built it
// first. A schema shared by several types (a property of a $defs entry that
// other schemas merge through allOf) would otherwise take the name of
// whichever user the generator met first, and adding or removing a method
// could rename it. The name is the one its owners propose (the types whose
// schemas lexically hold one of its schemas), from their own settled
// names; a type with no owner among its uses is named from the nearest
// enclosing naming point of its schema and the path below it.
func (b *builder) settleHints() {
	settled := map[*Type]string{}
	busy := map[*Type]bool{}
	var settle func(t *Type) string
	settle = func(t *Type) string {
		if n, ok := settled[t]; ok {
			return n
		}
		if t == nil {
			return ""
		}
		if b.identity[t] != nil || busy[t] || b.hints[t] == "" && len(b.offers[t]) == 0 {
			return b.hints[t]
		}
		busy[t] = true
		defer delete(busy, t)
		var owned, all []string
		for _, o := range b.offers[t] {
			if o.parent != nil && b.owns(o.parent, t) {
				owned = append(owned, o.derive(settle(o.parent)))
			}
		}
		name := ""
		switch {
		case len(owned) > 0:
			name = slices.Min(owned)
		case len(b.lists[t]) == 1:
			if n, ok := b.lexicalName(t.Loc, false); ok {
				name = n
			}
		}
		if name == "" {
			for _, o := range b.offers[t] {
				all = append(all, o.derive(settle(o.parent)))
			}
			name = slices.Min(all)
		}
		settled[t] = name
		return name
	}
	for _, t := range b.all {
		if b.hints[t] != "" {
			settle(t)
		}
	}
	for t, n := range settled {
		if b.hints[t] != "" {
			b.hints[t] = n
		}
	}
}

// owns reports whether the schema of parent lexically holds one of the
// schemas merged into t.
func (b *builder) owns(parent, t *Type) bool {
	for _, s := range b.lists[t] {
		if s.Loc.File == parent.Loc.File && strings.HasPrefix(s.Loc.Pointer, parent.Loc.Pointer+"/") {
			return true
		}
	}
	return false
}

// suffix derives a name by appending word to the parent's.
func suffix(word string) func(string) string {
	return func(parent string) string { return parent + word }
}

// lexicalName derives a name for the schema at loc from the nearest
// enclosing point that names a type (a titled schema, a $defs entry, a
// component, a document, or a method's parameter or result) and the path
// below it, in the words the builder uses for hints (Field, Item, Value,
// Key, VariantN). literal spells an array's items as Item instead of the
// singular of the array's name and keeps a property name that repeats its
// parent's, for a name that must differ from the hint.
func (b *builder) lexicalName(loc load.Loc, literal bool) (string, bool) {
	tokens := []string{}
	if loc.Pointer != "" {
		tokens = strings.Split(loc.Pointer[1:], "/")
	}
	for i := len(tokens); i >= 0; i-- {
		anc := load.Loc{File: loc.File}
		if i > 0 {
			anc.Pointer = "/" + strings.Join(tokens[:i], "/")
		}
		name, ok := b.roots[anc]
		if !ok {
			s := b.spec.Set.SchemaAt(anc)
			if s == nil || !b.naming(s) {
				continue
			}
			name = b.typeName(&flat{identity: s}, "")
		}
		if i == len(tokens) && !literal {
			return name, true
		}
		return pathWords(name, tokens[i:], literal), true
	}
	return "", false
}

// pathWords extends name by the schema path tokens below it.
func pathWords(name string, tokens []string, literal bool) string {
	for i := 0; i < len(tokens); i++ {
		tok := strings.NewReplacer("~1", "/", "~0", "~").Replace(tokens[i])
		next := ""
		if i+1 < len(tokens) {
			next = tokens[i+1]
		}
		switch tok {
		case "properties", "$defs":
			if next != "" {
				if literal {
					name += GoName(next)
				} else {
					name = joinNoStutter(name, GoName(next))
				}
				i++
			}
		case "items":
			if literal {
				name += "Item"
			} else {
				name = singular(name)
			}
		case "additionalProperties":
			name += "Value"
		case "propertyNames":
			name += "Key"
		case "allOf":
			i++
		case "oneOf", "anyOf":
			if n, err := strconv.Atoi(next); err == nil {
				name += "Variant" + strconv.Itoa(n+1)
				i++
			}
		default:
			name += GoName(tok)
		}
	}
	return name
}
