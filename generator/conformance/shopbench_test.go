package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shopBenchSource is the benchmark written into the generated shopping
// package: decode+validate of a valid checkout result with the generated
// code, and with santhosh-tekuri (decode to any, then Validate) compiled
// from the tool's advertised output schema, in the same process.
const shopBenchSource = `package shopping

import (
	"bytes"
	"os"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const checkoutBody = BODY

type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool { ok, _ := r.re.MatchString(s); return ok }
func (r ecmaRegexp) String() string            { return r.re.String() }

func BenchmarkCheckoutResult(b *testing.B) {
	body := []byte(checkoutBody)
	raw, err := os.ReadFile("create_checkout.output.json")
	if err != nil {
		b.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2.Compile(s, regexp2.ECMAScript)
		return ecmaRegexp{re}, err
	})
	if err := c.AddResource("mem:///out.json", doc); err != nil {
		b.Fatal(err)
	}
	sch, err := c.Compile("mem:///out.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := DecodeCheckoutResult(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("santhosh-tekuri", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			if err := sch.Validate(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
`

// TestBenchCheckoutResponse runs the checkout-response benchmark of
// docs/benchmarks.md when UCPGEN_SHOP_BENCH is set (its value is -count):
// it generates the draft shopping package into a scratch folder, writes
// the benchmark beside it and prints go test's output. It asserts no
// timing; it fails only when either side refuses the body.
func TestBenchCheckoutResponse(t *testing.T) {
	count := os.Getenv("UCPGEN_SHOP_BENCH")
	if count == "" {
		t.Skip("set UCPGEN_SHOP_BENCH=<runs> to run the checkout-response benchmark")
	}
	files := shoppingFiles(t, shoppingTree(t))
	files["bench_test.go"] = []byte(strings.Replace(shopBenchSource, "BODY", "`"+shopCheckout+"`", 1))
	pkgDir, _ := scratchPackage(t, "shopping", files)
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "CheckoutResult", "-benchmem", "-count", count, "./"+filepath.ToSlash(pkgDir)).CombinedOutput()
	if err != nil {
		t.Fatalf("benchmark: %v\n%s", err, out)
	}
	t.Logf("checkout response (%d bytes):\n%s", len(shopCheckout), out)
}
