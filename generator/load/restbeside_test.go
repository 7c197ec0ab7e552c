package load_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator/load"
)

// TestRESTBindingOfAnotherService checks the two ways a rest.openapi.json
// beside an OpenRPC file does not stop it: a document that binds none of
// the service's methods belongs to another file of the folder and is not
// read; and for a service other than Location, a binding the loader cannot
// read is a warning naming it (which --strict refuses), not an error.
func TestRESTBindingOfAnotherService(t *testing.T) {
	const rpc = `{"openrpc":"1.3.2","info":{"title":"t","version":"2026-08-21"},"methods":[{"name":"do_thing",
		"params":[{"name":"meta","required":true,"schema":{"type":"object"}},{"name":"thing","required":true,"schema":{"$ref":"../../schemas/thing.json"}}],
		"result":{"name":"r","schema":{"type":"object"}}}]}`
	paths := func(op string) string {
		return `"paths":{"/things":{"post":{"operationId":"` + op + `","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}}}}}}`
	}
	for _, tc := range []struct {
		name, rest, warn string
	}{
		{"binds another file's methods", `{"openapi":"3.1.0","info":{"title":"r","version":"1"},` + paths("create_other") + `}`, ""},
		{"unreadable binding of a non-Location service", `{"openapi":"3.0.3","info":{"title":"r","version":"1"},` + paths("do_thing") + `}`,
			"services/x/rest.openapi.json#: REST binding not read, so no REST handler is generated for this service: services/x/rest.openapi.json#/openapi: want an OpenAPI 3.1 document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"services/x/mcp.openrpc.json":  {Data: []byte(rpc)},
				"services/x/rest.openapi.json": {Data: []byte(tc.rest)},
				"schemas/thing.json":           {Data: []byte(`{"name":"dev.example.things.thing","type":"object"}`)},
			}
			spec, err := load.OpenRPC(fsys, "services/x/mcp.openrpc.json")
			if err != nil {
				t.Fatal(err)
			}
			if spec.REST != nil {
				t.Errorf("REST binding read: %+v", spec.REST)
			}
			var got []string
			for _, w := range spec.Warnings {
				got = append(got, w.String())
			}
			all := strings.Join(got, "\n")
			if tc.warn == "" && len(got) > 0 || !strings.Contains(all, tc.warn) {
				t.Errorf("warnings %q, want %q", all, tc.warn)
			}
		})
	}
}
