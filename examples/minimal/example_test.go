package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
)

// Example runs the README's minimal Business: a distance search, two per
// page, and a lookup with an unknown id.
func Example() {
	hooks, err := newHooks()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	sreq, err := ucploc.DecodeSearchRequest([]byte(`{"distance":{"center":{"latitude":51.5072,"longitude":-0.1276},"max":4000},"pagination":{"limit":2}}`))
	if err != nil {
		panic(err)
	}
	sresp, err := hooks.SearchLocations(ctx, nil, sreq)
	if err != nil {
		panic(err)
	}
	for _, l := range sresp.Locations {
		fmt.Println("search:", l.ID, l.Name)
	}
	fmt.Println("next page:", sresp.Pagination.V.HasNextPage)

	lreq, err := ucploc.DecodeLookupRequest([]byte(`{"ids":["s4","nope"]}`))
	if err != nil {
		panic(err)
	}
	lresp, err := hooks.LookupLocations(ctx, nil, lreq)
	if err != nil {
		panic(err)
	}
	for _, l := range lresp.Locations {
		fmt.Println("lookup:", l.ID, "from", l.Inputs[0].ID)
	}
	for _, m := range lresp.Messages.V {
		fmt.Println("message:", m.Info.Code.V)
	}
	// Output:
	// search: s1 Harbour Books
	// search: s2 Canal Books
	// next page: true
	// lookup: s4 from s4
	// message: not_found
}

// readmeImport is the import the README's copy of main.go uses instead of
// ucpgen's own generated package: the user's package, which their
// //go:generate line writes, so a copied Business follows their next bump.
const (
	ownImport    = `ucploc "github.com/ucpgen/ucpgen/generated/location"`
	readmeImport = `"example.com/shop/internal/ucploc"`
	// sourcesSection is the README section whose programs serve the
	// ready-made sources, which are typed on ucpgen's generated/location.
	sourcesSection = "## Serve your own stores"
)

// TestReadmeShowsThisProgram keeps the README's "Use ucpgen in your own
// service" code identical to main.go, which this package compiles and
// Example runs, up to the generated package's import path, so the README
// cannot rot and never points a user at ucpgen's own generated code.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(src), ownImport) != 1 {
		t.Fatalf("main.go does not import %s exactly once", ownImport)
	}
	want := strings.Replace(string(src), ownImport, readmeImport, 1)
	if !strings.Contains(string(readme), "```go\n"+want+"```\n") {
		t.Error("README.md does not contain examples/minimal/main.go, with " + readmeImport + " as its import, verbatim in a go code block; copy the file into the README")
	}
	// The sources section's programs serve ucpgen's own generated/location,
	// the type the ready-made sources are built on; everywhere else a
	// user's Business imports their own generated package.
	own := string(readme)
	if i := strings.Index(own, "\n"+sourcesSection+"\n"); i >= 0 {
		j := strings.Index(own[i+1:], "\n## ")
		if j < 0 {
			t.Fatalf("README.md section %q runs to the end of the file", sourcesSection)
		}
		own = own[:i] + own[i+1+j:]
	}
	if strings.Contains(own, `"github.com/ucpgen/ucpgen/generated/`) {
		t.Errorf("README.md imports a package of ucpgen's generated/ folder outside %q; a user's Business imports their own generated package", sourcesSection)
	}
}
