// Command twoversions serves a Location Business at the current UCP version
// and, from the same data, at the previous one, for Platforms that have not
// moved yet: each version has its own MCP endpoint and profile, and the
// current profile lists the previous one in supported_versions.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
	old "github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// conversion is the code the older version asks for: one method per member
// whose shape changed between the versions (old.Conversion lists them).
type conversion struct{}

// MetaIdempotencyKey drops the key: search and lookup only read.
func (conversion) MetaIdempotencyKey(*old.Meta, *ucploc.Meta) error { return nil }

// LocationFilterInventory asks for in-stock items, all that filters.items says.
func (conversion) LocationFilterInventory(in *old.LocationFilter, out *ucploc.LocationFilter) error {
	for i, f := range in.Inventory.V {
		if s, ok := f.AvailabilityStatus.Get(); ok && s != "in_stock" {
			return rpcerr.Invalid(fmt.Sprintf("/inventory/%d/availability_status", i), "enum", "only in_stock is served, not %q", s)
		}
		out.Items.V, out.Items.Set = append(out.Items.V, f.ID), true
	}
	return nil
}

// LocationAmenities lists the amenity map's identifiers, sorted.
func (conversion) LocationAmenities(in opt.Value[map[ucploc.AmenityType]ucploc.Amenity], out *opt.Value[[]old.AmenityType]) error {
	out.V, out.Set = make([]old.AmenityType, 0, len(in.V)), in.Set
	for id := range in.V {
		out.V = append(out.V, old.AmenityType(id))
	}
	slices.Sort(out.V)
	return nil
}

// stores is the data source, read at both versions through the current one.
type stores []*ucploc.Location

func (stores) Capabilities() ucploc.SourceCapabilities { return ucploc.SourceCapabilities{} }

func (s stores) Candidates(_ context.Context, h ucploc.Hints) (out []ucploc.Candidate, _ error) {
	for _, l := range s { // sorted by id, every score 0
		if (h.After == nil || l.ID > h.After.ID) && len(out) < h.Limit {
			out = append(out, ucploc.Candidate{Location: l})
		}
	}
	return out, nil
}

func (s stores) Resolve(_ context.Context, ids []string) (map[string][]ucploc.Candidate, error) {
	out := map[string][]ucploc.Candidate{}
	for _, l := range s {
		if slices.Contains(ids, l.ID) {
			out[l.ID] = []ucploc.Candidate{{Location: l}}
		}
	}
	return out, nil
}

func (stores) Serves(context.Context, ucploc.ServesTarget, []ucploc.Candidate) ([]bool, error) {
	return nil, nil
}

func (stores) Items(_ context.Context, _ []string, c []ucploc.Candidate) ([]bool, error) {
	return make([]bool, len(c)), nil
}

// business serves both versions to Platforms reaching it at origin.
func business(origin string) (http.Handler, error) {
	l, err := ucploc.DecodeLocation([]byte(`{"id":"s1","name":"Harbour Books","amenities":{"dev.ucp.amenity.wi_fi":{"description":"Free Wi-Fi"}}}`))
	if err != nil {
		return nil, err
	}
	hooks, err := ucploc.NewService(stores{l}, ucploc.ServiceOptions{})
	if err != nil {
		return nil, err
	}
	previous := old.ServeFrom(hooks, conversion{})
	current := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: ucploc.ProtocolVersion}, nil)
	if err := ucploc.Register(current, hooks, nil); err != nil {
		return nil, err
	}
	older := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: old.ProtocolVersion}, nil)
	if err := old.Register(older, previous, nil); err != nil {
		return nil, err
	}
	leaf, err := old.BusinessProfile(previous, origin+"/ucp/"+old.ProtocolVersion+"/mcp")
	if err != nil {
		return nil, err
	}
	profile, err := ucploc.BusinessProfile(hooks, origin+"/ucp/mcp")
	if err != nil {
		return nil, err
	}
	leafURI := origin + "/.well-known/ucp/" + old.ProtocolVersion
	profile, err = ucpcore.WithSupportedVersions(profile, []ucpcore.SupportedVersion{{Version: old.ProtocolVersion, URI: leafURI, Profile: leaf}})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/ucp/mcp", mcpserver.Handler(current, nil))
	mux.Handle("/ucp/"+old.ProtocolVersion+"/mcp", mcpserver.Handler(older, nil))
	mux.Handle("/.well-known/ucp", ucpcore.ProfileHandler(profile))
	mux.Handle("/.well-known/ucp/"+old.ProtocolVersion, ucpcore.ProfileHandler(leaf))
	return mux, nil
}

func main() {
	h, err := business("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
