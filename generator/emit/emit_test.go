package emit_test

import (
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/schemas"
)

// TestCheckPackage pins which --package values produce compilable code.
func TestCheckPackage(t *testing.T) {
	cases := []struct {
		name, want string // want is a fragment of the error, or "" for valid
	}{
		{"location", ""},
		{"ucploc2", ""},
		{"_private", ""},
		{"", "empty"},
		{"func", "not a Go identifier"},
		{"type", "not a Go identifier"},
		{"range", "not a Go identifier"},
		{"2fast", "not a Go identifier"},
		{"my-pkg", "not a Go identifier"},
		{"a.b", "not a Go identifier"},
		{"_", "blank identifier"},
	}
	for _, c := range cases {
		err := emit.CheckPackage(c.name)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckPackage(%q) = %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckPackage(%q) = %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestFilesRefusesKeywordPackage proves the check guards the emitter itself,
// whichever front end calls it.
func TestFilesRefusesKeywordPackage(t *testing.T) {
	m, _, err := generator.Model(generator.Config{FS: schemas.FS, OpenRPC: schemas.OpenRPCPath, Package: "func"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emit.Files(m, emit.Options{Package: "func"}); err == nil || !strings.Contains(err.Error(), `"func"`) {
		t.Fatalf("Files with package func: err = %v, want it refused", err)
	}
}
