package schemas

import (
	"encoding/json"
	"io/fs"
	"slices"
	"testing"
)

// TestEachFolderStatesItsVersion holds the layout's promise: the bundle is
// one folder per version, named by that version, and both service documents
// in it state the same version, so a folder cannot silently hold another
// release's tree.
func TestEachFolderStatesItsVersion(t *testing.T) {
	entries, err := fs.ReadDir(bundled, ".")
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		folders = append(folders, e.Name())
	}
	if want := []string{PreviousVersion, Version}; !slices.Equal(folders, want) {
		t.Fatalf("bundled folders %v, want %v", folders, want)
	}
	for version, tree := range map[string]fs.FS{Version: FS, PreviousVersion: Previous} {
		for _, doc := range []string{OpenRPCPath, "services/common/rest.openapi.json"} {
			data, err := fs.ReadFile(tree, doc)
			if err != nil {
				t.Fatalf("%s: %v", version, err)
			}
			var d struct {
				Info struct {
					Version string `json:"version"`
				} `json:"info"`
			}
			if err := json.Unmarshal(data, &d); err != nil {
				t.Fatalf("%s/%s: %v", version, doc, err)
			}
			if d.Info.Version != version {
				t.Errorf("%s/%s states info.version %q, want the folder's %q", version, doc, d.Info.Version, version)
			}
		}
	}
}
