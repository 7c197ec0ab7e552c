package negotiation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// ProfileSource obtains the Platform profile behind a profile URI, so the
// Negotiator can be tested with canned profiles and deployed with HTTPSource.
// Errors should be *rpcerr.Discovery; any other error is reported to the
// Platform as profile_unreachable.
type ProfileSource interface {
	Profile(ctx context.Context, url string) (*Profile, error)
}

// Negotiator is what an MCP tool handler calls before doing any work: it
// yields the protocol version and capabilities to echo in ucp, or a -32001
// *rpcerr.Discovery error to return as the JSON-RPC error.
type Negotiator interface {
	// Negotiate resolves profileURL (meta["ucp-agent"].profile) and reports
	// the outcome for a tool that implements toolCapability.
	Negotiate(ctx context.Context, profileURL, toolCapability string) (Outcome, error)
}

// Outcome is the result of a successful discovery: the protocol version the
// request is processed under and the capabilities active for it.
type Outcome struct {
	// Version is the protocol version used to process the request, echoed as
	// ucp.version.
	Version string
	// Active is the whole negotiated intersection.
	Active map[string]CapabilityVersion
	// ToolCapability is the capability the calling tool implements.
	ToolCapability string
	// Compatible is false when ToolCapability is not in Active; the tool must
	// then answer with the capabilities_incompatible business outcome.
	Compatible bool
}

// VersionRef is one entry of a capability array in a response's ucp member,
// which carries only the version.
type VersionRef struct {
	Version string `json:"version"`
}

// ResponseUCP is the ucp member of a tool response, ready to marshal.
type ResponseUCP struct {
	Version      string                  `json:"version"`
	Status       string                  `json:"status,omitempty"`
	Capabilities map[string][]VersionRef `json:"capabilities"`
}

// Capabilities returns the response's ucp.capabilities: the tool's capability
// and the active extensions that reach it, each as [{version}]. It is empty
// when the outcome is not compatible.
func (o Outcome) Capabilities() map[string][]VersionRef {
	rel := Relevant(o.Active, o.ToolCapability)
	out := make(map[string][]VersionRef, len(rel))
	for name, cv := range rel {
		out[name] = []VersionRef{{Version: cv.Version}}
	}
	return out
}

// UCP builds the response's ucp member: status "error" with no capabilities
// when the tool's capability was not negotiated, otherwise the version and the
// relevant capabilities (status omitted, which UCP reads as "success").
func (o Outcome) UCP() ResponseUCP {
	if !o.Compatible {
		return ResponseUCP{Version: o.Version, Status: StatusError, Capabilities: map[string][]VersionRef{}}
	}
	return ResponseUCP{Version: o.Version, Capabilities: o.Capabilities()}
}

// StatusError is the ucp.status value of a response that reports a business
// outcome error such as capabilities_incompatible.
const StatusError = "error"

// CodeCapabilitiesIncompatible is the message code UCP defines for an empty or
// tool-less intersection.
const CodeCapabilitiesIncompatible = "capabilities_incompatible"

// ErrorMessage holds the fields of a UCP error message (type "error"), so the
// MCP layer can put it in messages[] without knowing the negotiation details.
type ErrorMessage struct {
	Type     string `json:"type"`
	Code     string `json:"code"`
	Content  string `json:"content"`
	Severity string `json:"severity"`
}

// IncompatibleMessage builds the capabilities_incompatible error message that
// accompanies ucp.status "error" when the tool's capability was not
// negotiated; severity is unrecoverable because retrying cannot help until a
// profile changes.
func (o Outcome) IncompatibleMessage() ErrorMessage {
	content := "No compatible capabilities in the intersection."
	if o.ToolCapability != "" {
		content = fmt.Sprintf("Capability %s is not supported by both the platform and the business at a common version.", o.ToolCapability)
	}
	return ErrorMessage{Type: "error", Code: CodeCapabilitiesIncompatible, Content: content, Severity: "unrecoverable"}
}

// Business is one Business profile as negotiation needs it: the protocol
// version and the capabilities offered at that version (normally the same map
// that is published at /.well-known/ucp).
type Business struct {
	Version      string
	Capabilities map[string][]CapabilityVersion
}

