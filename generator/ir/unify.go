package ir

import (
	"fmt"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load"
)

// unifyDirections merges the request- and response-direction builds of the
// same schema when the annotations did not make them differ, so most types
// exist once; where they differ, the request shape is renamed with an
// "Input" suffix and both remain available to emitters.
func (b *builder) unifyDirections(m *Model) error {
	pairs := map[*Type]*Type{} // request -> response
	for key, req := range b.byKey {
		if !strings.HasPrefix(key, "request|") {
			continue
		}
		if resp, ok := b.byKey["response|"+strings.TrimPrefix(key, "request|")]; ok {
			pairs[req] = resp
		}
	}
	equal := map[*Type]bool{}
	for req := range pairs {
		equal[req] = true
	}
	same := func(a, bb *Type) bool {
		if a == bb {
			return true
		}
		if a == nil || bb == nil {
			return false
		}
		if r, ok := pairs[a]; ok && r == bb {
			return equal[a]
		}
		if a.Name == "" && bb.Name == "" && b.hints[a] == "" && b.hints[bb] == "" {
			return shallowEqual(a, bb)
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for req, resp := range pairs {
			if !equal[req] {
				continue
			}
			if !localEqual(req, resp, same) {
				equal[req] = false
				changed = true
			}
		}
	}
	replace := func(t *Type) *Type {
		if r, ok := pairs[t]; ok && equal[t] {
			return r
		}
		return t
	}
	var kept []*Type
	for _, t := range b.all {
		if r, ok := pairs[t]; ok && equal[t] && r != t {
			delete(b.hints, t)
			continue
		}
		kept = append(kept, t)
	}
	b.all = kept
	seen := map[*Type]bool{}
	var walk func(t *Type)
	walk = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		for _, f := range t.Fields {
			f.Type = replace(f.Type)
			walk(f.Type)
		}
		t.Elem, t.Key, t.Extra = replace(t.Elem), replace(t.Key), replace(t.Extra)
		walk(t.Elem)
		walk(t.Key)
		walk(t.Extra)
		for _, v := range t.Variants {
			v.Type = replace(v.Type)
			walk(v.Type)
		}
	}
	for _, tool := range m.Tools {
		for _, p := range append(append([]*Param{}, tool.Params...), tool.Result) {
			if p != nil {
				p.Type = replace(p.Type)
				walk(p.Type)
			}
		}
	}
	for req, resp := range pairs {
		if !equal[req] && b.hints[req] != "" && b.hints[req] == b.hints[resp] {
			b.hints[req] += "Input"
		}
	}
	return nil
}

func shallowEqual(a, b *Type) bool {
	return a.Kind == b.Kind && len(a.Fields) == 0 && len(b.Fields) == 0 &&
		a.Elem == b.Elem && a.Key == b.Key && a.Format == b.Format
}

func localEqual(a, b *Type, same func(x, y *Type) bool) bool {
	if a.Kind != b.Kind || a.Closed != b.Closed || a.KeepUnknown != b.KeepUnknown ||
		len(a.Fields) != len(b.Fields) || len(a.Variants) != len(b.Variants) || a.Discriminator != b.Discriminator {
		return false
	}
	for i, f := range a.Fields {
		g := b.Fields[i]
		if f.JSONName != g.JSONName || f.Required != g.Required || !same(f.Type, g.Type) {
			return false
		}
	}
	for i, v := range a.Variants {
		if v.Tag != b.Variants[i].Tag || !same(v.Type, b.Variants[i].Type) {
			return false
		}
	}
	return same(a.Elem, b.Elem) && same(a.Key, b.Key) && same(a.Extra, b.Extra)
}

