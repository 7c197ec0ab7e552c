package emit

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file decides which members of an answer's ucp member the converter
// leaves to the runtime: every answer is encoded with the negotiated ucp
// object merged into the one the hook set (ucpcore's encodeResponse), and
// the negotiated members win, so whatever a hook or a conversion writes
// there never reaches the Platform.

// negotiatedMembers are the members of a tool result's ucp member that the
// runtime writes from the negotiated outcome over the hook's, in every
// answer a hook gives: envelope.Outcome.AppendUCP of a compatible outcome,
// which a test holds this list to. (status is negotiated only when the
// hook is not called; otherwise it is the hook's.)
var negotiatedMembers = []string{"version", "capabilities"}

// envelopeTypes are the older model's types that only ever hold a tool
// result's required ucp member: no param, no other member and no type
// below them refers to them, so their negotiated members never reach an
// answer from the hook.
func envelopeTypes(m *ir.Model) map[*ir.Type]bool {
	seen := map[*ir.Type]bool{}
	var walk func(t *ir.Type)
	children := func(t *ir.Type, skip *ir.Field) {
		for _, f := range t.Fields {
			if f != skip {
				walk(f.Type)
			}
		}
		for _, v := range t.Variants {
			walk(v.Type)
		}
		walk(t.Extra)
		walk(t.Key)
		walk(t.Elem)
	}
	walk = func(t *ir.Type) {
		if t == nil || seen[t] {
			return
		}
		if t.IsNamed() {
			seen[t] = true
		}
		children(t, nil)
	}
	candidates := map[*ir.Type]bool{}
	for _, tool := range m.Tools {
		for _, p := range tool.Params {
			walk(p.Type)
		}
		if tool.Result == nil {
			continue
		}
		r := tool.Result.Type
		u := ucpField(r)
		if r.Kind != ir.Struct || u == nil || u.Type.Kind != ir.Struct || !u.Type.IsNamed() {
			walk(r)
			continue
		}
		candidates[u.Type] = true
		// The result itself is not marked: reached from anywhere else, its
		// ucp member is an ordinary one.
		children(r, u)
		children(u.Type, nil)
	}
	for t := range candidates {
		if seen[t] {
			delete(candidates, t)
		}
	}
	return candidates
}

// runtimeWrites reports whether the runtime writes the older member f of
// the pair k over whatever the conversion sets, in every answer.
func (c *converter) runtimeWrites(k pairKey, f *ir.Field) bool {
	return k.dir == ir.Response && c.envelope[k.older] && slices.Contains(negotiatedMembers, f.JSONName)
}

// runtimeWrittenNote says in the generated converter why a member the hook
// may set asks nothing of the Business: why is how it differs between the
// versions ("" when it is converted all the same, so that ServeFrom's
// answer is complete on its own).
func runtimeWrittenNote(f *ir.Field, why string) jen.Code {
	if why == "" {
		return jen.Comment(fmt.Sprintf("A hook may set %s, but the runtime writes the negotiated value over it in every answer.", f.JSONName))
	}
	return jen.Comment(fmt.Sprintf("%s, %s, is not converted: a hook may set it, but the runtime writes the negotiated value over it in every answer.", f.JSONName, why))
}
