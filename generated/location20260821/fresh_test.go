package location20260821_test

import (
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/unidiff"
	"github.com/ucpgen/ucpgen/schemas"
	"github.com/ucpgen/ucpgen/schemas/previous"
)

// TestCommittedCodeIsFresh regenerates this package from schemas/previous,
// as its go:generate line does, and fails with a diff when the committed
// files differ, because `ucpgen generate --check` without flags checks only
// generated/location.
func TestCommittedCodeIsFresh(t *testing.T) {
	files, err := generator.Generate(generator.Config{
		FS:        previous.FS,
		OpenRPC:   previous.OpenRPCPath,
		Package:   "location20260821",
		ServeFrom: &generator.ServeFrom{ImportPath: "github.com/ucpgen/ucpgen/generated/location", FS: schemas.FS, OpenRPC: schemas.OpenRPCPath},
	})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	stale, err := generator.Check(".", files)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	for _, s := range stale {
		t.Errorf("%s %s; run go generate ./generated/location20260821\n%s", s.Name, s.Reason, unidiff.Truncate(s.Diff, 40))
	}
}
