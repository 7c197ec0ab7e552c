package main

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/internal/unidiff"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// compareGolden compares got with testdata/<name>, rewriting the file under
// -update, and shows a unified diff when they differ.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run `go test ./cmd/ucpgen -run %s -update` to create it): %v", t.Name(), err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run `go test ./cmd/ucpgen -run %s -update` to accept):\n%s",
			path, t.Name(), unidiff.Diff(path, "got", want, []byte(got)))
	}
}

// TestDiffReleaseToMain compares the 2026-08-25 release with UCP's newer
// main tree, both in the source layout. The report must list exactly what
// that tree's SOURCES.txt states it adds: the ask_business method in the
// new dev.ucp.common.ask capability with its types, the POST /ask operation
// with its Idempotency-Key header, and meta's optional idempotency-key;
// the Location methods and types are unchanged. The release tree has no
// REST binding, so the report says so once instead of listing the Location
// operations as new.
func TestDiffReleaseToMain(t *testing.T) {
	from := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	to := testshared.Path(t, "ucp-upstream", "main-2026-10-07", "source")
	args := []string{"diff", "--from", from, "--from-ucp-version", "2026-08-25", "--to", to, "--to-ucp-version", "2026-10-07"}
	code, stdout, errs := ucpgen(t, args...)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, want %d (no breaking change); stderr:\n%s", code, exitOK, errs)
	}
	compareGolden(t, "diff-2026-08-25-main-2026-10-07.golden", stdout)
	for _, notWant := range []string{"Location", "search_locations", "lookup_locations", "[breaking]"} {
		if strings.Contains(stdout, notWant) {
			t.Errorf("the report mentions %q, which the bump does not change:\n%s", notWant, stdout)
		}
	}

	code, stdout, _ = ucpgen(t, append(args, "--json")...)
	var report struct {
		From, To string
		Breaking bool
		Changes  []struct{ Change, Kind, Subject string }
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil || code != exitOK {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, stdout)
	}
	var got []string
	for _, c := range report.Changes {
		got = append(got, c.Change+" "+c.Kind+" "+c.Subject)
	}
	want := "added capability dev.ucp.common.ask|added method ask_business|added REST binding |added REST operation POST /ask|added member Meta.idempotency-key"
	if strings.Join(got, "|") != want || report.Breaking || report.From != "2026-08-25" || report.To != "2026-10-07" {
		t.Errorf("--json report %+v\nwant changes %s", report, want)
	}
}

// copyTree copies a schema tree into a new temporary folder, applying edit
// to the files it names (slash paths); naming a file the tree lacks fails.
func copyTree(t *testing.T, src string, edit map[string]func([]byte) []byte) string {
	t.Helper()
	left := maps.Clone(edit)
	dst := testshared.CopyTree(t, src, func(rel string, data []byte) []byte {
		if fn := edit[rel]; fn != nil {
			delete(left, rel)
			return fn(data)
		}
		return data
	})
	for rel := range left {
		t.Fatalf("%s: no such file to edit", rel)
	}
	return dst
}

// withoutTimezone removes the timezone member from location.json, and the
// condition that requires it, as a release dropping the member would.
func withoutTimezone(t *testing.T) func([]byte) []byte {
	return func(data []byte) []byte {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("location.json: %v", err)
		}
		removed := false
		for _, branch := range doc["allOf"].([]any) {
			if props, ok := branch.(map[string]any)["properties"].(map[string]any); ok && props["timezone"] != nil {
				delete(props, "timezone")
				removed = true
			}
		}
		if !removed {
			t.Fatal("location.json has no timezone property to remove")
		}
		delete(doc, "if")
		delete(doc, "then")
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// TestDiffBreakingChange removes a Location member in a copy of the
// release: the report names it as breaking, in Location and in the lookup
// result's LookupLocation that extends it, and diff exits 1; the tree
// states no version, so the report labels each side by its folder.
func TestDiffBreakingChange(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	edited := copyTree(t, src, map[string]func([]byte) []byte{"schemas/common/types/location.json": withoutTimezone(t)})
	code, stdout, errs := ucpgen(t, "diff", "--from", src, "--to", edited)
	if code != exitBreaking {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBreaking, errs)
	}
	want := "ucpgen: what UCP " + src + " -> " + edited + " brings:\n" +
		"  - member Location.timezone: was optional string [breaking]\n" +
		"  - member LookupLocation.timezone: was optional string [breaking]\n" +
		"  2 changes, 2 breaking\n"
	if stdout != want {
		t.Errorf("report:\n%s\nwant:\n%s", stdout, want)
	}
	if !strings.Contains(errs, "breaks Business code: 2 changes, 2 breaking") {
		t.Errorf("stderr does not say why diff failed:\n%s", errs)
	}

	// The same tree on both sides: no change, exit 0.
	code, stdout, _ = ucpgen(t, "diff", "--from", src, "--to", src, "--from-ucp-version", "2026-08-25", "--to-ucp-version", "2026-08-25")
	if code != exitOK || stdout != "ucpgen: UCP 2026-08-25 -> 2026-08-25 changes nothing in the generated API\n" {
		t.Errorf("same tree: exit %d:\n%s", code, stdout)
	}
}

func TestDiffBadInput(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	broken := copyTree(t, src, map[string]func([]byte) []byte{"schemas/common/types/geo.json": func([]byte) []byte { return []byte(`{"type": `) }})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no --from", []string{"--to", src}, "--from: give the schema tree root"},
		{"no --to", []string{"--from", src}, "--to: give the schema tree root"},
		{"missing folder", []string{"--from", filepath.Join(src, "nope"), "--to", src}, "--from: " + filepath.Join(src, "nope") + " does not exist"},
		{"release folder instead of its source", []string{"--from", src, "--to", filepath.Dir(src)}, "did you mean --to " + src + "?"},
		{"bad version", []string{"--from", src, "--to", src, "--to-ucp-version", "draft"}, `--to-ucp-version: "draft" is not a UCP release (YYYY-MM-DD)`},
		{"broken schema", []string{"--from", src, "--to", broken}, "--to " + broken + ": "},
		{"arguments", []string{"--from", src, "--to", src, "extra"}, `unknown command "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, errs := ucpgen(t, append([]string{"diff"}, tc.args...)...)
			if code != exitBadInput || stdout != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d), stdout %q, stderr:\n%s\nwant it to contain %q", code, exitBadInput, stdout, errs, tc.want)
			}
		})
	}
}
