package testshared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishedTreeKeepsSameDocumentRefs checks the published form of a
// small tree: $ids and references to other files become
// https://ucp.dev/<version>/ URLs, while same-document references ("#",
// "#/$defs/...", "#/components/...") stay as they are, as in the published
// rest.openapi.json of 2026-08-25; an OpenAPI tool that does not resolve
// external references (libopenapi with SkipExternalRefResolution) must
// still find the document's own components.
func TestPublishedTreeKeepsSameDocumentRefs(t *testing.T) {
	src := t.TempDir()
	for name, doc := range map[string]string{
		"services/common/rest.openapi.json": `{"openapi": "3.1.0", "info": {"title": "x"}, "paths": {"/a": {"post": {` +
			`"parameters": [{"$ref": "#/components/parameters/p"}], ` +
			`"requestBody": {"content": {"application/json": {"schema": {"$ref": "../../schemas/a.json#/$defs/req"}}}}}}}}`,
		"schemas/a.json": `{"$id": "https://ucp.dev/schemas/a.json", "$defs": {"node": {"items": {"$ref": "#"}}, ` +
			`"req": {"$ref": "#/$defs/node"}, "b": {"$ref": "types/b.json"}}}`,
	} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pub := PublishedTree(t, src, "2026-10-07")
	for name, want := range map[string][]string{
		"services/common/rest.openapi.json": {
			`"info": {"version": "2026-10-07", "title": "x"}`,
			`{"$ref": "#/components/parameters/p"}`,
			`{"$ref": "https://ucp.dev/2026-10-07/schemas/a.json#/$defs/req"}`,
		},
		"schemas/a.json": {
			`"$id": "https://ucp.dev/2026-10-07/schemas/a.json"`,
			`{"$ref": "#"}`,
			`{"$ref": "#/$defs/node"}`,
			`{"$ref": "https://ucp.dev/2026-10-07/schemas/types/b.json"}`,
		},
	} {
		b, err := os.ReadFile(filepath.Join(pub, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("published %s lacks %s:\n%s", name, w, b)
			}
		}
	}
}
