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
)

// TestDeclarationsMatchTheTrees proves every declaration finds its
// enumeration or members, and finds exactly the runtime's, in the bundled
// tree and in the upstream trees: a pointer gone stale would otherwise find
// nothing and stay quiet forever. The 2026-08-21 trees filter by inventory,
// which the runtime reads only through a served-from package's Conversion:
// it is their one drift, and ServedFrom drops it.
func TestDeclarationsMatchTheTrees(t *testing.T) {
	type tree struct {
		fsys fs.FS
		flag string
		// filters are the filter members when they differ from the
		// runtime's; drift is then the warning location expected.
		filters []string
		drift   string
	}
	const inventory = "schemas/common/types/location_filter.json#/properties/inventory"
	older := []string{"amenities", "hours", "inventory"}
	trees := map[string]tree{"bundled": {fsys: schemas.FS}, "previous": {fsys: schemas.Previous, filters: older, drift: inventory}}
	if root, ok := testshared.Optional(t, "ucp-upstream"); ok {
		trees["2026-08-25 source"] = tree{fsys: os.DirFS(filepath.Join(root, "2026-08-25", "source")), flag: "2026-08-25"}
		trees["draft source"] = tree{fsys: os.DirFS(filepath.Join(root, "draft-2026-08-21", "source")), flag: "2026-08-21", filters: older, drift: inventory}
		trees["main source"] = tree{fsys: os.DirFS(filepath.Join(root, "main-2026-10-07", "source")), flag: "2026-10-07"}
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
			want := append(slices.Clone(d.Values), d.Inert...)
			if d.Members {
				for _, m := range members(root) {
					got = append(got, m.value)
				}
				if d.Name == "predicate.Filters" && tree.filters != nil {
					want = tree.filters
				}
			} else {
				for _, v := range enumerated(root, d) {
					got = append(got, v.value)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s finds %q at %s#%s, want %q", name, d.Name, got, d.File, d.Pointer, want)
			}
		}
		w := Check(spec, Declarations())
		switch {
		case tree.drift == "" && len(w) != 0:
			t.Errorf("%s: drift %v", name, w)
		case tree.drift != "" && (len(w) != 1 || w[0].Loc.String() != tree.drift):
			t.Errorf("%s: drift %v, want one at %s", name, w, tree.drift)
		}
		if w := Check(spec, ServedFrom(Declarations())); len(w) != 0 {
			t.Errorf("%s: drift for a served-from package %v", name, w)
		}
	}
}

// TestCheckNamesEachDrift adds one value or member the runtime does not
// interpret at each declared location and expects exactly one warning (one
// per runtime type reading a shared schema) naming the value or member,
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
		{"schemas/common/types/location_filter.json", `"amenities": {`, `"accessible": {"type": "boolean"}, "amenities": {`,
			"schemas/common/types/location_filter.json#/properties/accessible", "accessible", "runtime/domain/predicate"},
		{"schemas/common/types/location_filter.json", `"open_at": {`, `"open_for": {"type": "string"}, "open_at": {`,
			"schemas/common/types/location_filter.json#/properties/hours/properties/open_for", "open_for", "runtime/domain/predicate"},
		{"schemas/common/types/location_serves.json", `"point": {`, `"region": {"type": "string"}, "point": {`,
			"schemas/common/types/location_serves.json#/properties/region", "region", "runtime/domain/predicate"},
		{"schemas/common/types/locality.json", `"postal_code": {`, `"address_locality": {"type": "string"}, "postal_code": {`,
			"schemas/common/types/locality.json#/properties/address_locality", "address_locality", "runtime/domain/predicate"},
		{"schemas/common/types/location_distance.json", `"max": {`, `"unit": {"type": "string"}, "max": {`,
			"schemas/common/types/location_distance.json#/properties/unit", "unit", "runtime/domain/predicate"},
		{"schemas/common/types/geo.json", `"longitude": {`, `"altitude": {"type": "number"}, "longitude": {`,
			"schemas/common/types/geo.json#/properties/altitude", "altitude", "runtime/domain/predicate"},
		{"schemas/common/types/daily_hour.json", `"day": {`, `"season": {"type": "string"}, "day": {`,
			"schemas/common/types/daily_hour.json#/allOf/1/properties/season", "season", "runtime/domain/hours"},
		{"schemas/common/types/time_interval.json", `"closes": {`, `"closes_late": {"type": "boolean"}, "closes": {`,
			"schemas/common/types/time_interval.json#/properties/closes_late", "closes_late", "runtime/domain/hours"},
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
			// time_interval.json is read by both schedule entry types.
			n := map[string]int{"closes_late": 2}[tc.value]
			if n = max(n, 1); len(w) != n {
				t.Fatalf("warnings %v; want %d", w, n)
			}
			for _, w := range w {
				s := w.String()
				for _, want := range []string{tc.loc + ": ", `"` + tc.value + `"`, "github.com/ucpgen/ucpgen/" + tc.pkg + " "} {
					if !strings.Contains(s, want) {
						t.Errorf("warning %q does not contain %q", s, want)
					}
				}
			}
		})
	}
}
