package conformance_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generator"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/schemas"
)

// thisImportPath is the import path of this test's folder; the draft
// package is generated below it so its runtime imports resolve in-module.
const thisImportPath = "github.com/ucpgen/ucpgen/generator/conformance"

// draftTargets are the release targets (same names, schema URLs, directions
// and operations) without a linked decoder: the draft package does not exist
// until the test generates it, so its decoders run in a harness process.
func draftTargets() map[string]target {
	out := make(map[string]target, len(targets))
	for k, tg := range targets {
		tg.decode = nil
		out[k] = tg
	}
	return out
}

// verdict is the harness's answer for one case.
type verdict struct {
	accept    bool
	msg       string
	wrongType bool // rejected with an error that is not *rpcerr.InvalidParams
}

// harnessSource is the main package that feeds each stdin line ("Name\t"
// base64 payload) to the generated package's DecodeName and prints "accept"
// or "reject"/"wrongtype" with the quoted error, one line per case.
func harnessSource(importPath string, names []string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `package main

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	gen %q
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

func errOf[T any](f func([]byte) (*T, error)) func([]byte) error {
	return func(b []byte) error { _, err := f(b); return err }
}

var decoders = map[string]func([]byte) error{
`, importPath)
	for _, n := range names {
		fmt.Fprintf(&b, "\t%q: errOf(gen.Decode%s),\n", n, n)
	}
	b.WriteString(`}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		name, enc, _ := strings.Cut(in.Text(), "\t")
		dec, ok := decoders[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown target %q\n", name)
			os.Exit(2)
		}
		data, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bad payload for %s: %v\n", name, err)
			os.Exit(2)
		}
		switch err := dec(data); {
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
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "read cases: %v\n", err)
		os.Exit(2)
	}
	if err := out.Flush(); err != nil {
		os.Exit(2)
	}
}
`)
	return format.Source(b.Bytes())
}

// buildDraftHarness generates the draft tree's package and builds the
// harness over it.
func buildDraftHarness(t *testing.T, source string, names []string) string {
	t.Helper()
	// The draft's OpenRPC file leaves out info.version, which names the
	// release in generated code; give it the draft's label.
	return buildHarness(t, withInfoVersion(t, os.DirFS(source), schemas.OpenRPCPath, "2026-08-21"), schemas.OpenRPCPath, "draft", names)
}

// buildHarness generates the package of the OpenRPC file openrpc inside fsys
// into a scratch folder inside this module (a leading underscore keeps ./...
// patterns away from it), writes the harness beside it, builds it and
// returns the executable.
func buildHarness(t *testing.T, fsys fs.FS, openrpc, pkg string, names []string) string {
	t.Helper()
	files, err := generator.Generate(generator.Config{FS: fsys, OpenRPC: openrpc, Package: pkg})
	if err != nil {
		t.Fatalf("generate %s: %v", pkg, err)
	}
	_, importPath := scratchPackage(t, pkg, files)
	src, err := harnessSource(importPath, names)
	if err != nil {
		t.Fatalf("format harness: %v", err)
	}
	exe := filepath.Join(t.TempDir(), pkg+"harness")
	cmd := exec.Command("go", "build", "-o", exe, scratchMain(t, pkg+"diff", src))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s harness: %v\n%s", pkg, err, out)
	}
	return exe
}

