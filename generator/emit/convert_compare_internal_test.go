package emit

import (
	"testing"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

// TestMemberDiff checks the comparison that decides which members the
// Business converts: same name and shape is carried, anything else is named
// with the way it changed, and requiredness counts only where the target
// could miss a value.
func TestMemberDiff(t *testing.T) {
	str := &ir.Type{Kind: ir.String}
	named := &ir.Type{Name: "Kind", Kind: ir.String}
	list := func(e *ir.Type) *ir.Type { return &ir.Type{Kind: ir.Array, Elem: e} }
	mapOf := func(e *ir.Type) *ir.Type { return &ir.Type{Kind: ir.Map, Elem: e} }
	obj := func(name string) *ir.Type { return &ir.Type{Name: name, Kind: ir.Struct} }
	union := func(name string, vs ...string) *ir.Type {
		u := &ir.Type{Name: name, Kind: ir.Union}
		for _, v := range vs {
			u.Variants = append(u.Variants, &ir.Variant{GoName: v, Type: obj(v)})
		}
		return u
	}
	// anyObject is an object of any members with the schema s.
	anyObject := func(s *load.Schema) *ir.Type {
		return &ir.Type{Kind: ir.Map, Elem: &ir.Type{Kind: ir.Any}, Sources: []*load.Schema{s}}
	}
	one, yes := 1, true
	open := anyObject(&load.Schema{Types: []string{"object"}, AdditionalProperties: &load.Schema{Bool: &yes}, MinProperties: &one})
	keyed := anyObject(&load.Schema{Types: []string{"object"}, PropertyNames: &load.Schema{Pattern: "^x-"}})
	vendor := anyObject(&load.Schema{Types: []string{"object"}, Extra: []load.Member{{Key: "x-shape", Value: &load.Node{}}}})
	field := func(t *ir.Type, required bool) *ir.Field {
		return &ir.Field{JSONName: "m", GoName: "M", Type: t, Required: required}
	}
	tests := []struct {
		name         string
		dir          ir.Direction
		older, newer *ir.Field
		want         string
	}{
		{"same scalar, required to optional in a request", ir.Request, field(str, true), field(str, false), ""},
		{"named and plain string", ir.Response, field(named, true), field(str, true), ""},
		{"list of named strings", ir.Request, field(list(named), false), field(list(str), false), ""},
		{"absent in newer", ir.Request, field(str, false), nil, "which the newer version does not have"},
		{"optional to required in a request", ir.Request, field(str, false), field(str, true), "optional here, required in the newer version"},
		{"required to optional in an answer", ir.Response, field(str, true), field(str, false), "required here, optional in the newer version"},
		{"list to map", ir.Response, field(list(named), false), field(mapOf(obj("Amenity")), false), "an array here, a map in the newer version"},
		{"list elements of another kind", ir.Request, field(list(str), false), field(list(obj("Item")), false), "of another shape in the newer version"},
		{"objects of any members", ir.Request, field(obj("A"), false), field(obj("A"), false), ""},
		{"union with the same variants", ir.Response, field(union("U", "X", "Y"), true), field(union("U", "X", "Y"), true), ""},
		{"typed object into any object in an answer", ir.Response, field(open, false), field(obj("Expr"), false), ""},
		{"list of typed objects into a list of any objects", ir.Response, field(list(open), false), field(list(obj("Expr")), false), ""},
		{"map of typed objects into any object in an answer", ir.Response, field(open, true), field(mapOf(obj("Label")), true), ""},
		{"any object into a typed object in a request", ir.Request, field(open, false), field(obj("Expr"), false), "a map here, an object in the newer version"},
		{"object whose member names are constrained", ir.Response, field(keyed, false), field(obj("Expr"), false), "a map here, an object in the newer version"},
		{"object with a keyword nobody reads", ir.Response, field(vendor, false), field(obj("Expr"), false), "a map here, an object in the newer version"},
		{"union with another variant", ir.Response, field(union("U", "X", "Y"), true), field(union("U", "X", "Z"), true), "of another shape in the newer version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newComparer().memberDiff(tc.dir, tc.older, tc.newer); got != tc.want {
				t.Errorf("memberDiff = %q, want %q", got, tc.want)
			}
		})
	}
}
