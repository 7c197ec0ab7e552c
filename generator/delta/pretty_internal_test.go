package delta

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestPretty(t *testing.T) {
	long := `["` + strings.Repeat("a", 40) + `","` + strings.Repeat("b", 40) + `","` + strings.Repeat("c", 40) + `"]`
	for _, tc := range []struct{ name, in, want string }{
		{"flat object on one line", `{"a":{"name":"x","required":true,"n":1.5,"z":null}}`,
			"{\n  \"a\": {\"name\": \"x\", \"required\": true, \"n\": 1.5, \"z\": null}\n}\n"},
		{"empty containers", `{"a":[],"b":{}}`, "{\"a\": [], \"b\": {}}\n"},
		{"only containers of leaves stay on one line", `{"a":[{"b":[1]}]}`, "{\n  \"a\": [\n    {\n      \"b\": [1]\n    }\n  ]\n}\n"},
		{"no HTML escaping", `{"t":"map[string]<x>&"}`, "{\"t\": \"map[string]<x>&\"}\n"},
		{"long list fills lines", `{"types":` + long + `}`,
			"{\n  \"types\": [\n    \"" + strings.Repeat("a", 40) + "\", \"" + strings.Repeat("b", 40) + "\",\n    \"" + strings.Repeat("c", 40) + "\"\n  ]\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pretty([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			var a, b any
			if err := json.Unmarshal([]byte(tc.in), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &b); err != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("the output is not the same JSON value (%v)", err)
			}
		})
	}
}
