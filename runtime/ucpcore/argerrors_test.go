package ucpcore_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestArgumentErrors: each parameter's violations come back under its own
// pointer, in parameter order; an error that is not a rejection is kept as
// a message under the parameter; and a call without errors is nil and
// costs no allocation, since every valid call goes through it.
func TestArgumentErrors(t *testing.T) {
	names := []string{"meta", "location", "a/b"}
	cases := []struct {
		name string
		errs []error
		want []rpcerr.Violation
	}{
		{name: "none", errs: []error{nil, nil, nil}},
		{
			name: "one",
			errs: []error{nil, rpcerr.Invalid("/distance/max", "minimum", "must be >= 0"), nil},
			want: []rpcerr.Violation{{Pointer: "/location/distance/max", Keyword: "minimum", Message: "must be >= 0"}},
		},
		{
			name: "in parameter order, name escaped",
			errs: []error{
				rpcerr.Invalid("", "required", "is required"),
				nil,
				errors.New("not a rejection"),
			},
			want: []rpcerr.Violation{
				{Pointer: "/meta", Keyword: "required", Message: "is required"},
				{Pointer: "/a~1b", Message: "not a rejection"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ucpcore.ArgumentErrors(names, tc.errs...)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			ip, ok := rpcerr.AsInvalidParams(err)
			if !ok {
				t.Fatalf("got %T %v, want *rpcerr.InvalidParams", err, err)
			}
			if !reflect.DeepEqual(ip.Violations, tc.want) {
				t.Errorf("violations\n got %+v\nwant %+v", ip.Violations, tc.want)
			}
		})
	}
	errs := []error{nil, nil, nil}
	if n := testing.AllocsPerRun(100, func() {
		if ucpcore.ArgumentErrors(names, errs...) != nil {
			t.Fatal("no errors gave an error")
		}
	}); n != 0 {
		t.Errorf("a call without errors allocates %v times", n)
	}
}
