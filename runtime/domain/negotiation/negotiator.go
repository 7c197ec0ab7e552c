package negotiation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// ProfileSource obtains the Platform profile behind a profile URI, so the
// Negotiator can be tested with canned profiles and deployed with HTTPSource.
// Errors should be *rpcerr.Discovery; any other error is reported to the
// Platform as profile_unreachable.
type ProfileSource interface {
	Profile(ctx context.Context, url string) (*Profile, error)
}

// Negotiator is the interface tool bindings consume; it lives in the engine
// package envelope so that bindings need not import this package.
type Negotiator = envelope.Negotiator

// Outcome is the result of a successful discovery (see envelope.Outcome).
type Outcome = envelope.Outcome

// VersionRef, ResponseUCP and ErrorMessage are the envelope types a response
// carries, named here for callers that negotiate without a binding.
type (
	VersionRef   = envelope.VersionRef
	ResponseUCP  = envelope.UCP
	ErrorMessage = envelope.ErrorMessage
)

// StatusError and CodeCapabilitiesIncompatible are the envelope's constants.
const (
	StatusError                  = envelope.StatusError
	CodeCapabilitiesIncompatible = envelope.CodeCapabilitiesIncompatible
)

// outcome renders an intersection as the envelope's plain outcome: every
// active capability's version, and the ones relevant to the tool.
func outcome(version string, active map[string]CapabilityVersion, tool string) Outcome {
	out := Outcome{Version: version, Active: make(map[string]string, len(active)), Capabilities: map[string]string{}, ToolCapability: tool}
	for name, cv := range active {
		out.Active[name] = cv.Version
	}
	_, out.Compatible = active[tool]
	for name, cv := range Relevant(active, tool) {
		out.Capabilities[name] = cv.Version
	}
	return out
}

// Business is one Business profile as negotiation needs it: the protocol
// version and the capabilities offered at that version (normally the same map
// that is published at /.well-known/ucp).
type Business struct {
	Version      string
	Capabilities map[string][]CapabilityVersion
	// Schema checks the profiles of Platforms that speak Version; nil means
	// BundledProfileSchema, which only a Business at the bundled tree's
	// release may rely on (any other Version is refused as misconfigured).
	Schema *ProfileSchema
}

// schema is the check for Platforms at b.Version; a Schema whose tree names
// another release is a configuration fault, so a Platform is never checked
// by the wrong version's rules.
func (b *Business) schema() (*ProfileSchema, error) {
	s := b.Schema
	if s == nil {
		var err error
		if s, err = BundledProfileSchema(); err != nil {
			return nil, err
		}
	}
	if s.version != "" && s.version != b.Version {
		return nil, fmt.Errorf("the profile schema for version %s is from the %s tree; set Business.Schema to that version's", b.Version, s.version)
	}
	return s, nil
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

// Negotiate fetches the Platform profile, checks the protocol version,
// validates the profile against that version's schema and intersects
// capabilities with the Business profile of that version. A missing
// profileURL is invalid_profile_url; other discovery failures come from
// Source.
func (n *ProfileNegotiator) Negotiate(ctx context.Context, profileURL, toolCapability string) (Outcome, error) {
	return n.negotiate(ctx, profileURL, toolCapability, nil)
}

// At returns the Negotiator of the endpoint that serves version (the current
// one or one of Older): every request through it is processed at version.
// A Platform still passes the version check when it speaks any version the
// Business supports, but its capabilities are intersected with this
// version's, so one speaking another supported version gets the
// capabilities_incompatible outcome rather than an answer in shapes it did
// not ask for.
func (n *ProfileNegotiator) At(version string) (Negotiator, error) {
	b, ok := n.businessFor(version)
	if !ok {
		return nil, fmt.Errorf("negotiation: version %s is not served (%s)", version, n.versionList())
	}
	for _, sb := range append([]Business{n.Current}, n.Older...) {
		if _, err := sb.schema(); err != nil {
			return nil, fmt.Errorf("negotiation: %w", err)
		}
	}
	return endpoint{n: n, at: b}, nil
}

// endpoint is ProfileNegotiator.At's result.
type endpoint struct {
	n  *ProfileNegotiator
	at Business
}

func (e endpoint) Negotiate(ctx context.Context, profileURL, toolCapability string) (Outcome, error) {
	return e.n.negotiate(ctx, profileURL, toolCapability, &e.at)
}

// negotiate is Negotiate processing at the Platform's version (at == nil) or
// at a fixed served version.
func (n *ProfileNegotiator) negotiate(ctx context.Context, profileURL, toolCapability string, at *Business) (Outcome, error) {
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
	sch, err := b.schema()
	if err != nil {
		return Outcome{}, fmt.Errorf("negotiation: profile schema for %s: %w", b.Version, err)
	}
	if err := p.Check(sch); err != nil {
		var d *rpcerr.Discovery
		if errors.As(err, &d) {
			c := *d
			c.Cause = fmt.Errorf("platform profile %s at version %s: %w", profileURL, b.Version, d.Cause)
			return Outcome{}, n.withContinue(&c)
		}
		return Outcome{}, fmt.Errorf("negotiation: check platform profile %s: %w", profileURL, err)
	}
	if at != nil {
		b = *at
	}
	return outcome(b.Version, Intersect(b.Capabilities, p.Capabilities), toolCapability), nil
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
	return outcome(d.Version, Intersect(d.Capabilities, d.Capabilities), toolCapability), nil
}

var (
	_ Negotiator = (*ProfileNegotiator)(nil)
	_ Negotiator = endpoint{}
	_ Negotiator = Disabled{}
)
