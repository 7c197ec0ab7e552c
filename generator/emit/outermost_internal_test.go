package emit

import (
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator/load"
)

func TestOutermostDropsWhatAnotherSourceRequires(t *testing.T) {
	schema := func(name string) *load.Schema { return &load.Schema{Loc: load.Loc{File: name}} }
	names := func(list []*load.Schema) string {
		var out []string
		for _, s := range list {
			out = append(out, s.Loc.File)
		}
		return strings.Join(out, ",")
	}
	// outer = allOf[summary, extra]; summary = $ref base; lone stands apart.
	outer, summary, extra, base, lone := schema("outer"), schema("summary"), schema("extra"), schema("base"), schema("lone")
	outer.AllOf = []*load.Schema{summary, extra}
	summary.Ref = base
	// a and b require each other; c requires a.
	a, b, c := schema("a"), schema("b"), schema("c")
	a.AllOf = []*load.Schema{b}
	b.Ref = a
	c.AllOf = []*load.Schema{a}

	tests := []struct {
		name    string
		sources []*load.Schema
		want    string
	}{
		{"merged type: its outer schema only", []*load.Schema{outer, summary, base, extra}, "outer"},
		{"a $ref target after its referrer", []*load.Schema{summary, base}, "summary"},
		{"independent roots all stay", []*load.Schema{outer, summary, lone}, "outer,lone"},
		{"inner listed first still goes", []*load.Schema{extra, outer}, "outer"},
		{"a cycle keeps its first", []*load.Schema{a, b}, "a"},
		{"a cycle's other order", []*load.Schema{b, a}, "b"},
		{"a referrer of a cycle covers it", []*load.Schema{a, b, c}, "c"},
		{"one source", []*load.Schema{lone}, "lone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.sources)
			if got := names(outermost(tt.sources)); got != tt.want {
				t.Errorf("outermost(%s) = %s, want %s", names(in), got, tt.want)
			}
			if !slices.Equal(in, tt.sources) {
				t.Errorf("outermost changed its input")
			}
		})
	}
}
