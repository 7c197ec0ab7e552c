package load_test

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/publishedtree"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

const restPath = "services/common/rest.openapi.json"

// bundled is the embedded tree as a MapFS, with restPath edited by edit.
func bundled(t *testing.T, edit func(string) string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(schemas.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(schemas.FS, p)
		if p == restPath && edit != nil {
			data = []byte(edit(string(data)))
		}
		out[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOpenAPIReadsTheBinding checks what the loader takes from our binding:
// every operation in OpenRPC method order, header parameters through their
// $refs, the bodies as the methods' schemas, and the response headers.
func TestOpenAPIReadsTheBinding(t *testing.T) {
	spec, err := load.OpenRPC(schemas.FS, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	rest := spec.REST
	if rest == nil || rest.File != restPath || len(rest.Operations) != 2 {
		t.Fatalf("REST binding = %+v", rest)
	}
	want := []struct{ id, path, body, result string }{
		{"search_locations", "/locations/search", "schemas/common/location_search.json#/$defs/search_request", "schemas/common/location_search.json#/$defs/search_response"},
		{"lookup_locations", "/locations/lookup", "schemas/common/location_lookup.json#/$defs/lookup_request", "schemas/common/location_lookup.json#/$defs/lookup_response"},
	}
	for i, w := range want {
		op := rest.Operations[i]
		if op.ID != w.id || op.Method != "POST" || op.Path != w.path || op.MediaType != "application/json" || !op.BodyRequired {
			t.Errorf("operation %d = %s %s %s %s", i, op.ID, op.Method, op.Path, op.MediaType)
		}
		if op.Body.Loc.String() != w.body {
			t.Errorf("%s body = %s, want %s", op.ID, op.Body.Loc, w.body)
		}
		headers := map[string]*load.Header{}
		for _, h := range op.Headers {
			headers[h.Name] = h
		}
		if h := headers["Request-Id"]; h == nil || !h.Required || h.Format != "uuid" || h.Ref != "#/components/parameters/request_id" {
			t.Errorf("%s Request-Id = %+v", op.ID, h)
		}
		if h := headers["UCP-Agent"]; h == nil || !h.Required || h.Ref != "#/components/parameters/ucp_agent" {
			t.Errorf("%s UCP-Agent = %+v", op.ID, h)
		}
		if h := headers["Content-Digest"]; h == nil || h.Required {
			t.Errorf("%s Content-Digest = %+v", op.ID, h)
		}
		if len(op.Responses) != 1 || op.Responses[0].Status != "200" || op.Responses[0].Body.Loc.String() != w.result {
			t.Fatalf("%s responses = %+v", op.ID, op.Responses)
		}
		var names []string
		for _, h := range op.Responses[0].Headers {
			names = append(names, h.Name+"="+h.Ref)
		}
		if got := strings.Join(names, " "); got != "Signature=#/components/headers/signature Signature-Input=#/components/headers/signature_input Content-Digest=#/components/headers/content_digest" {
			t.Errorf("%s response headers = %s", op.ID, got)
		}
	}
}

// TestOpenAPIMismatches checks that every disagreement between the two
// bindings, and every broken document, is a load error naming
// file#/pointer.
func TestOpenAPIMismatches(t *testing.T) {
	search := restPath + "#/paths/~1locations~1search/post"
	cases := []struct {
		name     string
		old, new string
		want     string
	}{
		{"unknown operationId", `"operationId": "search_locations"`, `"operationId": "find_locations"`, search + `/operationId: operationId "find_locations" names no method`},
		{"missing operationId", `"operationId": "search_locations",`, ``, search + "/operationId: missing operationId"},
		{"duplicate operationId", `"operationId": "lookup_locations"`, `"operationId": "search_locations"`, restPath + `#/paths/~1locations~1lookup/post/operationId: operationId "search_locations" is also used by ` + search},
		{"method without operation", "\"/locations/lookup\": {\n      \"post\"", "\"/locations/lookup\": {\n      \"x-post\"", restPath + `#/paths: no operation has operationId "lookup_locations"`},
		{"request body of another method", `"$ref": "#/components/schemas/location_search_request"`, `"$ref": "#/components/schemas/location_lookup_request"`, search + "/requestBody/content/application~1json/schema: resolves to schemas/common/location_lookup.json#/$defs/lookup_request, which is no parameter of OpenRPC method search_locations"},
		{"broken parameter ref", `"$ref": "#/components/parameters/authorization"`, `"$ref": "#/components/parameters/authorisation"`, search + `/parameters/0/$ref: $ref "#/components/parameters/authorisation"`},
		{"broken schema ref", `"$ref": "../../schemas/common/location_search.json#/$defs/search_request"`, `"$ref": "../../schemas/common/location_search.json#/$defs/search_requests"`, restPath + "#/components/schemas/location_search_request/$ref"},
		{"no success response", `"200": {
            "description": "Page of matching Locations"`, `"404": {
            "description": "Page of matching Locations"`, search + "/responses: no 2xx response with a body"},
		{"OpenAPI 3.0", `"openapi": "3.1.0"`, `"openapi": "3.0.3"`, restPath + "#/openapi: want an OpenAPI 3.1 document"},
		{"query parameter", `"in": "header",
        "required": false,
        "schema": {
          "type": "string"
        },
        "description": "OAuth`, `"in": "cookie",
        "required": false,
        "schema": {
          "type": "string"
        },
        "description": "OAuth`, search + `/parameters/0/in: parameter "Authorization" is in "cookie"`},
		{"two media types", `"application/json": {
              "schema": {
                "$ref": "#/components/schemas/location_search_request"`, `"text/plain": {}, "application/json": {
              "schema": {
                "$ref": "#/components/schemas/location_search_request"`, search + "/requestBody/content: content must have exactly one media type"},
		{"duplicate member", `"operationId": "search_locations",`, `"operationId": "search_locations", "operationId": "x",`, restPath + "#/paths/~1locations~1search/post/operationId: duplicate member"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := bundled(t, func(s string) string {
				if !strings.Contains(s, c.old) {
					t.Fatalf("the binding has no %q", c.old)
				}
				return strings.Replace(s, c.old, c.new, 1)
			})
			_, err := load.OpenRPC(fsys, schemas.OpenRPCPath)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

// TestOpenAPIWithoutInfo loads a binding whose document has no info
// object: its version is empty (the source layout may leave it out), and
// the operations are read as with one.
func TestOpenAPIWithoutInfo(t *testing.T) {
	fsys := bundled(t, func(s string) string {
		if !strings.Contains(s, `"info": {`) {
			t.Fatal("the binding has no info object")
		}
		return strings.Replace(s, `"info": {`, `"x-info": {`, 1)
	})
	spec, err := load.OpenRPC(fsys, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	if spec.REST == nil || spec.REST.Version != "" || len(spec.REST.Operations) != 2 {
		t.Fatalf("REST binding = %+v", spec.REST)
	}
}

// TestOpenAPIIsOptional checks that a service without an OpenAPI document
// loads with no REST binding and one notice naming the file looked for,
// which --strict does not refuse (an MCP-only Business is legitimate); an
// OpenRPC file that is not the MCP binding looks for none.
func TestOpenAPIIsOptional(t *testing.T) {
	fsys := bundled(t, nil)
	delete(fsys, restPath)
	spec, err := load.OpenRPC(fsys, schemas.OpenRPCPath)
	if err != nil || spec.REST != nil {
		t.Fatalf("REST = %v, err %v", spec.REST, err)
	}
	const want = restPath + "#: no REST binding: " + restPath + " was looked for beside " + schemas.OpenRPCPath + " and is not in the tree, so only the MCP binding is generated"
	if len(spec.Warnings) != 1 || !strings.HasPrefix(spec.Warnings[0].String(), want) || spec.Warnings[0].Kind() != "notice" {
		t.Fatalf("warnings %v, want one notice starting %q", spec.Warnings, want)
	}
	if r := load.Refused(spec.Warnings); len(r) != 0 {
		t.Errorf("--strict would refuse %v", r)
	}

	// The same service as another transport's OpenRPC file has no REST
	// binding to look for.
	const embedded = "services/common/embedded.openrpc.json"
	fsys[embedded] = fsys[schemas.OpenRPCPath]
	delete(fsys, schemas.OpenRPCPath)
	spec, err = load.OpenRPC(fsys, embedded)
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Warnings) != 0 {
		t.Errorf("%s: warnings %v, want none", embedded, spec.Warnings)
	}
}

// TestOpenAPIPublishedLayout loads the release's own published OpenAPI
// document (absolute https://ucp.dev/2026-08-25/ $refs) over the published
// form of our tree and finds the same operations and bodies as in the
// source layout.
func TestOpenAPIPublishedLayout(t *testing.T) {
	up, err := os.ReadFile(testshared.Path(t, "ucp-upstream", "2026-08-25", "published", restPath))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publishedtree.Build(schemas.FS, "2026-08-25", map[string][]byte{restPath: up})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := load.OpenRPC(pub, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	src, err := load.OpenRPC(schemas.FS, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	if spec.REST == nil || spec.REST.Version != "2026-08-25" {
		t.Fatalf("published REST = %+v", spec.REST)
	}
	for i, op := range spec.REST.Operations {
		s := src.REST.Operations[i]
		if op.ID != s.ID || op.Path != s.Path || op.Body.Loc != s.Body.Loc || op.Responses[0].Body.Loc != s.Responses[0].Body.Loc || len(op.Headers) != len(s.Headers) {
			t.Errorf("published %s %s %s differs from source %s %s %s", op.ID, op.Path, op.Body.Loc, s.ID, s.Path, s.Body.Loc)
		}
	}
}