// assignNames gives every named type a unique Go name that depends only on
// its own schema and the names it collides with, never on the order in
// which types were built. A name proposed by several types is resolved in
// rounds: types with a naming point of their own (title, $defs key, file)
// take their $defs key, or else their file name, as the name; types
// written inline that still share a name take the literal path below their
// naming point (TotalsItem beside total.json's Total); and a name shared
// after that becomes the full location (file and pointer) of each type,
// which no two schemas share.
func (b *builder) assignNames() error {
	var named []*Type
	for _, t := range b.all {
		if b.hints[t] != "" {
			named = append(named, t)
		}
	}
	want := map[*Type]string{}
	for _, t := range named {
		want[t] = b.hints[t]
	}
	// claims are the schemas that could take each name: every type built
	// and every naming point the input holds, used or not, so that whether
	// a name is shared does not change when a method is added or removed.
	claims := map[string]map[load.Loc]bool{}
	claim := func(name string, loc load.Loc) {
		if claims[name] == nil {
			claims[name] = map[load.Loc]bool{}
		}
		claims[name][loc] = true
	}
	for _, s := range b.spec.Set.Schemas() {
		if b.naming(s) && !s.IsBool(true) && !s.IsBool(false) {
			claim(b.typeName(&flat{identity: s}, ""), s.Loc)
		}
	}
	for _, t := range named {
		claim(want[t], b.ownLoc(t))
	}
	contested := func(t *Type) bool {
		for loc := range claims[want[t]] {
			if loc != b.ownLoc(t) {
				return true
			}
		}
		return false
	}
	shared := func() map[string]int {
		count := map[string]int{}
		for _, t := range named {
			count[want[t]]++
		}
		return count
	}
	for _, t := range named {
		if id := b.identity[t]; id != nil && contested(t) {
			name := want[t]
			if key := defKey(id.Loc.Pointer); key != "" && GoName(key) != name {
				want[t] = GoName(key)
			} else {
				want[t] = joinNoStutter(GoName(fileStem(id.Loc.File)), name)
			}
		}
	}
	claims = map[string]map[load.Loc]bool{}
	for _, t := range named {
		if b.identity[t] != nil {
			claim(want[t], b.ownLoc(t))
		}
	}
	for _, s := range b.spec.Set.Schemas() {
		if b.naming(s) && !s.IsBool(true) && !s.IsBool(false) {
			claim(b.typeName(&flat{identity: s}, ""), s.Loc)
		}
	}
	for _, t := range named {
		if b.identity[t] == nil {
			claim(want[t], b.ownLoc(t))
		}
	}
	for _, t := range named {
		if b.identity[t] == nil && contested(t) {
			if q, ok := b.lexicalName(t.Loc, true); ok && q != want[t] {
				want[t] = q
			} else {
				want[t] = b.locationName(t)
			}
		}
	}
	count := shared()
	taken := map[string]*Type{}
	for _, t := range named {
		name := want[t]
		if count[name] > 1 {
			name = b.locationName(t)
		}
		if other := taken[name]; other != nil {
			return fmt.Errorf("%s: type name %s is also the name of %s; give one of them a title", t.Loc, name, other.Loc)
		}
		taken[name] = t
		t.Name = name
	}
	return nil
}

// ownLoc is the location that claims a type's name: its naming point, or
// the first schema it was built from.
func (b *builder) ownLoc(t *Type) load.Loc {
	if id := b.identity[t]; id != nil {
		return id.Loc
	}
	return t.Loc
}

// locationName is the last-resort name of a type: its file and pointer,
// and Input for the request shape of a schema whose directions differ.
func (b *builder) locationName(t *Type) string {
	name := GoName(fileStem(t.Loc.File) + " " + strings.ReplaceAll(t.Loc.Pointer, "/", " "))
	if t.Direction == Request && strings.HasSuffix(b.hints[t], "Input") {
		name += "Input"
	}
	return name
}

// defKey returns the definition name of a $defs or components pointer.
func defKey(ptr string) string {
	for _, p := range []string{"/$defs/", "/components/schemas/"} {
		if strings.HasPrefix(ptr, p) && !strings.Contains(ptr[len(p):], "/") {
			return ptr[len(p):]
		}
	}
	return ""
}