// ProfileNegotiator negotiates against the Platform profile fetched from
// Source. It is safe for concurrent use once built.
type ProfileNegotiator struct {
	// Source fetches Platform profiles; HTTPSource in production.
	Source ProfileSource
	// Current is the Business's current profile (ucp.version at
	// /.well-known/ucp).
	Current Business
	// Older are the leaf profiles for the older protocol versions the
	// Business still supports (its supported_versions). A Platform whose
	// ucp.version is neither Current.Version nor one of these gets
	// version_unsupported.
	Older []Business
	// ContinueURL, when set, is attached to every discovery error so the
	// Platform can hand the buyer to a web experience.
	ContinueURL string
}

// Negotiate fetches the Platform profile, checks the protocol version and
// intersects capabilities. A missing profileURL is invalid_profile_url; other
// discovery failures come from Source.
func (n *ProfileNegotiator) Negotiate(ctx context.Context, profileURL, toolCapability string) (Outcome, error) {
	if n.Source == nil {
		return Outcome{}, errors.New("negotiation: ProfileNegotiator has no Source")
	}
	if strings.TrimSpace(profileURL) == "" {
		return Outcome{}, n.withContinue(&rpcerr.Discovery{
			Code:    rpcerr.InvalidProfileURL,
			Content: "The request does not name a platform profile (meta.ucp-agent.profile is empty).",
		})
	}
	p, err := n.Source.Profile(ctx, profileURL)
	if err != nil {
		var d *rpcerr.Discovery
		if errors.As(err, &d) {
			return Outcome{}, n.withContinue(d)
		}
		return Outcome{}, n.withContinue(&rpcerr.Discovery{
			Code:    rpcerr.ProfileUnreachable,
			Content: "The platform profile could not be retrieved.",
			Cause:   err,
		})
	}
	if p == nil {
		return Outcome{}, n.withContinue(&rpcerr.Discovery{
			Code:    rpcerr.ProfileUnreachable,
			Content: "The platform profile could not be retrieved.",
			Cause:   fmt.Errorf("profile source returned no profile and no error for %s", profileURL),
		})
	}
	b, ok := n.businessFor(p.Version)
	if !ok {
		return Outcome{}, n.withContinue(&rpcerr.Discovery{
			Code:    rpcerr.VersionUnsupported,
			Content: fmt.Sprintf("Protocol version %s is not supported. This business supports %s.", p.Version, n.versionList()),
			Cause:   fmt.Errorf("platform profile %s declares ucp.version %q", profileURL, p.Version),
		})
	}
	active := Intersect(b.Capabilities, p.Capabilities)
	_, compatible := active[toolCapability]
	return Outcome{Version: b.Version, Active: active, ToolCapability: toolCapability, Compatible: compatible}, nil
}

// businessFor picks the Business profile for an exact protocol version.
func (n *ProfileNegotiator) businessFor(version string) (Business, bool) {
	if version == n.Current.Version {
		return n.Current, true
	}
	for _, b := range n.Older {
		if b.Version == version {
			return b, true
		}
	}
	return Business{}, false
}

// versionList renders the supported versions for the version_unsupported
// message, newest first.
func (n *ProfileNegotiator) versionList() string {
	vs := []string{n.Current.Version}
	for _, b := range n.Older {
		vs = append(vs, b.Version)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(vs)))
	if len(vs) == 1 {
		return "version " + vs[0]
	}
	return "versions " + strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// withContinue returns a copy of d carrying the configured ContinueURL, so a
// Source's shared error value is never mutated.
func (n *ProfileNegotiator) withContinue(d *rpcerr.Discovery) *rpcerr.Discovery {
	if n.ContinueURL == "" || d.ContinueURL != "" {
		return d
	}
	c := *d
	c.ContinueURL = n.ContinueURL
	return &c
}

// Disabled is a Negotiator that performs no discovery: every request is
// processed at Version with the Business's own capabilities (the highest
// version of each, extensions pruned as usual). It is meant for trusted
// deployments where the Platform is known out of band, for tests, and as the
// example server's default; it never fetches profileURL, so it must not be
// used where the Platform's capabilities actually vary.
type Disabled struct {
	Version      string
	Capabilities map[string][]CapabilityVersion
}

// Negotiate ignores profileURL and reports the Business's own capability set.
func (d Disabled) Negotiate(_ context.Context, _ string, toolCapability string) (Outcome, error) {
	active := Intersect(d.Capabilities, d.Capabilities)
	_, compatible := active[toolCapability]
	return Outcome{Version: d.Version, Active: active, ToolCapability: toolCapability, Compatible: compatible}, nil
}

var (
	_ Negotiator = (*ProfileNegotiator)(nil)
	_ Negotiator = Disabled{}
)