// runHarness returns the harness's verdict for every case, in order.
func runHarness(t *testing.T, exe string, cases []testCase, tgs map[string]target) []verdict {
	t.Helper()
	var in bytes.Buffer
	for _, c := range cases {
		fmt.Fprintf(&in, "%s\t%s\n", tgs[c.target].name, base64.StdEncoding.EncodeToString(c.data))
	}
	var stderr bytes.Buffer
	cmd := exec.Command(exe)
	cmd.Stdin = &in
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run harness: %v\n%s", err, stderr.Bytes())
	}
	var vs []verdict
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		kind, quoted, _ := strings.Cut(sc.Text(), "\t")
		v := verdict{accept: kind == "accept", wrongType: kind == "wrongtype"}
		switch kind {
		case "accept":
		case "reject", "wrongtype":
			msg, err := strconv.Unquote(quoted)
			if err != nil {
				t.Fatalf("harness line %d: %v: %q", len(vs)+1, err, sc.Text())
			}
			v.msg = msg
		default:
			t.Fatalf("harness line %d: unknown verdict %q", len(vs)+1, sc.Text())
		}
		vs = append(vs, v)
	}
	if len(vs) != len(cases) {
		t.Fatalf("harness answered %d of %d cases", len(vs), len(cases))
	}
	return vs
}

