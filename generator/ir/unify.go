package ir

import (
	"fmt"
	"sort"
	"strings"
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

// assignNames gives every named type a unique Go name. Collisions are broken
// by prefixing the defining file's name, then by direction, so names stay
// stable when unrelated schemas are added.
func (b *builder) assignNames() error {
	var named []*Type
	for _, t := range b.all {
		if b.hints[t] != "" {
			named = append(named, t)
		}
	}
	sort.SliceStable(named, func(i, j int) bool {
		if b.hints[named[i]] != b.hints[named[j]] {
			return b.hints[named[i]] < b.hints[named[j]]
		}
		return named[i].Loc.String() < named[j].Loc.String()
	})
	byName := map[string][]*Type{}
	for _, t := range named {
		byName[b.hints[t]] = append(byName[b.hints[t]], t)
	}
	taken := map[string]*Type{}
	for _, t := range named {
		name := b.hints[t]
		if len(byName[name]) > 1 {
			if id := b.identity[t]; id != nil {
				if key := defKey(id.Loc.Pointer); key != "" && GoName(key) != name {
					name = GoName(key)
				} else {
					name = joinNoStutter(GoName(fileStem(id.Loc.File)), name)
				}
			}
		}
		base := name
		for i := 2; taken[name] != nil; i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
		taken[name] = t
		t.Name = name
	}
	return nil
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
