package conformance_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// shopSeed is one valid payload of a shopping tool: Param names the
// argument it is (empty for the tool's result), Args the valid values of
// every argument in param order, so a mutant of one argument is bound
// beside valid others.
type shopSeed struct {
	tool, param string
	index       int // of param in args; -1 for the result
	args        []string
	data        string
}

// shopSeeds are the valid arguments and results of every shopping tool,
// built from the payloads of TestShoppingToolsThroughBothSDKs; each
// argument of each call is a seed of its own target.
func shopSeeds() []shopSeed {
	calls := []struct {
		tool    string
		params  []string
		args    []string
		results []string
	}{
		{"create_checkout", []string{"meta", "checkout"}, []string{shopMeta, shopCheckout}, []string{shopFailed, shopCheckout}},
		{"get_checkout", []string{"meta", "id"}, []string{shopMeta, `"co_1"`}, []string{shopFailed, shopCheckout}},
		{"update_checkout", []string{"meta", "id", "checkout"}, []string{shopMeta, `"co_1"`, shopCheckout}, []string{shopFailed, shopCheckout}},
		{"complete_checkout", []string{"meta", "id", "checkout"}, []string{shopMetaOnce, `"co_1"`, shopCheckoutPaid}, []string{shopFailed, shopCheckout}},
		{"cancel_checkout", []string{"meta", "id"}, []string{shopMetaOnce, `"co_1"`}, []string{shopFailed, shopCheckout}},
		{"create_cart", []string{"meta", "cart"}, []string{shopMeta, shopCart}, []string{shopFailed, shopCart}},
		{"get_cart", []string{"meta", "id"}, []string{shopMeta, `"cart_1"`}, []string{shopFailed, shopCart}},
		{"update_cart", []string{"meta", "id", "cart"}, []string{shopMeta, `"cart_1"`, shopCart}, []string{shopFailed, shopCart}},
		{"cancel_cart", []string{"meta", "id"}, []string{shopMetaOnce, `"cart_1"`}, []string{shopFailed, shopCart}},
		{"search_catalog", []string{"meta", "catalog"}, []string{shopMeta, `{"query":"mug"}`}, []string{shopProducts}},
		{"lookup_catalog", []string{"meta", "catalog"}, []string{shopMeta, `{"ids":["p_1","p_2"]}`}, []string{shopProducts}},
		{"get_order", []string{"meta", "id"}, []string{shopMeta, `"ord_1"`}, []string{shopFailed}},
		{"get_product", []string{"meta", "catalog"}, []string{shopMeta, `{"id":"p_1"}`}, []string{shopFailed}},
	}
	var out []shopSeed
	for _, c := range calls {
		for i, p := range c.params {
			out = append(out, shopSeed{c.tool, p, i, c.args, c.args[i]})
		}
		for _, r := range c.results {
			out = append(out, shopSeed{c.tool, "", -1, c.args, r})
		}
	}
	return out
}

// shopHarnessSource is a main package over the generated shopping package:
// each stdin line is "tool\tindex\tpayload\targ,arg,..." (base64), index -1
// checks a result with the tool's CheckOutput, any other binds the tool's
// arguments with the payload at that index through its Bind, exactly what
// tools/call runs after splitting the arguments.
const shopHarnessSource = `package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	gen "IMPORT"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

func main() {
	tools := map[string]ucpcore.Tool{}
	all, err := gen.Tools(gen.StubHooks(nil))
	if err != nil {
		panic(err)
	}
	for _, tl := range all {
		tools[tl.Name] = tl
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		f := strings.Split(in.Text(), "\t")
		tl, ok := tools[f[0]]
		idx, err := strconv.Atoi(f[1])
		if !ok || err != nil || len(f) != 4 {
			fmt.Fprintf(os.Stderr, "bad line %q\n", in.Text())
			os.Exit(2)
		}
		data, _ := base64.StdEncoding.DecodeString(f[2])
		if idx < 0 {
			err = tl.CheckOutput(data)
		} else {
			var args []json.RawMessage
			for _, a := range strings.Split(f[3], ",") {
				b, _ := base64.StdEncoding.DecodeString(a)
				args = append(args, b)
			}
			args[idx] = data
			_, err = tl.Bind(args)
		}
		switch {
		case err == nil:
			fmt.Fprintln(out, "accept")
		default:
			if _, ok := rpcerr.AsInvalidParams(err); ok {
				fmt.Fprintf(out, "reject\t%q\n", err.Error())
			} else {
				fmt.Fprintf(out, "wrongtype\t%q\n", fmt.Sprintf("%T: %v", err, err))
			}
		}
	}
	out.Flush()
}
`

