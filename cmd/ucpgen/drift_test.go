package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/schemas"
)

// TestSemanticDriftIsLoud is acceptance 2 of issue 21: a copied tree whose
// day enum gains public_holidays, a value the schedule evaluator does not
// interpret, generates with a warning naming the schema location and the
// runtime package, and `generate --strict` refuses it with exit 2.
func TestSemanticDriftIsLoud(t *testing.T) {
	tree := t.TempDir()
	if err := os.CopyFS(tree, schemas.FS); err != nil {
		t.Fatal(err)
	}
	day := filepath.Join(tree, "schemas", "common", "types", "daily_hour.json")
	b, err := os.ReadFile(day)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"sunday"`, `"sunday", "public_holidays"`, 1)
	if edited == string(b) {
		t.Fatal("daily_hour.json has no sunday to extend")
	}
	if err := os.WriteFile(day, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	warning := `schemas/common/types/daily_hour.json#/allOf/1/properties/day/enum/7: value "public_holidays" is not interpreted by the runtime package github.com/ucpgen/ucpgen/runtime/domain/hours`

	code, _, errs := ucpgen(t, "generate", "--schemas", tree, "--out", filepath.Join(t.TempDir(), "loc"))
	if code != exitOK || !strings.Contains(errs, "ucpgen: warning: "+warning) {
		t.Errorf("without --strict: exit %d, stderr:\n%s\nwant exit 0 and the warning %q", code, errs, warning)
	}
	code, _, errs = ucpgen(t, "generate", "--schemas", tree, "--out", filepath.Join(t.TempDir(), "loc"), "--strict")
	if code != exitBadInput || !strings.Contains(errs, "refused by --strict") || !strings.Contains(errs, warning) {
		t.Errorf("--strict: exit %d, stderr:\n%s\nwant exit 2 naming %q", code, errs, warning)
	}
	// The untouched tree is quiet, so the warning is the edit's.
	code, _, errs = ucpgen(t, "generate", "--out", filepath.Join(t.TempDir(), "loc"), "--strict")
	if code != exitOK || strings.Contains(errs, "warning") {
		t.Errorf("bundled tree under --strict: exit %d, stderr:\n%s", code, errs)
	}
}
