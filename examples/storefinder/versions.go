package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
	"github.com/ucpgen/ucpgen/runtime/restserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
	"github.com/ucpgen/ucpgen/schemas"
)

// olderVersion is one previous UCP version this Business can serve beside
// the current one, from the current package's Source: what its generated
// package provides, bound once in a table so the wiring stays generic.
type olderVersion struct {
	// serve answers the version through the current version's hooks
	// (and so from its Source) with the version's conversion.
	serve func(newer location.Hooks) any
	// register adds the version's tools to server, rest is its REST
	// binding, profile renders its leaf Business profile for its MCP
	// endpoint and REST base URL, and capabilities lists what it
	// advertises: each of the hooks serve returned.
	register     func(server *mcp.Server, hooks any, opts *ucpcore.Options) error
	rest         func(hooks any, opts *ucpcore.Options, rest *restserver.Options) (http.Handler, error)
	profile      func(hooks any, mcpEndpoint, restEndpoint string) ([]byte, error)
	capabilities func(hooks any) ([]ucpcore.ProfileCapability, error)
	// schemas is the version's schema tree, whose platform profile schema
	// checks the Platforms that speak it.
	schemas fs.FS
}

// olderVersions are the versions --supported-versions may name, keyed by
// version. 2026-08-21 is the draft tree standing in for a real previous
// release, which is why it is off by default.
var olderVersions = map[string]olderVersion{
	location20260821.ProtocolVersion: {
		serve: func(newer location.Hooks) any {
			return location20260821.ServeFrom(newer, conversion20260821{})
		},
		register:     location20260821.Register,
		rest:         location20260821.RESTHandler,
		profile:      location20260821.BusinessProfileWithREST,
		capabilities: location20260821.Capabilities,
		schemas:      schemas.Previous,
	},
}

// versionList is the --supported-versions flag: a comma-separated list of
// versions from olderVersions, kept as its normalised text so config stays
// comparable.
type versionList string

func (l *versionList) String() string { return string(*l) }

func (l *versionList) Set(s string) error {
	var vs []string
	for v := range strings.SplitSeq(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if _, ok := olderVersions[v]; !ok {
			return fmt.Errorf("version %q is not one this storefinder can serve (it can serve %s beside %s)", v, knownVersions(), location.ProtocolVersion)
		}
		if slices.Contains(vs, v) {
			return fmt.Errorf("version %s is listed twice", v)
		}
		vs = append(vs, v)
	}
	*l = versionList(strings.Join(vs, ","))
	return nil
}

// versions lists the flag's versions in the order given.
func (l versionList) versions() []string {
	if l == "" {
		return nil
	}
	return strings.Split(string(l), ",")
}

// knownVersions lists olderVersions' keys for messages.
func knownVersions() string {
	var vs []string
	for v := range olderVersions {
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		return "no older version"
	}
	slices.Sort(vs)
	return strings.Join(vs, ", ")
}

// servers are the MCP servers of one storefinder process: the current
// version's and one per older version served beside it, all over the same
// Source.
type servers struct {
	current *mcp.Server
	older   []olderServer
	// hooks and opts are the current version's tools as registered, which
	// the REST binding serves too (nil hooks: MCP only).
	hooks locationHooks
	opts  *ucpcore.Options
}

// restBase is the base path of the current version's REST binding; its
// operations are POST /ucp/locations/search and /ucp/locations/lookup.
const restBase = "/ucp"

// restPath is the base path of a version's REST binding: the current
// version keeps /ucp, an older one gets /ucp/<version>.
func restPath(version string) string {
	if version == location.ProtocolVersion {
		return restBase
	}
	return "/ucp/" + version
}