// shopMethods maps each method of the draft shopping binding to its
// position, for reference URLs into the OpenRPC file.
func shopMethods(t *testing.T, fsys fs.FS) map[string]int {
	t.Helper()
	raw, err := fs.ReadFile(fsys, shopOpenRPC)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Methods []struct{ Name string } `json:"methods"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", shopOpenRPC, err)
	}
	out := map[string]int{}
	for i, m := range doc.Methods {
		out[m.Name] = i
	}
	return out
}

const shopOpenRPC = "services/shopping/mcp.openrpc.json"

// shopTarget is the reference target of a seed: the param's or result's
// schema in the upstream OpenRPC file, compiled with the tool's operation
// (the method name up to its first underscore, as ir.Build names it) and
// direction resolved by resolveDirection, as the generated checks apply
// ucp_request and ucp_response.
func shopTarget(t *testing.T, methods map[string]int, s shopSeed) target {
	m, ok := methods[s.tool]
	if !ok {
		t.Fatalf("no method %s in %s", s.tool, shopOpenRPC)
	}
	op, _, _ := strings.Cut(s.tool, "_")
	if s.index < 0 {
		return target{name: shopKey(s), url: fmt.Sprintf("mem:///%s#/methods/%d/result/schema", shopOpenRPC, m), dir: "response", op: op}
	}
	return target{name: shopKey(s), url: fmt.Sprintf("mem:///%s#/methods/%d/params/%d/schema", shopOpenRPC, m, s.index), dir: "request", op: op}
}

// shopExcused is the one class of disagreement the shopping differential
// excuses, by tool, argument pointer and message. ucp_request omits these
// members on create, and the reference reads the omitted member as
// unconstrained (it leaves properties while additionalProperties stays
// open), so it allows any value there. The generated Go type is shared with
// the directions that keep the member, so its decoder still reads the
// member as a string and refuses another JSON type under the member's
// pointer. Anything else that disagrees fails the test.
var shopExcused = []struct{ tool, pointer, reason string }{
	{"create_checkout", "/checkout/line_items/0/id", "line item id omitted on create, decoded by the shared type"},
	{"create_cart", "/cart/id", "cart id omitted on create, decoded by the shared type"},
	{"create_cart", "/cart/line_items/0/id", "line item id omitted on create, decoded by the shared type"},
}

// shopExcuse returns the reason a disagreement is excused, or "".
func shopExcuse(tool, ours string, theirs error) string {
	if theirs != nil || !strings.HasPrefix(ours, "reject\t") {
		return ""
	}
	for _, e := range shopExcused {
		if e.tool == tool && strings.Contains(ours, "invalid params: "+e.pointer+": must be string to decode, got ") {
			return e.reason
		}
	}
	return ""
}

// TestDifferentialShopping holds every argument and every result of the 13
// draft shopping tools to santhosh-tekuri: the seeds and all their mutants
// (the Location differential's mutants) are bound by the generated tools in
// a harness built over the package generated into a scratch folder, and
// validated by santhosh-tekuri compiled from the tool schemas the same
// package advertises. No class of case is excused.
func TestDifferentialShopping(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the generated shopping package (not in -short mode)")
	}
	tree := shoppingTree(t)
	_, importPath := scratchPackage(t, "shopping", shoppingFiles(t, tree))
	src := strings.Replace(shopHarnessSource, "IMPORT", importPath, 1)
	exe := filepath.Join(t.TempDir(), "shoppingharness")
	if out, err := exec.Command("go", "build", "-o", exe, scratchMain(t, "shoppingdiff", []byte(src))).CombinedOutput(); err != nil {
		t.Fatalf("build harness: %v\n%s", err, out)
	}

	type shopCase struct {
		seed   shopSeed
		name   string
		data   []byte
		isSeed bool
	}
	var cases []shopCase
	refs := map[string]*jsonschema.Schema{}
	seeds := shopSeeds()
	methods := shopMethods(t, tree)
	for _, s := range seeds {
		key := shopKey(s)
		if refs[key] == nil {
			refs[key] = referenceIn(t, tree, shopTarget(t, methods, s))
		}
		seedCase := testCase{key, key, []byte(s.data)}
		cases = append(cases, shopCase{s, key + " seed", []byte(s.data), true})
		for _, m := range mutants(t, seedCase) {
			cases = append(cases, shopCase{s, m.name, m.data, false})
		}
	}

	var in bytes.Buffer
	for _, c := range cases {
		var enc []string
		for _, a := range c.seed.args {
			enc = append(enc, base64.StdEncoding.EncodeToString([]byte(a)))
		}
		fmt.Fprintf(&in, "%s\t%d\t%s\t%s\n", c.seed.tool, c.seed.index, base64.StdEncoding.EncodeToString(c.data), strings.Join(enc, ","))
	}
	cmd := exec.Command(exe)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run harness: %v\n%s", err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	var verdicts []string
	for sc.Scan() {
		verdicts = append(verdicts, sc.Text())
	}
	if len(verdicts) != len(cases) {
		t.Fatalf("harness answered %d of %d cases", len(verdicts), len(cases))
	}
	disagree, accepted := 0, 0
	excused := map[string]int{}
	for i, c := range cases {
		ref := refs[shopKey(c.seed)]
		theirs := referenceVerdict(ref, c.data)
		ours := verdicts[i]
		ok := ours == "accept"
		if ok {
			accepted++
		}
		if strings.HasPrefix(ours, "wrongtype") {
			t.Errorf("%s: error is not *rpcerr.InvalidParams: %s", c.name, ours)
		}
		if c.isSeed && (!ok || theirs != nil) {
			t.Errorf("seed %s: ours=%s reference=%s", c.name, ours, firstLine(theirs))
		}
		if ok != (theirs == nil) && !c.isSeed {
			if r := shopExcuse(c.seed.tool, ours, theirs); r != "" {
				excused[r]++
				continue
			}
		}
		if ok != (theirs == nil) {
			disagree++
			if disagree <= 20 {
				t.Errorf("%s: ours=%s reference=%s\npayload: %s", c.name, ours, firstLine(theirs), c.data)
			}
		}
	}
	t.Logf("shopping differential: %d cases over %d targets (%d seeds), %d accepted, %d rejected, %d disagreements, excused %v",
		len(cases), len(refs), len(seeds), accepted, len(cases)-accepted, disagree, excused)
	if disagree > 20 {
		t.Errorf("%d disagreements in all (first 20 shown)", disagree)
	}
}

func shopKey(s shopSeed) string {
	if s.param == "" {
		return s.tool + " result"
	}
	return s.tool + " " + s.param
}

// shoppingTree is the draft tree as the shopping harnesses read it: the
// REST binding beside the OpenRPC file is left out, as in
// TestShoppingToolsThroughBothSDKs.
func shoppingTree(t *testing.T) fstest.MapFS {
	t.Helper()
	source := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	tree := copyTree(t, os.DirFS(source))
	delete(tree, "services/shopping/rest.openapi.json")
	return tree
}

// shoppingFiles generates the draft shopping MCP service of tree, with
// StubHooks beside it.
func shoppingFiles(t *testing.T, tree fstest.MapFS) map[string][]byte {
	t.Helper()
	files, err := generator.Generate(generator.Config{FS: tree, OpenRPC: shopOpenRPC, Package: "shopping", UCPVersion: shopVersion})
	if err != nil {
		t.Fatalf("generate shopping: %v", err)
	}
	return withStubs(t, "shopping", files)
}

// withStubs returns files and a stub.go with StubHooks (see stubSource), so
// a harness gets the tools of every capability from gen.Tools.
func withStubs(t *testing.T, pkg string, files map[string][]byte) map[string][]byte {
	t.Helper()
	stubs, err := stubSource(pkg, files["mcp.go"])
	if err != nil {
		t.Fatalf("stubs: %v", err)
	}
	out := maps.Clone(files)
	out["stub.go"] = stubs
	return out
}
