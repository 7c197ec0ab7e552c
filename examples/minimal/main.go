// Command minimal is a complete UCP Location Business: five stores in memory,
// served over MCP and REST by the generated NewService.
package main

import (
	"context"
	"log"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/restserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
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

// business serves the stores reached at origin: MCP at /ucp/mcp, REST below
// /ucp, and the profile advertising both at /.well-known/ucp.
func business(origin string) (http.Handler, error) {
	hooks, err := newHooks()
	if err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "1"}, nil)
	opts := &ucpcore.Options{}
	if err := ucploc.Register(server, hooks, opts); err != nil {
		return nil, err
	}
	budget := ucpcore.NewBudget(ucpcore.BudgetOptions{}) // one for both transports
	rest, err := ucploc.RESTHandler(hooks, opts, &restserver.Options{Base: "/ucp", Budget: budget})
	if err != nil {
		return nil, err
	}
	profile, err := ucploc.BusinessProfileWithREST(hooks, origin+"/ucp/mcp", origin+"/ucp")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/ucp/mcp", mcpserver.Handler(server, &mcpserver.HTTPOptions{Budget: budget}))
	mux.Handle("/ucp/", rest)
	mux.Handle("/.well-known/ucp", ucpcore.ProfileHandler(profile))
	return mux, nil
}

func main() {
	h, err := business("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