// draftCases are hand-written payloads for what the draft adds or changes:
// the inventory filter, amenities as a list on a Location, the release's
// items filter and amenity map (which the draft does not define), and the
// meta idempotency-key with format uuid.
func draftCases(t *testing.T, seeds []testCase) []testCase {
	var out []testCase
	add := func(key, name string, data []byte) {
		out = append(out, testCase{"draft case " + name, key, data})
	}
	for i, s := range []string{
		`{"filters":{"inventory":[]}}`,
		`{"filters":{"inventory":[{"id":"a"},{"id":"a"}]}}`,
		`{"filters":{"inventory":[{}]}}`,
		`{"filters":{"inventory":[{"id":1}]}}`,
		`{"filters":{"inventory":[{"id":""}]}}`,
		`{"filters":{"inventory":[{"id":"a","availability_status":"in_stock","x":1}]}}`,
		`{"filters":{"inventory":[{"id":"a","availability_status":null}]}}`,
		`{"filters":{"inventory":[{"ID":"a"}]}}`,
		`{"filters":{"inventory":{"id":"a"}}}`,
		`{"filters":{"inventory":[null]}}`,
		`{"filters":{"inventory":["a"]}}`,
		`{"filters":{"items":["a"]}}`,
		`{"filters":{"items":[]}}`,
		`{"filters":{"amenities":[]}}`,
		`{"filters":{"amenities":{"dev.ucp.amenity.parking":{"description":"x"}}}}`,
	} {
		add("common/location_search request", fmt.Sprintf("search %d", i), []byte(s))
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		m["ids"] = []any{"loc_1"}
		add("common/location_lookup request", fmt.Sprintf("lookup %d", i), mustJSON(t, m))
	}
	for i, s := range []string{
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123e4567-e89b-12d3-a456-426614174000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123E4567-E89B-12D3-A456-426614174000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"00000000-0000-0000-0000-000000000000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123e4567e89b12d3a456426614174000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"{123e4567-e89b-12d3-a456-426614174000}"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"urn:uuid:123e4567-e89b-12d3-a456-426614174000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123e4567-e89b-12d3-a456-42661417400g"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123e4567-e89b-12d3-a456-4266141740000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":"123e4567-e89b-12d3-a4564-26614174000"}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":""}`,
		`{"ucp-agent":{"profile":"https://example.com/p.json"},"idempotency-key":42}`,
	} {
		add("meta request", fmt.Sprintf("meta %d", i), []byte(s))
	}
	var loc map[string]any
	for _, s := range seeds {
		if s.target == "common/types/location response" {
			if err := json.Unmarshal(s.data, &loc); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if loc == nil {
		t.Fatalf("no Location example among the draft seeds")
	}
	for i, s := range []string{
		`[]`,
		`["dev.ucp.amenity.parking"]`,
		`["dev.ucp.amenity.parking","dev.ucp.amenity.parking"]`,
		`["com.example.amenity.in_person_installation"]`,
		`["Dev.ucp.amenity"]`,
		`["dev"]`,
		`[""]`,
		`[null]`,
		`{"dev.ucp.amenity.parking":{"description":"On-site parking"}}`,
		`"dev.ucp.amenity.parking"`,
	} {
		l := cloneMap(loc)
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		l["amenities"] = v
		add("common/types/location response", fmt.Sprintf("location amenities %d", i), mustJSON(t, l))
	}
	return out
}

// TestDifferentialDraft runs the release differential against the
// pre-release draft tree: the draft's package is generated and built at test
// time, and its verdicts on the draft examples, the release examples, the
// seed's envelopes, every mutant of those and the hand-written cases must
// equal santhosh-tekuri/jsonschema/v6 compiled against the draft tree.
func TestDifferentialDraft(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the generated draft package (not in -short mode)")
	}
	start := time.Now()
	source := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "source")
	draftExamples := testshared.Path(t, "ucp-upstream", "draft-2026-08-21", "examples")
	releaseExamples := testshared.Path(t, "ucp-upstream", "2026-08-25", "examples")
	tgs := draftTargets()

	draftSeeds := exampleCases(t, draftExamples, tgs)
	var seeds []testCase
	for _, s := range draftSeeds {
		s.name = "draft/" + s.name
		seeds = append(seeds, s)
	}
	for _, s := range exampleCases(t, releaseExamples, tgs) {
		s.name = "release/" + s.name
		seeds = append(seeds, s)
	}
	seeds = append(seeds, envelopeCases(t)...)
	if len(draftSeeds) < 10 {
		t.Fatalf("only %d draft example payloads found", len(draftSeeds))
	}

	// Examples shared by both trees, and their mutants, repeat: keep the
	// first of each (target, payload) so the count is of distinct cases.
	key := func(c testCase) string { return c.target + "\x00" + string(c.data) }
	index := map[string]int{}
	var cases []testCase
	all := corpus(t, seeds)
	all = append(all, draftCases(t, draftSeeds)...)
	for _, c := range all {
		if _, ok := index[key(c)]; !ok {
			index[key(c)] = len(cases)
			cases = append(cases, c)
		}
	}

	refs := map[string]*jsonschema.Schema{}
	names := make([]string, 0, len(tgs))
	for k, tg := range tgs {
		refs[k] = referenceIn(t, os.DirFS(source), tg)
		names = append(names, tg.name)
	}
	sort.Strings(names)
	exe := buildDraftHarness(t, source, names)
	built := time.Now()
	ours := runHarness(t, exe, cases, tgs)

	disagree, accepted := 0, 0
	for i, c := range cases {
		v := ours[i]
		theirs := referenceVerdict(refs[c.target], c.data)
		if v.accept {
			accepted++
		}
		if v.wrongType {
			t.Errorf("%s: error is not *rpcerr.InvalidParams: %s", c.name, v.msg)
		}
		if v.accept != (theirs == nil) {
			disagree++
			if disagree <= 20 {
				ourMsg := "<nil>"
				if !v.accept {
					ourMsg = v.msg
				}
				t.Errorf("%s (%s): ours=%s reference=%s\npayload: %s", c.name, tgs[c.target].name, ourMsg, firstLine(theirs), c.data)
			}
		}
	}
	t.Logf("draft differential: %d distinct cases (%d seeds, %d repeats dropped), %d accepted, %d rejected, %d disagreements; generate+build %v, run %v",
		len(cases), len(seeds), len(all)-len(cases), accepted, len(cases)-accepted, disagree,
		built.Sub(start).Round(time.Millisecond), time.Since(built).Round(time.Millisecond))
	if disagree > 20 {
		t.Errorf("%d disagreements in all (first 20 shown)", disagree)
	}

	// The draft's own examples are valid draft payloads: both sides must
	// accept them, which also shows the harness is wired to real decoders.
	for _, s := range draftSeeds {
		if v := ours[index[key(s)]]; !v.accept {
			t.Errorf("draft example %s rejected: %s", s.name, v.msg)
		}
		if err := referenceVerdict(refs[s.target], s.data); err != nil {
			t.Errorf("draft example %s rejected by the reference: %v", s.name, firstLine(err))
		}
	}
}
