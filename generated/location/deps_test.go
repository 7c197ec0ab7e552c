package location_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoSchemaEngineAtRunTime holds the README's promise that a service built
// on the generated package links no JSON Schema engine and none of its
// dependencies: validation is generated Go code, negotiation is an interface.
func TestNoSchemaEngineAtRunTime(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	forbidden := []string{
		"github.com/santhosh-tekuri/jsonschema",
		"golang.org/x/text",
		"github.com/dlclark/regexp2",
		"github.com/ucpgen/ucpgen/runtime/domain/negotiation",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("generated/location depends on %s", pkg)
			}
		}
	}
}
