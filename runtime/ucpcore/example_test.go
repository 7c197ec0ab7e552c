package ucpcore_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// greetTool is a hand-written Tool of the shape generated code produces:
// the meta argument every UCP tool takes, one argument of its own, and a
// Bind that decodes and validates them before the hook runs.
func greetTool() ucpcore.Tool {
	return ucpcore.Tool{
		Name:        "greet",
		Capability:  "dev.example.greet",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Params:      []ucpcore.Param{{Name: ucpcore.MetaParam, Required: true}, {Name: "who", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var who string
			if json.Unmarshal(args[1], &who) != nil || who == "" {
				return nil, ucpcore.ArgumentErrors([]string{"who"}, rpcerr.Invalid("", "type", "must be a non-empty string"))
			}
			return func(context.Context) (any, error) {
				return map[string]string{"greeting": "hello, " + who}, nil
			}, nil
		},
	}
}

// An Endpoint runs one call the way every transport does: the arguments
// are split and validated, the call is charged and negotiated, the hook
// runs, and the answer carries the negotiated ucp member.
func ExampleEndpoint_Call() {
	ep := ucpcore.NewEndpoint(greetTool(), &ucpcore.Options{Version: "2026-08-25"})
	meta := `{"ucp-agent":{"profile":"https://agent.example/profile.json"}}`

	body, err := ep.Call(context.Background(), json.RawMessage(`{"meta":`+meta+`,"who":"world"}`))
	fmt.Println(string(body), err)

	_, err = ep.Call(context.Background(), json.RawMessage(`{"meta":`+meta+`,"who":7}`))
	fmt.Println(err)
	// Output:
	// {"ucp":{"version":"2026-08-25","capabilities":{"dev.example.greet":[{"version":"2026-08-25"}]}},"greeting":"hello, world"} <nil>
	// invalid params: /who: must be a non-empty string
}

// BusinessProfile renders the /.well-known/ucp document a Business serves;
// AddProfileService adds another transport's entry to it.
func ExampleBusinessProfile() {
	profile, err := ucpcore.BusinessProfile("2026-08-25",
		[]ucpcore.ProfileService{{Name: "dev.ucp.common", Version: "2026-08-25", Transport: "mcp", Endpoint: "https://shop.example/ucp/mcp"}},
		[]ucpcore.ProfileCapability{{Name: "dev.example.greet", Version: "2026-08-25", Schema: "https://shop.example/greet.json"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	profile, err = ucpcore.AddProfileService(profile, ucpcore.ProfileService{Name: "dev.ucp.common", Version: "2026-08-25", Transport: "rest", Endpoint: "https://shop.example/ucp"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var doc struct {
		UCP struct {
			Services map[string][]map[string]string `json:"services"`
		} `json:"ucp"`
	}
	json.Unmarshal(profile, &doc)
	for _, s := range doc.UCP.Services["dev.ucp.common"] {
		fmt.Println(s["transport"], s["endpoint"])
	}
	// Output:
	// mcp https://shop.example/ucp/mcp
	// rest https://shop.example/ucp
}

// A Budget is shared by every transport of a Business; a call is charged
// to it under a context from WithBudget, once, to its agent profile.
func ExampleWithBudget() {
	budget := ucpcore.NewBudget(ucpcore.BudgetOptions{RateLimit: &ucpcore.RateLimit{PerSecond: 0.001, Burst: 1}})
	ep := ucpcore.NewEndpoint(greetTool(), &ucpcore.Options{Version: "2026-08-25"})
	args := json.RawMessage(`{"meta":{"ucp-agent":{"profile":"https://agent.example/p.json"}},"who":"world"}`)
	for range 2 {
		ctx := ucpcore.WithBudget(context.Background(), budget, "192.0.2.1")
		_, err := ep.Call(ctx, args)
		fmt.Println(err, ucpcore.ToolCharged(ctx))
	}
	// Output:
	// <nil> true
	// transport error 429: rate limit exceeded for this caller true
}
