package negotiation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing/fstest"

	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// A Business offering search (with a curbside extension) and lookup meets a
// Platform that supports search and the extension but not lookup.
func ExampleIntersect() {
	business := map[string][]negotiation.CapabilityVersion{
		"dev.ucp.common.location.search": {{Version: "2026-08-25"}},
		"dev.ucp.common.location.lookup": {{Version: "2026-08-25"}},
		"com.example.location.curbside":  {{Version: "2026-07-01", Extends: negotiation.Parents{"dev.ucp.common.location.search"}}},
	}
	platform := map[string][]negotiation.CapabilityVersion{
		"dev.ucp.common.location.search": {{Version: "2026-04-08"}, {Version: "2026-08-25"}},
		"com.example.location.curbside":  {{Version: "2026-07-01"}},
	}
	active := negotiation.Intersect(business, platform)
	names := make([]string, 0, len(active))
	for name := range active {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Println(name, active[name].Version)
	}
	// Output:
	// com.example.location.curbside 2026-07-01
	// dev.ucp.common.location.search 2026-08-25
}

// How an MCP tool handler uses a Negotiator: a discovery error becomes the
// -32001 JSON-RPC error, an incompatible outcome becomes a successful result
// with ucp.status "error", anything else proceeds and echoes UCP().
func ExampleNegotiator() {
	var n negotiation.Negotiator = negotiation.Disabled{
		Version: "2026-08-25",
		Capabilities: map[string][]negotiation.CapabilityVersion{
			"dev.ucp.common.location.search": {{Version: "2026-08-25"}},
		},
	}
	for _, tool := range []string{"dev.ucp.common.location.search", "dev.ucp.common.location.lookup"} {
		out, err := n.Negotiate(context.Background(), "https://platform.example/profile.json", tool)
		if d, ok := rpcerr.AsDiscovery(err); ok {
			fmt.Println("JSON-RPC error -32001:", d.Code)
			continue
		}
		if !out.Compatible {
			msg, _ := json.Marshal(out.IncompatibleMessage())
			ucp, _ := json.Marshal(out.UCP())
			fmt.Printf("%s %s\n", ucp, msg)
			continue
		}
		ucp, _ := json.Marshal(out.UCP())
		fmt.Printf("%s\n", ucp)
	}
	// Output:
	// {"version":"2026-08-25","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}}
	// {"version":"2026-08-25","status":"error","capabilities":{}} {"type":"error","code":"capabilities_incompatible","content":"Capability dev.ucp.common.location.lookup is not supported by both the platform and the business at a common version.","severity":"unrecoverable"}
}

// Production wiring: an HTTPSource with its safe defaults behind a
// ProfileNegotiator that knows the Business's current and older profiles.
func ExampleProfileNegotiator() {
	src, err := negotiation.NewHTTPSource(negotiation.HTTPOptions{})
	if err != nil {
		fmt.Println("configure profile source:", err)
		return
	}
	defer src.CloseIdleConnections()
	n := &negotiation.ProfileNegotiator{
		Source: src,
		Current: negotiation.Business{
			Version: "2026-08-25",
			Capabilities: map[string][]negotiation.CapabilityVersion{
				"dev.ucp.common.location.search": {{Version: "2026-08-25"}},
				"dev.ucp.common.location.lookup": {{Version: "2026-08-25"}},
			},
		},
		ContinueURL: "https://shop.example/stores",
	}
	_ = negotiation.Negotiator(n) // handed to the MCP layer
}

// A Business serving an older version beside the current one: each version
// carries the profile schema its Platforms are checked by, and each endpoint
// gets the negotiator fixed at its own version.
func ExampleProfileNegotiator_At() {
	src, err := negotiation.NewHTTPSource(negotiation.HTTPOptions{})
	if err != nil {
		fmt.Println("configure profile source:", err)
		return
	}
	defer src.CloseIdleConnections()
	// The older version's own schema tree (in a real Business, the tree its
	// older package was generated from; a minimal stand-in here).
	older, err := negotiation.CompileProfileSchema(fstest.MapFS{
		"schemas/ucp.json": {Data: []byte(`{"$id": "https://ucp.dev/schemas/ucp.json", "$defs": {"platform_schema": {"type": "object"}}}`)},
	})
	if err != nil {
		fmt.Println("older profile schema:", err)
		return
	}
	search := func(v string) map[string][]negotiation.CapabilityVersion {
		return map[string][]negotiation.CapabilityVersion{"dev.ucp.common.location.search": {{Version: v}}}
	}
	n := &negotiation.ProfileNegotiator{
		Source:  src,
		Current: negotiation.Business{Version: "2026-08-25", Capabilities: search("2026-08-25")},
		Older:   []negotiation.Business{{Version: "2026-08-21", Capabilities: search("2026-08-21"), Schema: older}},
	}
	for _, v := range []string{"2026-08-25", "2026-08-21", "2026-01-11"} {
		_, err := n.At(v) // the Negotiator of the endpoint serving v
		fmt.Println(v, err == nil)
	}
	// Output:
	// 2026-08-25 true
	// 2026-08-21 true
	// 2026-01-11 false
}
