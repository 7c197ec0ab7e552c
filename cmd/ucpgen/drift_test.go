package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// TestSemanticDriftIsLoud: a copied tree whose
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

// TestMemberDriftIsLoud is member drift: an optional boolean
// `accessible` added to location_filter.json, a filter the predicate
// engine does not interpret, generates with a warning naming the member,
// its file#/pointer and the runtime package; `generate --strict` refuses
// it with exit 2. It runs on a copy of the bundled tree and of UCP's
// 2026-08-25 source/ tree.
func TestMemberDriftIsLoud(t *testing.T) {
	trees := map[string][]string{"bundled": nil}
	if root, ok := testshared.Optional(t, "ucp-upstream", "2026-08-25", "source"); ok {
		trees[root] = []string{"--ucp-version", "2026-08-25"}
	}
	const warning = `schemas/common/types/location_filter.json#/properties/accessible: member "accessible" is not interpreted by the runtime package github.com/ucpgen/ucpgen/runtime/domain/predicate`
	for from, flags := range trees {
		t.Run(filepath.Base(from), func(t *testing.T) {
			var src fs.FS = schemas.FS
			if from != "bundled" {
				src = os.DirFS(from)
			}
			tree := t.TempDir()
			if err := os.CopyFS(tree, src); err != nil {
				t.Fatal(err)
			}
			editFile(t, tree, "schemas/common/types/location_filter.json", "", `"properties": {`,
				`"properties": {"accessible": {"type": "boolean", "description": "Keeps Locations with step-free access."},`)
			out := filepath.Join(t.TempDir(), "loc")
			args := append([]string{"generate", "--schemas", tree, "--out", out}, flags...)
			code, _, errs := ucpgen(t, args...)
			if code != exitOK || !strings.Contains(errs, "ucpgen: warning: "+warning) {
				t.Errorf("without --strict: exit %d, stderr:\n%s\nwant exit 0 and the warning %q", code, errs, warning)
			}
			if _, err := os.Stat(filepath.Join(out, "binding.go")); err != nil {
				t.Errorf("without --strict nothing was written: %v", err)
			}
			strictOut := filepath.Join(t.TempDir(), "loc")
			code, _, errs = ucpgen(t, append([]string{"generate", "--schemas", tree, "--out", strictOut, "--strict"}, flags...)...)
			if code != exitBadInput || !strings.Contains(errs, "refused by --strict") || !strings.Contains(errs, warning) {
				t.Errorf("--strict: exit %d, stderr:\n%s\nwant exit 2 naming %q", code, errs, warning)
			}
			if _, err := os.Stat(strictOut); err == nil {
				t.Errorf("--strict wrote %s", strictOut)
			}
		})
	}
}
