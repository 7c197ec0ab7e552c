package mcpserver

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestEachMember pins the one object walker splitArguments, directParams
// and SetMember share: members in order with repeats, f's error passed
// through, and each kind of malformed input told apart.
func TestEachMember(t *testing.T) {
	stop := errors.New("stop")
	cases := []struct {
		in      string
		want    string
		err     error
		inValue string
	}{
		{in: `{}`, want: ``},
		{in: ` {"a":1,"b":{"c":[2]},"a":"x"} `, want: `a=1;b={"c":[2]};a="x";`},
		{in: `{"a":1,"stop":2,"b":3}`, want: `a=1;`, err: stop},
		{in: `[1]`, err: errNotObject},
		{in: `"s"`, err: errNotObject},
		{in: `{"a":1,"b":tru}`, want: `a=1;`, inValue: "b"},
		{in: `{"a":1`, want: `a=1;`, err: &memberSyntaxError{}},
		{in: `{"a" 1}`, inValue: "a"},
		{in: `{1:2}`, err: &memberSyntaxError{}},
	}
	for _, c := range cases {
		var got strings.Builder
		err := eachMember([]byte(c.in), func(k string, v json.RawMessage) error {
			if k == "stop" {
				return stop
			}
			got.WriteString(k + "=" + string(v) + ";")
			return nil
		})
		if got.String() != c.want {
			t.Errorf("%s: members %q, want %q", c.in, got.String(), c.want)
		}
		var se *memberSyntaxError
		switch {
		case c.inValue != "":
			if !errors.As(err, &se) || !se.inValue || se.key != c.inValue {
				t.Errorf("%s: err %#v, want a syntax error in the value of %q", c.in, err, c.inValue)
			}
		case c.err == nil:
			if err != nil {
				t.Errorf("%s: err %v", c.in, err)
			}
		case errors.As(c.err, &se):
			if !errors.As(err, &se) || se.inValue {
				t.Errorf("%s: err %#v, want a syntax error outside any value", c.in, err)
			}
		case !errors.Is(err, c.err):
			t.Errorf("%s: err %v, want %v", c.in, err, c.err)
		}
	}
}
