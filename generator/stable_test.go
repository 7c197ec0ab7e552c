package generator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// stableCase is a service whose type names must survive a method being
// added (extra, placed first so its types are built before all others) or
// any one method being removed.
type stableCase struct {
	name    string
	fsys    func(t *testing.T) fs.FS
	openrpc string
	extra   string
}

var stableCases = []stableCase{
	{
		name:    "golden stable_names",
		fsys:    func(*testing.T) fs.FS { return os.DirFS(filepath.Join("testdata", "golden", "stable_names")) },
		openrpc: "openrpc.json",
		// An inline header, a second use of the shared status from a type
		// that does not hold it, and a direct use of line.json.
		extra: `{"name": "audit_receipt", "params": [{"name": "header", "required": true, "schema": {"allOf": [{"$ref": "#/components/schemas/header"}, {"required": ["key"]}]}}],
			"result": {"name": "audit", "schema": {"type": "object", "properties": {"status": {"$ref": "#/components/schemas/base/properties/status"}, "line": {"$ref": "schemas/line.json"}, "receipt": {"$ref": "#/components/schemas/receipt"}}}}}`,
	},
	{
		name:    "draft shopping/mcp",
		fsys:    draftTree,
		openrpc: "services/shopping/mcp.openrpc.json",
		// A tool like complete_checkout with its own inline meta and an
		// inline result holding totals and an order.
		extra: `{"name": "preview_checkout", "params": [{"name": "meta", "required": true, "schema": {"allOf": [{"$ref": "#/components/schemas/meta"}, {"required": ["idempotency-key"]}]}}, {"name": "id", "required": true, "schema": {"type": "string"}}],
			"result": {"name": "preview", "schema": {"type": "object", "properties": {"totals": {"$ref": "../../schemas/common/types/totals.json"}, "order": {"$ref": "../../schemas/shopping/order.json"}, "status": {"$ref": "../../schemas/ucp.json#/$defs/base/properties/status"}}}}}`,
	},
	{
		name:    "draft shopping/embedded",
		fsys:    draftTree,
		openrpc: "services/shopping/embedded.openrpc.json",
		extra: `{"name": "ec.preview", "params": [{"name": "checkout", "required": true, "schema": {"$ref": "../../schemas/shopping/checkout.json"}}],
			"result": {"name": "previewResult", "schema": {"type": "object", "properties": {"ucp": {"$ref": "#/components/schemas/ucp_success"}, "upgrade": {"type": "object"}}}}}`,
	},
}

func draftTree(t *testing.T) fs.FS {
	return os.DirFS(testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source"))
}

// TestStableNames proves that a type's name comes from its own schema and
// the method that uses it, never from the order of generation: adding a
// method, or removing any one, renames no type that exists both before and
// after. A type is identified by its direction and the schemas it merges.
func TestStableNames(t *testing.T) {
	for _, c := range stableCases {
		t.Run(c.name, func(t *testing.T) {
			fsys := c.fsys(t)
			data, err := fs.ReadFile(fsys, c.openrpc)
			if err != nil {
				t.Fatal(err)
			}
			root, err := load.Parse(c.openrpc, data)
			if err != nil {
				t.Fatal(err)
			}
			methods := root.Get("methods").Items
			base := typeNames(t, fsys, c.openrpc, data)
			variants := map[string][]byte{"with " + c.extra[:strings.Index(c.extra, ",")]: withMethods(root, append([]json.RawMessage{json.RawMessage(c.extra)}, raws(methods)...))}
			for i := range methods {
				keep := slices.Delete(raws(methods), i, i+1)
				variants[fmt.Sprintf("without method %d", i)] = withMethods(root, keep)
			}
			for name, doc := range variants {
				got := typeNames(t, fsys, c.openrpc, doc)
				common := 0
				for id, n := range got {
					if was, ok := base[id]; ok {
						common++
						if was != n {
							t.Errorf("%s: %s renamed from %s to %s", name, id, was, n)
						}
					}
				}
				if common == 0 {
					t.Errorf("%s: no type in common with the full service", name)
				}
			}
			for _, n := range base {
				if strings.HasSuffix(n, "2") || strings.HasSuffix(n, "3") {
					t.Errorf("type %s carries a number; names must not count", n)
				}
			}
		})
	}
}

func raws(items []*load.Node) []json.RawMessage {
	var out []json.RawMessage
	for _, it := range items {
		out = append(out, it.JSON())
	}
	return out
}

// withMethods is the OpenRPC document root with its methods replaced.
func withMethods(root *load.Node, methods []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range root.Members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		if m.Key == "methods" {
			list, _ := json.Marshal(methods)
			b.Write(list)
		} else {
			b.Write(m.Value.JSON())
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// typeNames builds the model of the document and maps each named type's
// identity to its name.
func typeNames(t *testing.T, fsys fs.FS, file string, doc []byte) map[string]string {
	t.Helper()
	// Without the REST binding beside it, which names the methods removed
	// here and would refuse the edit; names come from the OpenRPC side.
	noREST := hiddenFS{FS: overlayFS{FS: fsys, path: file, data: doc}, path: path.Join(path.Dir(file), load.RESTFile)}
	m, _, err := generator.Model(generator.Config{FS: noREST, OpenRPC: file, Package: "x"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, ty := range m.Types {
		out[typeIdentity(m, file, ty)] = ty.Name
	}
	return out
}

// typeIdentity names a type by its direction and the locations of its
// schemas, with a method's index replaced by its name, since removing a
// method moves the ones after it.
func typeIdentity(m *ir.Model, file string, t *ir.Type) string {
	var locs []string
	for _, s := range t.Sources {
		loc := s.Loc.String()
		for i := len(m.Tools) - 1; i >= 0; i-- {
			loc = strings.Replace(loc, fmt.Sprintf("%s#/methods/%d/", file, i), file+"#/methods/"+m.Tools[i].Name+"/", 1)
			if strings.HasSuffix(loc, fmt.Sprintf("%s#/methods/%d", file, i)) {
				loc = file + "#/methods/" + m.Tools[i].Name
			}
		}
		locs = append(locs, loc)
	}
	return t.Direction.String() + " " + strings.Join(locs, ",")
}

// hiddenFS is fsys without the file at path.
type hiddenFS struct {
	fs.FS
	path string
}

func (h hiddenFS) Open(name string) (fs.File, error) {
	if name == h.path {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.FS.Open(name)
}

// ReadDir lists a directory without the hidden file.
func (h hiddenFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(h.FS, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return path.Join(name, e.Name()) == h.path }), err
}
