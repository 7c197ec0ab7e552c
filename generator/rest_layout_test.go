package generator_test

import (
	"bytes"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/publishedtree"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// TestRESTFromPublishedLayout generates from the published layout alone:
// the release's own published OpenAPI document (absolute
// https://ucp.dev/2026-08-25/ $refs) over the published form of the schema
// tree. The REST handler must come out byte for byte as from the source
// layout, and so must the MCP stubs it runs.
func TestRESTFromPublishedLayout(t *testing.T) {
	const restPath = "services/common/rest.openapi.json"
	up, err := os.ReadFile(testshared.Path(t, "ucp-upstream", "2026-08-25", "published", restPath))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publishedtree.Build(schemas.FS, "2026-08-25", map[string][]byte{restPath: up})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(pub[restPath].Data, []byte(`"../`)) || !bytes.Contains(pub["schemas/common/location_search.json"].Data, []byte(`https://ucp.dev/2026-08-25/schemas/`)) {
		t.Fatal("the published tree still has relative refs")
	}
	gen := func(fsys fs.FS) map[string][]byte {
		t.Helper()
		files, err := generator.Generate(generator.Config{FS: fsys, OpenRPC: schemas.OpenRPCPath, Package: "location"})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	src, published := gen(schemas.FS), gen(pub)
	for _, name := range []string{"rest.go", "mcp.go"} {
		if src[name] == nil {
			t.Fatalf("the source layout generates no %s", name)
		}
		if !bytes.Equal(src[name], published[name]) {
			t.Errorf("%s differs between the source and the published layout", name)
		}
	}
}

// TestRESTResponseMismatch checks that a REST binding whose 200 body is not
// the tool's result is a generate-time error naming file#/pointer: the
// handler answers with the MCP result's bytes.
func TestRESTResponseMismatch(t *testing.T) {
	const restPath = "services/common/rest.openapi.json"
	data, err := fs.ReadFile(schemas.FS, restPath)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"$ref": "#/components/schemas/location_search_response"`), []byte(`"$ref": "#/components/schemas/location_lookup_response"`), 1)
	_, err = generator.Generate(generator.Config{FS: overlayFS{FS: schemas.FS, path: restPath, data: edited}, OpenRPC: schemas.OpenRPCPath, Package: "location"})
	want := restPath + "#/paths/~1locations~1search/post/responses/200/content/application~1json/schema: resolves to schemas/common/location_lookup.json#/$defs/lookup_response, but the result of OpenRPC method search_locations"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v\nwant %q", err, want)
	}
}
