// Command minimal is a complete UCP Location Business: five stores in memory,
// served over MCP by the generated NewService.
package main

import (
	"context"
	"log"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

var stores = []string{ // sorted by id, the order Candidates returns
	`{"id":"s1","name":"Harbour Books","geo":{"latitude":51.5080,"longitude":-0.0760}}`,
	`{"id":"s2","name":"Canal Books","geo":{"latitude":51.5362,"longitude":-0.1033}}`,
	`{"id":"s3","name":"Museum Books","geo":{"latitude":51.5194,"longitude":-0.1270}}`,
	`{"id":"s4","name":"Riverside Books","geo":{"latitude":51.4613,"longitude":-0.3037}}`,
	`{"id":"s5","name":"Station Books","geo":{"latitude":51.5033,"longitude":-0.1123}}`,
}

// shop is the data source; NewService does the protocol work around it.
type shop struct{ locs []*ucploc.Location }

func (shop) Capabilities() ucploc.SourceCapabilities { return ucploc.SourceCapabilities{} }

func (s shop) Candidates(_ context.Context, h ucploc.Hints) (out []ucploc.Candidate, _ error) {
	for _, l := range s.locs { // every score is 0, so id order is also relevance order
		if (h.After == nil || l.ID > h.After.ID) && len(out) < h.Limit {
			out = append(out, ucploc.Candidate{Location: l})
		}
	}
	return out, nil
}

func (s shop) Resolve(_ context.Context, ids []string) (map[string][]ucploc.Candidate, error) {
	out := map[string][]ucploc.Candidate{}
	for _, l := range s.locs {
		if slices.Contains(ids, l.ID) {
			out[l.ID] = []ucploc.Candidate{{Location: l}}
		}
	}
	return out, nil
}

// Serves is never called (Capabilities offers no serves target); no stock is tracked.
func (shop) Serves(context.Context, ucploc.ServesTarget, []ucploc.Candidate) ([]bool, error) {
	return nil, nil
}
func (shop) Items(_ context.Context, _ []string, c []ucploc.Candidate) ([]bool, error) {
	return make([]bool, len(c)), nil
}

func newHooks() (*ucploc.Service, error) {
	var s shop
	for _, js := range stores {
		l, err := ucploc.DecodeLocation([]byte(js))
		if err != nil {
			return nil, err
		}
		s.locs = append(s.locs, l)
	}
	return ucploc.NewService(s, ucploc.ServiceOptions{})
}

func main() {
	hooks, err := newHooks()
	if err != nil {
		log.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "1"}, nil)
	if err := ucploc.Register(server, hooks, &mcpserver.Options{}); err != nil {
		log.Fatal(err)
	}
	http.Handle("/ucp/mcp", mcpserver.Handler(server, nil))
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", nil))
}
