package location_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
)

// searchOnly adopts one capability of the two.
type searchOnly struct{ seedHooks }

func (searchOnly) LookupLocations() {} // not the hook: another signature

type onlySearch struct{ h *seedHooks }

func (s onlySearch) SearchLocations(ctx context.Context, m *location.Meta, r *location.SearchRequest) (*location.SearchResponse, error) {
	return s.h.SearchLocations(ctx, m, r)
}

// TestServesWhatHooksImplement registers hooks that adopt some of the
// capabilities and checks, over MCP and in the profile, that exactly those
// are served: the others have no tool (a call is the unknown tool error)
// and no profile entry. (REST, which an input without a REST binding does
// not generate, is held to the same in examples/minimal.)
func TestServesWhatHooksImplement(t *testing.T) {
	both := &seedHooks{}
	tests := []struct {
		name  string
		hooks location.Hooks
		want  []string // tools served
	}{
		{"both", both, []string{"lookup_locations", "search_locations"}},
		{"search only", onlySearch{both}, []string{"search_locations"}},
		{"lookup left out", location.Omit(both, "dev.ucp.common.location.lookup"), []string{"search_locations"}},
		{"composed", location.Compose(onlySearch{both}, location.Omit(both, "dev.ucp.common.location.search")), []string{"lookup_locations", "search_locations"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, tc.hooks, nil)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range res.Tools {
				got = append(got, tl.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("tools/list = %v, want %v", got, tc.want)
			}
			if !slices.Contains(tc.want, "lookup_locations") {
				_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lookup_locations", Arguments: json.RawMessage(`{"meta":{"ucp-agent":{"profile":"https://p.example/p.json"}},"location":{"ids":["a"]}}`)})
				if err == nil || !strings.Contains(err.Error(), "unknown tool") {
					t.Errorf("call of an unserved tool: %v, want the unknown tool error", err)
				}
			}

			doc, err := location.BusinessProfile(tc.hooks, "https://shop.example/ucp/mcp")
			if err != nil {
				t.Fatal(err)
			}
			var profile struct {
				UCP struct{ Capabilities map[string]json.RawMessage }
			}
			if err := json.Unmarshal(doc, &profile); err != nil {
				t.Fatal(err)
			}
			var caps []string
			for c := range profile.UCP.Capabilities {
				caps = append(caps, strings.TrimPrefix(c, "dev.ucp.common.location."))
			}
			slices.Sort(caps)
			var wantCaps []string
			for _, tool := range tc.want {
				wantCaps = append(wantCaps, strings.TrimSuffix(tool, "_locations"))
			}
			if !slices.Equal(caps, wantCaps) {
				t.Errorf("profile capabilities %v, want %v", caps, wantCaps)
			}
		})
	}
}

// TestHooksThatServeNothingAreRefused checks that Register and the profile
// refuse hooks that implement no capability, or one only in
// part, naming the interfaces and what is wrong.
func TestHooksThatServeNothingAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hooks location.Hooks
		want  []string
	}{
		{"nothing", struct{}{}, []string{"implement none of the capabilities", "LocationSearchHooks (dev.ucp.common.location.search)", "LocationLookupHooks (dev.ucp.common.location.lookup)"}},
		{"nil", nil, []string{"hooks are nil"}},
		{"a wrong signature", searchOnly{}, []string{"LocationLookupHooks (dev.ucp.common.location.lookup) only in part", "LookupLocations is func() ()"}},
		{"an unknown omission", location.Omit(&seedHooks{}, "dev.ucp.common.ask"), []string{`Omit names "dev.ucp.common.ask", which is not a capability of this package`}},
		{"everything omitted", location.Omit(&seedHooks{}, "dev.ucp.common.location.search", "dev.ucp.common.location.lookup"), []string{"implement none of the capabilities"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			_, profileErr := location.BusinessProfile(tc.hooks, "https://shop.example/ucp/mcp")
			_, toolsErr := location.Tools(tc.hooks)
			for i, err := range []error{location.Register(server, tc.hooks, nil), profileErr, toolsErr} {
				if err == nil {
					t.Fatalf("entry point %d accepted the hooks", i)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("entry point %d: %q does not say %q", i, err, w)
					}
				}
			}
		})
	}
}