// olderServer is an older version's MCP server with its REST binding and
// profile renderer.
type olderServer struct {
	version string
	server  *mcp.Server
	// hooks and opts are this version's hooks (served from the current
	// version's) and options, from which its REST handler is built.
	hooks   any
	opts    *ucpcore.Options
	rest    func(hooks any, opts *ucpcore.Options, rest *restserver.Options) (http.Handler, error)
	profile func(hooks any, mcpEndpoint, restEndpoint string) ([]byte, error)
}

// mcpPath is where a version's MCP endpoint is served: the current version
// keeps /ucp/mcp, an older one gets /ucp/<version>/mcp.
func mcpPath(version string) string {
	if version == location.ProtocolVersion {
		return "/ucp/mcp"
	}
	return "/ucp/" + version + "/mcp"
}

// profilePath is where a version's Business profile is served: the current
// one at /.well-known/ucp, an older one's leaf profile below it.
func profilePath(version string) string {
	if version == location.ProtocolVersion {
		return "/.well-known/ucp"
	}
	return "/.well-known/ucp/" + version
}

// olderBusinesses is what negotiation knows of the older versions served
// from the current version's hooks h.
func olderBusinesses(versions []string, h location.Hooks) ([]negotiation.Business, error) {
	var out []negotiation.Business
	for _, v := range versions {
		ov := olderVersions[v]
		sch, err := negotiation.CompileProfileSchema(ov.schemas)
		if err != nil {
			return nil, fmt.Errorf("--supported-versions %s: profile schema: %w", v, err)
		}
		caps, err := ov.capabilities(ov.serve(h))
		if err != nil {
			return nil, fmt.Errorf("--supported-versions %s: %w", v, err)
		}
		out = append(out, negotiation.Business{Version: v, Capabilities: capabilityVersions(caps), Schema: sch})
	}
	return out, nil
}

// capabilityVersions is an advertised capability list as negotiation sees it.
func capabilityVersions(list []ucpcore.ProfileCapability) map[string][]negotiation.CapabilityVersion {
	caps := map[string][]negotiation.CapabilityVersion{}
	for _, c := range list {
		caps[c.Name] = append(caps[c.Name], negotiation.CapabilityVersion{Version: c.Version})
	}
	return caps
}

// negotiatorAt is the negotiator of the endpoint serving version: neg fixed
// at that version when it is a ProfileNegotiator, else neg itself (trusted
// mode or a test's override).
func negotiatorAt(neg negotiation.Negotiator, version string) (negotiation.Negotiator, error) {
	pn, ok := neg.(*negotiation.ProfileNegotiator)
	if !ok {
		return neg, nil
	}
	return pn.At(version)
}

// profiles renders every version's Business profile for a server reached at
// base: path -> document. The current one lists the older ones in
// supported_versions.
func profiles(s servers, base string) (map[string][]byte, error) {
	var current []byte
	var err error
	if s.hooks == nil {
		// An MCP server alone (the loading shell, some tests): newServers
		// registered it with hooks of the storefinder's own type, whose
		// capabilities a zero value has too.
		current, err = location.BusinessProfile(notedHooks{}, base+mcpPath(location.ProtocolVersion))
	} else {
		current, err = location.BusinessProfileWithREST(s.hooks, base+mcpPath(location.ProtocolVersion), base+restBase)
	}
	if err != nil {
		return nil, fmt.Errorf("business profile: %w", err)
	}
	out := map[string][]byte{}
	var listed []ucpcore.SupportedVersion
	for _, o := range s.older {
		leaf, err := o.profile(o.hooks, base+mcpPath(o.version), base+restPath(o.version))
		if err != nil {
			return nil, fmt.Errorf("business profile %s: %w", o.version, err)
		}
		out[profilePath(o.version)] = leaf
		listed = append(listed, ucpcore.SupportedVersion{Version: o.version, URI: base + profilePath(o.version), Profile: leaf})
	}
	if len(listed) > 0 {
		if current, err = ucpcore.WithSupportedVersions(current, listed); err != nil {
			return nil, err
		}
	}
	out[profilePath(location.ProtocolVersion)] = current
	return out, nil
}
