package schemacheck_test

import (
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

// TestParams checks that by-name params split into each param's source
// text, and that every unknown member and missing required param is named.
func TestParams(t *testing.T) {
	names, required := []string{"id", "error"}, []bool{true, false}
	for _, tc := range []struct {
		name, data string
		want       []string // raw text per param, "-" for absent
		errs       []string // pointer: message fragment
	}{
		{"both", `{"error":{"code":"x"},"id":"a1"}`, []string{`"a1"`, `{"code":"x"}`}, nil},
		{"optional absent", `{"id":"a1"}`, []string{`"a1"`, "-"}, nil},
		{"required absent", `{"error":1}`, nil, []string{`: missing required param "id"`}},
		{"no params at all", ``, nil, []string{`: missing required param "id"`}},
		{"null params", `null`, nil, []string{`: missing required param "id"`}},
		{"unknown and missing", `{"idd":"a1","x/y":2}`, nil, []string{"/idd: is not a param", "/x~1y: is not a param", `: missing required param "id"`}},
		{"by position", `["a1"]`, nil, []string{": params must be an object of named params (id, error), got array"}},
		{"bad JSON", `{"id":`, nil, []string{"invalid JSON"}},
		{"duplicate member", `{"id":"a","id":"b"}`, nil, []string{"duplicate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sc.Params([]byte(tc.data), names, required)
			if tc.errs != nil {
				e, ok := rpcerr.AsInvalidParams(err)
				if !ok {
					t.Fatalf("error %v is not *rpcerr.InvalidParams", err)
				}
				var lines []string
				for _, v := range e.Violations {
					lines = append(lines, v.Pointer+": "+v.Message)
				}
				all := strings.Join(lines, "\n")
				for _, w := range tc.errs {
					if !strings.Contains(all, w) {
						t.Errorf("violations %q lack %q", all, w)
					}
				}
				if len(tc.errs) > 1 && len(e.Violations) != len(tc.errs) {
					t.Errorf("%d violations, want %d: %q", len(e.Violations), len(tc.errs), all)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				if w == "-" && got[i] != nil || w != "-" && string(got[i]) != w {
					t.Errorf("param %s = %q, want %s", names[i], got[i], w)
				}
			}
		})
	}
}

// TestParamErrors checks that each param's violations move under its name.
func TestParamErrors(t *testing.T) {
	err := sc.ParamErrors([]string{"checkout", "id"}, rpcerr.Invalid("/totals", "contains", "bad"), nil)
	e, ok := rpcerr.AsInvalidParams(err)
	if !ok || len(e.Violations) != 1 || e.Violations[0].Pointer != "/checkout/totals" {
		t.Fatalf("got %v, want one violation at /checkout/totals", err)
	}
	if sc.ParamErrors([]string{"a"}, nil) != nil {
		t.Error("no errors joined into an error")
	}
}
