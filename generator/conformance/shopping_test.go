package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// shoppingChecks are tests written into each generated draft package: the
// contains checks of totals, and the per-method decoders of the embedded
// protocols, which split params by name and refuse what no param is.
var shoppingChecks = map[string]string{
	"shopping": `
func TestTotalsContains(t *testing.T) {
	if _, err := DecodeTotals([]byte(` + "`" + `[{"type":"subtotal","amount":1},{"type":"total","amount":1}]` + "`" + `)); err != nil {
		t.Fatalf("one subtotal and one total refused: %v", err)
	}
	_, err := DecodeTotals([]byte(` + "`" + `[{"type":"subtotal","amount":1},{"type":"total","amount":1},{"type":"total","amount":2}]` + "`" + `))
	if err == nil || !strings.Contains(err.Error(), "must contain at most 1 item matching the contains schema, got 2") {
		t.Fatalf("two totals: %v", err)
	}
}
`,
	"embedded": `
func TestReadyParams(t *testing.T) {
	p, err := DecodeEcReadyParams([]byte(` + "`" + `{"delegate":["payment.credential"]}` + "`" + `))
	if err != nil || len(p.Delegate) != 1 || p.Auth != nil {
		t.Fatalf("got %+v, %v", p, err)
	}
	_, err = DecodeEcReadyParams([]byte(` + "`" + `{"delegate":["x"],"bogus":1}` + "`" + `))
	if err == nil || !strings.Contains(err.Error(), "/bogus: is not a param of this method") {
		t.Fatalf("unknown param: %v", err)
	}
	_, err = DecodeEcReadyParams([]byte(` + "`" + `{"delegate":["Not-Valid"]}` + "`" + `))
	if err == nil || !strings.Contains(err.Error(), "/delegate/0") {
		t.Fatalf("bad delegate not refused under its pointer: %v", err)
	}
}
`,
	"paymentactions": `
func TestDoneParams(t *testing.T) {
	if p, err := DecodeActionDoneParams([]byte(` + "`" + `{"id":"a1"}` + "`" + `)); err != nil || p.ID != "a1" {
		t.Fatalf("got %+v, %v", p, err)
	}
	if _, err := DecodeActionDoneParams([]byte(` + "`{}`" + `)); err == nil || !strings.Contains(err.Error(), "missing required param \"id\"") {
		t.Fatalf("missing id: %v", err)
	}
}
`,
}

// TestShoppingServices generates the draft tree's shopping MCP binding and
// both embedded protocols into scratch packages of this module, then vets
// them and runs the tests above inside them.
func TestShoppingServices(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds three generated packages (not in -short mode)")
	}
	source := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	var pkgs []string
	for pkg, openrpc := range map[string]string{"shopping": "services/shopping/mcp.openrpc.json", "embedded": "services/shopping/embedded.openrpc.json", "paymentactions": "services/payment-actions/embedded.openrpc.json"} {
		files, err := generator.Generate(generator.Config{FS: os.DirFS(source), OpenRPC: openrpc, Package: pkg, UCPVersion: "2026-08-21"})
		if err != nil {
			t.Fatalf("generate %s: %v", openrpc, err)
		}
		files["draft_test.go"] = []byte("package " + pkg + "\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n" + shoppingChecks[pkg])
		out, _ := scratchPackage(t, pkg, files)
		pkgs = append(pkgs, "./"+filepath.ToSlash(out))
	}
	for _, args := range [][]string{append([]string{"vet"}, pkgs...), append([]string{"test", "-count=1", "-v"}, pkgs...)} {
		out, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", args[0], err, out)
		}
		t.Logf("go %s:\n%s", args[0], out)
	}
}
