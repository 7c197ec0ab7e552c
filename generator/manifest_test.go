package generator_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/delta"
)

// TestManifestCheckAndUpdate checks that the surface manifest, the one
// generated file that is neither Go nor a tool schema, goes through Check
// and Update like the Go files: reported and rewritten when it differs,
// reported and removed when a run no longer produces it, and left alone
// when the file of that name is not ucpgen's.
func TestManifestCheckAndUpdate(t *testing.T) {
	files, err := generator.Generate(ours())
	if err != nil {
		t.Fatal(err)
	}
	manifest := files[delta.ManifestName]
	if _, err := delta.Decode(delta.ManifestName, manifest); err != nil {
		t.Fatalf("Generate's manifest does not read back: %v", err)
	}
	dir := t.TempDir()
	if err := generator.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, delta.ManifestName)
	reasons := func(files map[string][]byte) map[string]string {
		t.Helper()
		stale, err := generator.Check(dir, files)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range stale {
			out[s.Name] = s.Reason
		}
		return out
	}
	if got := reasons(files); len(got) != 0 {
		t.Fatalf("fresh output reported stale: %v", got)
	}

	// A manifest of another surface (an older run) differs.
	old := bytes.Replace(manifest, []byte(`"ucp_version": "2026-08-25"`), []byte(`"ucp_version": "2026-04-08"`), 1)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := reasons(files); len(got) != 1 || got[delta.ManifestName] != "differs" {
		t.Errorf("edited manifest: Check reported %v, want it to differ", got)
	}
	res, err := generator.Update(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 1 || res.Written[0] != delta.ManifestName {
		t.Errorf("Update wrote %v, want only the manifest", res.Written)
	}

	// A run that produces no manifest leaves none behind.
	without := map[string][]byte{}
	for name, data := range files {
		if name != delta.ManifestName {
			without[name] = data
		}
	}
	if got := reasons(without); len(got) != 1 || got[delta.ManifestName] != "no longer generated" {
		t.Errorf("Check without a manifest reported %v", got)
	}
	if res, err = generator.Update(dir, without); err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 1 || res.Removed[0] != delta.ManifestName {
		t.Errorf("Update removed %v, want the manifest", res.Removed)
	}

	// A file of that name that ucpgen did not write is the user's.
	mine := []byte(`{"notes": "mine"}`)
	if err := os.WriteFile(path, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := reasons(without); len(got) != 0 {
		t.Errorf("Check reported the user's file: %v", got)
	}
	if _, err := generator.Update(dir, without); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, mine) {
		t.Errorf("Update touched the user's file: %q, %v", b, err)
	}
}
