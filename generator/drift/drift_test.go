package drift

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
	"github.com/ucpgen/ucpgen/schemas/previous"
)

// TestDeclarationsMatchTheTrees proves every declaration finds its
// enumeration, and finds exactly the runtime's values, in the bundled tree
// and in both upstream trees: a pointer gone stale would otherwise find
// nothing and stay quiet forever.
func TestDeclarationsMatchTheTrees(t *testing.T) {
	trees := map[string]struct {
		fsys fs.FS
		flag string
	}{"bundled": {schemas.FS, ""}, "previous": {previous.FS, ""}}
	if root, ok := testshared.Optional(t, "ucp-upstream"); ok {
		trees["2026-08-25 source"] = struct {
			fsys fs.FS
			flag string
		}{os.DirFS(filepath.Join(root, "2026-08-25", "source")), "2026-08-25"}
		trees["draft source"] = struct {
			fsys fs.FS
			flag string
		}{os.DirFS(filepath.Join(root, "draft-2026-08-21", "source")), "2026-08-21"}
	}
	for name, tree := range trees {
		spec, err := load.OpenRPCWith(tree.fsys, schemas.OpenRPCPath, load.Options{UCPVersion: tree.flag})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range Declarations() {
			if !spec.Set.Loaded(d.File) {
				t.Errorf("%s: %s is not loaded, so %s is never checked", name, d.File, d.Name)
				continue
			}
			root := spec.Set.SchemaAt(load.Loc{File: d.File, Pointer: d.Pointer})
			if root == nil {
				t.Errorf("%s: %s#%s was never parsed, so %s is never checked", name, d.File, d.Pointer, d.Name)
				continue
			}
			var got []string
			for _, v := range enumerated(root, d) {
				got = append(got, v.value)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(d.Values))
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s enumerates %q at %s#%s, the runtime interprets %q", name, d.Name, got, d.File, d.Pointer, want)
			}
		}
		if w := Check(spec, Declarations()); len(w) != 0 {
			t.Errorf("%s: drift %v", name, w)
		}
	}
}

// TestCheckNamesEachDrift adds one value the runtime does not interpret at
// each declared location and expects exactly one warning naming the value,
// its schema location and the runtime package.
func TestCheckNamesEachDrift(t *testing.T) {
	for _, tc := range []struct {
		file, old, new string
		loc, value     string
		pkg            string
	}{
		{"schemas/common/types/daily_hour.json", `"sunday"`, `"sunday", "public_holidays"`,
			"schemas/common/types/daily_hour.json#/allOf/1/properties/day/enum/7", "public_holidays", "runtime/domain/hours"},
		{"schemas/common/types/location_serves.json", `"const": "address"`, `"const": "address"}, {"const": "region"`,
			"schemas/common/types/location_serves.json#/propertyNames/anyOf/2/const", "region", "runtime/domain/predicate"},
		{"schemas/ucp.json", `"enum": ["success", "error"]`, `"enum": ["success", "error", "partial"]`,
			"schemas/ucp.json#/$defs/base/properties/status/enum/2", "partial", "runtime/envelope"},
		{"schemas/common/types/message_info.json", `"const": "info"`, `"const": "notice"`,
			"schemas/common/types/message_info.json#/properties/type/const", "notice", "runtime/envelope"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, schemas.FS); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(b), tc.old, tc.new, 1)
			if edited == string(b) {
				t.Fatalf("%s has no %s to edit", tc.file, tc.old)
			}
			if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			spec, err := load.OpenRPC(os.DirFS(dir), schemas.OpenRPCPath)
			if err != nil {
				t.Fatal(err)
			}
			w := Check(spec, Declarations())
			if len(w) != 1 {
				t.Fatalf("warnings %v; want one", w)
			}
			s := w[0].String()
			for _, want := range []string{tc.loc + ": ", `"` + tc.value + `"`, "github.com/ucpgen/ucpgen/" + tc.pkg + " "} {
				if !strings.Contains(s, want) {
					t.Errorf("warning %q does not contain %q", s, want)
				}
			}
		})
	}
}
