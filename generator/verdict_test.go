package generator_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// exampleSchema maps an example annotation to a schema location in a tree
// and to the part of the payload that schema describes.
func exampleSchema(schema, direction, def string) (file, pointer string, ok bool) {
	switch schema {
	case "common/location_search", "common/location_lookup":
		op := strings.TrimPrefix(schema, "common/location_")
		kind := "request"
		if direction == "response" {
			kind = "response"
		}
		return "schemas/" + schema + ".json", "/$defs/" + op + "_" + kind, true
	case "common/types/location":
		return "schemas/common/types/location.json", "", true
	case "profile":
		return "schemas/ucp.json", "/$defs/" + def, true
	}
	return "", "", false
}

func compilerFor(t *testing.T, fsys fs.FS) *jsonschema.Compiler {
	t.Helper()
	spec, err := load.OpenRPC(fsys, schemas.OpenRPCPath)
	if err != nil {
		t.Fatal(err)
	}
	// Load every schema file so $id lookups cover the whole tree.
	fs.WalkDir(fsys, "schemas", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			spec.Set.Doc(p)
		}
		return nil
	})
	c := spec.Set.Compiler()
	c.AssertFormat()
	return c
}

// TestSameVerdictOnReleaseExamples validates every release example against
// schemas/ and against the release tree with santhosh-tekuri and requires the
// same verdict (and, for these documented examples, acceptance).
func TestSameVerdictOnReleaseExamples(t *testing.T) {
	up := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	exdir := testshared.Path(t, "ucp-upstream", "2026-08-25", "examples")
	trees := map[string]*jsonschema.Compiler{"ours": compilerFor(t, schemas.FS), "release": compilerFor(t, os.DirFS(up))}
	files, _ := filepath.Glob(filepath.Join(exdir, "*.json"))
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Annotation struct{ Schema, Direction, Extract, Def string }
			Payload    json.RawMessage
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		file, ptr, ok := exampleSchema(ex.Annotation.Schema, ex.Annotation.Direction, ex.Annotation.Def)
		if !ok {
			t.Fatalf("%s: unmapped annotation %+v", f, ex.Annotation)
		}
		payload := testshared.Extract(t, ex.Payload, ex.Annotation.Extract)
		if ex.Annotation.Schema == "profile" {
			payload = testshared.Extract(t, payload, "$.ucp")
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(payload))
		if err != nil {
			t.Fatal(err)
		}
		verdicts := map[string]error{}
		for name, c := range trees {
			sch, err := c.Compile("file:///" + file + "#" + ptr)
			if err != nil {
				t.Fatalf("%s tree: compile %s#%s: %v", name, file, ptr, err)
			}
			verdicts[name] = sch.Validate(inst)
		}
		if (verdicts["ours"] == nil) != (verdicts["release"] == nil) {
			t.Errorf("%s: verdicts differ: ours=%v release=%v", filepath.Base(f), verdicts["ours"], verdicts["release"])
		}
		if verdicts["release"] != nil {
			t.Errorf("%s: release tree rejects its own example: %v", filepath.Base(f), verdicts["release"])
		}
		checked++
	}
	if checked != len(files) || checked < 18 {
		t.Fatalf("checked %d of %d examples", checked, len(files))
	}
	t.Logf("%d examples, same verdict from both trees", checked)
}
