package emit

import (
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

// TestArgIdents pins the Go names of tool arguments: lowerCamel forms of
// the param names, clear of Go keywords, of the names Bind and Hooks use
// themselves, and of each other.
func TestArgIdents(t *testing.T) {
	cases := []struct {
		params []string
		want   []string
	}{
		{[]string{"meta", "id", "checkout"}, []string{"meta", "id", "checkout"}},
		{[]string{"meta", "page-size", "ucp_agent"}, []string{"meta", "pageSize", "ucpAgent"}},
		{[]string{"type", "ctx", "hooks", "v", "err"}, []string{"typeArg", "ctxArg", "hooksArg", "vArg", "errArg"}},
		{[]string{"a-b", "a_b", "AB"}, []string{"aB", "aB2", "ab"}},
		{[]string{"x", "x_err", "ID"}, []string{"x", "xErrArg", "id"}},
		{[]string{"2fa", "-"}, []string{"arg2fa", "arg"}},
	}
	for _, tc := range cases {
		tool := &ir.Tool{Name: "t"}
		for _, p := range tc.params {
			tool.Params = append(tool.Params, &ir.Param{Name: p})
		}
		if got := argIdents(tool); !slices.Equal(got, tc.want) {
			t.Errorf("argIdents(%q) = %q, want %q", tc.params, got, tc.want)
		}
	}
}

// TestIsMCPService checks what makes a service one of MCP tools: every
// method takes a required meta and has a result; a service none of whose
// methods takes meta gets no tools, and one that mixes the shapes is
// refused naming the method.
func TestIsMCPService(t *testing.T) {
	result := &ir.Param{Name: "r"}
	tool := func(name string, result *ir.Param, params ...*ir.Param) *ir.Tool {
		return &ir.Tool{Name: name, Params: params, Result: result}
	}
	meta := &ir.Param{Name: "meta", Required: true}
	cases := []struct {
		name  string
		tools []*ir.Tool
		want  bool
		err   string
	}{
		{"binding shape", []*ir.Tool{tool("a", result, meta, &ir.Param{Name: "id", Required: true}), tool("b", result, meta)}, true, ""},
		{"no meta anywhere", []*ir.Tool{tool("ec.ready", nil, &ir.Param{Name: "handshake"})}, false, ""},
		{"one without meta", []*ir.Tool{tool("a", result, meta), tool("b", result, &ir.Param{Name: "id"})}, false, "methods/1 (b): has no meta param"},
		{"optional meta", []*ir.Tool{tool("a", result, &ir.Param{Name: "meta"})}, false, "methods/0 (a): param meta must be required"},
		{"no result", []*ir.Tool{tool("a", nil, meta)}, false, "methods/0 (a): an MCP tool needs a result"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := isMCPService(&ir.Model{Tools: tc.tools, Spec: &load.Spec{File: "x.json"}})
			if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("got %v, %v; want %v, error containing %q", got, err, tc.want, tc.err)
			}
		})
	}
}
