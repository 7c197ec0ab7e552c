package conformance_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/generator/emit"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// toolBindSource is a main package that feeds each stdin line ("tool\t"
// base64 arguments object) to the generated tool's Bind, splitting the
// object into its params as the runtime does (unknown or missing required
// members refused), and prints "accept" or "reject".
func toolBindSource(importPath string) ([]byte, error) {
	src := fmt.Sprintf(`package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	gen %q
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

func verdict(t ucpcore.Tool, data []byte) string {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return "reject"
	}
	args := make([]json.RawMessage, len(t.Params))
	for i, p := range t.Params {
		raw, ok := obj[p.Name]
		if !ok && p.Required {
			return "reject"
		}
		delete(obj, p.Name)
		args[i] = raw
	}
	if len(obj) > 0 {
		return "reject"
	}
	_, err := t.Bind(args)
	if err != nil && strings.Contains(err.Error(), " to decode, got ") {
		return "decode" // the schema check passed; filling the Go type failed
	}
	if err != nil {
		return "reject"
	}
	return "accept"
}

func main() {
	tools := map[string]ucpcore.Tool{}
	all, err := gen.Tools(gen.StubHooks(nil))
	if err != nil {
		panic(err)
	}
	for _, t := range all {
		tools[t.Name] = t
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		name, enc, _ := strings.Cut(in.Text(), "\t")
		t, ok := tools[name]
		data, err := base64.StdEncoding.DecodeString(enc)
		if !ok || err != nil {
			fmt.Fprintf(os.Stderr, "bad case for %%q: %%v\n", name, err)
			os.Exit(2)
		}
		fmt.Fprintln(out, verdict(t, data))
	}
}
`, importPath)
	return format.Source([]byte(src))
}

