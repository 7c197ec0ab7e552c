package ucpcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestFixedNegotiationFollowsTheVersion: without a Negotiator an endpoint
// answers at Options.Version, also after that changes between calls (the
// fixed negotiator is kept from one call to the next).
func TestFixedNegotiationFollowsTheVersion(t *testing.T) {
	opts := &ucpcore.Options{Version: "2026-08-25"}
	ep := ucpcore.NewEndpoint(greetTool(), opts)
	args := json.RawMessage(`{"meta":{"ucp-agent":{"profile":"https://agent.example/profile.json"}},"who":"world"}`)
	for _, version := range []string{"2026-08-25", "2026-08-25", "2027-01-11", "2026-08-25"} {
		opts.Version = version
		body, err := ep.Call(context.Background(), args)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"ucp":{"version":"` + version + `","capabilities":{"dev.example.greet":[{"version":"` + version + `"}]}}`
		if !strings.HasPrefix(string(body), want) {
			t.Fatalf("at %s: %s", version, body)
		}
	}
}
