package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestEveryDraftServiceGenerates runs generate on every OpenRPC file of the
// unmodified draft tree with --ucp-version 2026-08-21, into packages of a
// scratch folder of this module, and vets them: the shopping MCP binding
// registers one tool per method with contains checks in its validators and
// no Location code, and the embedded protocols get methods.go and no tools
// and do not read the shopping REST binding beside them, which is not
// theirs. Standalone, the draft's Location service warns that the runtime
// does not interpret its inventory filter (semantic drift), which --strict
// refuses.
func TestEveryDraftServiceGenerates(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	scratch := testshared.ScratchDir(t, "_draftservices")
	for _, tc := range []struct {
		openrpc, pkg string
		files, none  []string
		has          []string // in the named file: "file: text"
		warn         string   // in stderr; "" for no warning at all
	}{
		{"services/shopping/mcp.openrpc.json", "shopping", []string{"types.go", "validate.go", "mcp.go"}, []string{"binding.go", "service.go", "methods.go"},
			[]string{"validate.go: c.Contains(at, matched, 1, 1, true)", "types.go: type CompleteCheckoutMeta struct", "types.go: type TotalsItem struct"}, ""},
		{"services/shopping/embedded.openrpc.json", "embedded", []string{"types.go", "validate.go", "methods.go"}, []string{"mcp.go", "binding.go", "service.go"},
			[]string{"methods.go: func DecodeEcReadyParams(data []byte) (*EcReadyParams, error)", "methods.go: func DecodeEcFulfillmentAddressChangeRequestParams(", "types.go: type EcFulfillmentAddressChangeRequestResult "}, ""},
		{"services/payment-actions/embedded.openrpc.json", "paymentactions", []string{"types.go", "validate.go", "methods.go"}, []string{"mcp.go", "binding.go", "service.go"},
			[]string{"methods.go: func DecodeActionDoneParams(", "methods.go: func DecodeActionErrorParams("}, ""},
		{"services/common/mcp.openrpc.json", "location", []string{"types.go", "validate.go", "mcp.go", "binding.go", "service.go"}, []string{"methods.go"},
			[]string{"binding.go: func (r *SearchRequest) PredicateQuery() (predicate.Query, error)", "service.go: func NewService("},
			// The draft filters by inventory, which only a served-from
			// package's Conversion maps onto the runtime's items.
			`warning: schemas/common/types/location_filter.json#/properties/inventory: member "inventory" is not interpreted by the runtime package github.com/ucpgen/ucpgen/runtime/domain/predicate`},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			out := filepath.Join(scratch, tc.pkg)
			args := []string{"generate", "--schemas", src, "--ucp-version", "2026-08-21", "--openrpc", tc.openrpc, "--out", out}
			code, _, errs := ucpgen(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			if tc.warn == "" && strings.Contains(errs, "warning") || !strings.Contains(errs, tc.warn) {
				t.Errorf("stderr %q, want warning %q", errs, tc.warn)
			}
			if tc.warn != "" {
				if code, _, errs := ucpgen(t, append(args[:len(args)-1:len(args)-1], t.TempDir(), "--package", "x", "--strict")...); code != exitBadInput || !strings.Contains(errs, "refused by --strict") {
					t.Errorf("--strict: exit %d, want %d refusing the warning:\n%s", code, exitBadInput, errs)
				}
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("no %s: %v", f, err)
				}
			}
			for _, f := range tc.none {
				if _, err := os.Stat(filepath.Join(out, f)); err == nil {
					t.Errorf("%s generated for %s", f, tc.openrpc)
				}
			}
			for _, h := range tc.has {
				f, text, _ := strings.Cut(h, ": ")
				b, _ := os.ReadFile(filepath.Join(out, f))
				if !strings.Contains(string(b), text) {
					t.Errorf("%s lacks %q", f, text)
				}
			}
		})
	}
	t.Run("shopping registers every method as a tool", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(src, "services", "shopping", "mcp.openrpc.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Methods []struct{ Name string } }
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range doc.Methods {
			want = append(want, m.Name)
		}
		b, _ := os.ReadFile(filepath.Join(scratch, "shopping", "mcp.go"))
		var got []string
		for _, m := range regexp.MustCompile(`(?m)^\t\tName: +"([a-z_]+)",$`).FindAllStringSubmatch(string(b), -1) {
			got = append(got, m[1])
		}
		if len(want) != 13 || !slices.Equal(got, want) {
			t.Errorf("mcp.go registers %v, want the %d methods %v", got, len(want), want)
		}
	})
	if testing.Short() {
		t.Skip("skipping go vet of the generated packages in -short mode")
	}
	vet := []string{"vet"}
	for _, p := range []string{"shopping", "embedded", "paymentactions", "location"} {
		vet = append(vet, "./"+filepath.Base(scratch)+"/"+p)
	}
	if out, err := exec.Command("go", vet...).CombinedOutput(); err != nil {
		t.Fatalf("generated packages do not build and vet: %v\n%s", err, out)
	}
}