// TestShoppingInputSchemasAgreeWithValidators holds every shopping tool's
// advertised inputSchema (as tools/list sends it, compiled by
// santhosh-tekuri) to the generated validators that tools/call runs: over
// requests built without response-only members, the responses-shaped
// requests of the SDK proof and every mutant of both, the two must give the
// same verdict. Before the bundles applied ucp_request per operation,
// create_checkout's schema required id, status and ucp, which the validator
// (rightly) does not.
func TestShoppingInputSchemasAgreeWithValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a harness over the generated shopping package")
	}
	source := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	const version = "2026-08-21"
	tree := copyTree(t, os.DirFS(source))
	delete(tree, "services/shopping/rest.openapi.json") // not read by the MCP tools
	cfg := generator.Config{FS: tree, OpenRPC: "services/shopping/mcp.openrpc.json", Package: "shopping", UCPVersion: version}
	m, _, err := generator.Model(cfg)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.ToolSchemas(m, true)
	if err != nil {
		t.Fatal(err)
	}

	// (b) create omits a checkout's id: the advertised schema must not ask for it.
	var create struct {
		Properties map[string]struct {
			Required   []string       `json:"required"`
			Properties map[string]any `json:"properties"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(files["create_checkout.input.json"], &create); err != nil {
		t.Fatal(err)
	}
	co, ok := create.Properties["checkout"]
	if !ok || co.Properties == nil {
		t.Fatalf("create_checkout.input.json has no inline checkout object schema")
	}
	for _, bad := range []string{"id", "status", "ucp", "totals", "links", "currency"} {
		if slices.Contains(co.Required, bad) {
			t.Errorf("create_checkout inputSchema requires checkout.%s, which create omits or leaves optional", bad)
		}
	}
	if _, ok := co.Properties["id"]; ok {
		t.Errorf("create_checkout inputSchema still declares checkout.id, which ucp_request omits for create")
	}

	const (
		meta      = `{"ucp-agent":{"profile":"https://platform.example/agent.json"}}`
		metaOnce  = `{"ucp-agent":{"profile":"https://platform.example/agent.json"},"idempotency-key":"3f0c1e9a-2b6d-4c8e-9a71-5d2f4b6e8c10"}`
		lineItems = `[{"item":{"id":"sku_1"},"quantity":2}]`
		// Shaped like a response, as an agent echoing a checkout sends it.
		echoed = `{"ucp":{"version":"` + version + `","payment_handlers":{}},"id":"co_1","line_items":[{"id":"li_1","item":{"id":"sku_1","title":"Mug","price":1200},"quantity":2,"totals":[]}],"status":"incomplete","currency":"USD","totals":[{"type":"total","amount":2400}],"links":[]}`
	)
	seeds := map[string][]string{
		"create_checkout":   {`{"meta":` + meta + `,"checkout":{"line_items":` + lineItems + `}}`, `{"meta":` + meta + `,"checkout":` + echoed + `}`},
		"get_checkout":      {`{"meta":` + meta + `,"id":"co_1"}`},
		"update_checkout":   {`{"meta":` + meta + `,"id":"co_1","checkout":{"line_items":` + lineItems + `}}`, `{"meta":` + meta + `,"id":"co_1","checkout":` + echoed + `}`},
		"complete_checkout": {`{"meta":` + metaOnce + `,"id":"co_1","checkout":{"payment":{}}}`},
		"cancel_checkout":   {`{"meta":` + metaOnce + `,"id":"co_1"}`},
		"create_cart":       {`{"meta":` + meta + `,"cart":{"line_items":` + lineItems + `}}`},
		"get_cart":          {`{"meta":` + meta + `,"id":"cart_1"}`},
		"update_cart":       {`{"meta":` + meta + `,"id":"cart_1","cart":{"id":"cart_1","line_items":` + lineItems + `}}`},
		"cancel_cart":       {`{"meta":` + metaOnce + `,"id":"cart_1"}`},
		"search_catalog":    {`{"meta":` + meta + `,"catalog":{"query":"mug"}}`},
		"lookup_catalog":    {`{"meta":` + meta + `,"catalog":{"ids":["p_1","p_2"]}}`},
		"get_order":         {`{"meta":` + meta + `,"id":"ord_1"}`},
		"get_product":       {`{"meta":` + meta + `,"catalog":{"id":"p_1"}}`},
	}
	params := map[string][]string{}
	for _, tool := range m.Tools {
		if seeds[tool.Name] == nil {
			t.Errorf("no seed request for tool %s", tool.Name)
		}
		for _, p := range tool.Params {
			params[tool.Name] = append(params[tool.Name], p.Name)
		}
	}
	if len(m.Tools) != 13 {
		t.Fatalf("%d shopping tools, want 13", len(m.Tools))
	}

	var cases []testCase
	for name, list := range seeds {
		for i, s := range list {
			seed := testCase{fmt.Sprintf("%s seed %d", name, i), name, []byte(s)}
			cases = append(cases, seed)
			for _, c := range mutants(t, seed) {
				// The runtime refuses an argument the tool does not
				// define; the schema leaves that to it (additional
				// arguments are not the schemas' business), so those
				// mutants say nothing about the two agreeing.
				var root map[string]json.RawMessage
				if json.Unmarshal(c.data, &root) == nil {
					extra := false
					for k := range root {
						extra = extra || !slices.Contains(params[name], k)
					}
					if extra {
						continue
					}
				}
				cases = append(cases, c)
			}
		}
	}

	// The generated package and the harness over it.
	gen, err := generator.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, importPath := scratchPackage(t, "shopping", withStubs(t, "shopping", gen))
	src, err := toolBindSource(importPath)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "shopschema")
	if out, err := exec.Command("go", "build", "-o", exe, scratchMain(t, "shopschema", src)).CombinedOutput(); err != nil {
		t.Fatalf("build harness: %v\n%s", err, out)
	}
	var in bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&in, "%s\t%s\n", c.target, base64.StdEncoding.EncodeToString(c.data))
	}
	cmd := exec.Command(exe)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run harness: %v\n%s", err, stderr.Bytes())
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if len(got) != len(cases) {
		t.Fatalf("harness answered %d of %d cases", len(got), len(cases))
	}

	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range m.Tools {
		schemas[tool.Name] = compileToolSchema(t, tool.Name+".input.json", files[tool.Name+".input.json"])
	}
	// A "decode" answer passed the operation's schema check and then failed
	// to fill the Go type, which one type shares between operations (a
	// create request may send anything as a line item's id, which create
	// omits, but the type's ID is a string): the validators accept the
	// request, so the schema must too.
	accepted, disagree, decodeOnly := map[string]int{}, 0, 0
	for i, c := range cases {
		if strings.HasSuffix(c.name, "seed 0") && got[i] != "accept" {
			t.Errorf("%s: the validator refuses the seed request %s", c.name, c.data)
		}
		ref := referenceVerdict(schemas[c.target], c.data) == nil
		if ref {
			accepted[c.target]++
		}
		check := got[i] != "reject"
		if got[i] == "decode" {
			decodeOnly++
		}
		if ref != check {
			disagree++
			if disagree <= 10 {
				t.Errorf("%s: inputSchema accepts=%v, validator answers %s\npayload: %s", c.name, ref, got[i], c.data)
			}
		}
	}
	t.Logf("shopping input schemas: %d cases over %d tools, %d disagreements, %d refused only by decoding into the shared Go type; accepted per tool: %v",
		len(cases), len(m.Tools), disagree, decodeOnly, accepted)
	for _, tool := range m.Tools {
		if accepted[tool.Name] == 0 {
			t.Errorf("%s: no case accepted, the corpus proves nothing for it", tool.Name)
		}
	}
}
