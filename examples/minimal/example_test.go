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

// TestReadmeShowsThisProgram keeps the README's "Use ucpgen in your own
// service" code identical to main.go, which this package compiles and
// Example runs, so the README cannot rot.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(src)+"```\n") {
		t.Error("README.md does not contain examples/minimal/main.go verbatim in a go code block; copy the file into the README")
	}
}
