package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemasCopy: `ucpgen schemas --out DIR` writes an editable copy of
// the bundled tree with no Go files, which generates the same package as
// the bundled tree after an edit is made and undone, and it refuses to
// write into a folder that holds files.
func TestSchemasCopy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ucp")
	code, out, errs := ucpgen(t, "schemas", "--out", dir)
	if code != exitOK || !strings.Contains(out, "schema files") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		if strings.HasSuffix(p, ".go") {
			t.Errorf("copy holds a Go file: %s", p)
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Errorf("%s is not writable: %v", p, err)
			return nil
		}
		return f.Close()
	})
	if err != nil || files < 20 {
		t.Fatalf("walk: %v, %d files", err, files)
	}
	gen := func(args ...string) string {
		t.Helper()
		o := filepath.Join(t.TempDir(), "loc")
		if code, _, errs := ucpgen(t, append([]string{"generate", "--out", o}, args...)...); code != exitOK {
			t.Fatalf("generate %v: %s", args, errs)
		}
		b, err := os.ReadFile(filepath.Join(o, "types.go"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if gen("--schemas", dir) != gen() {
		t.Error("the copy generates other types than the bundled tree")
	}
	if code, _, errs := ucpgen(t, "schemas", "--out", dir); code != exitBadInput || !strings.Contains(errs, "is not empty") {
		t.Errorf("second copy into the same folder: exit %d, %s", code, errs)
	}
}
