package negotiation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Profile is a Platform profile document reduced to the members negotiation
// reads; Raw keeps the whole document so callers can read anything else
// (keys, payment handlers) without a second fetch. From ParseProfile it has
// passed the bundled schema; from DecodeProfile (and so from HTTPSource) it
// is checked later, against the schema of the version it declares (Check).
//
// A Profile returned by a ProfileSource may be shared with other requests
// through a cache: treat it as read-only.
type Profile struct {
	// URL is the address the profile was requested from (before redirects).
	URL string
	// Version is ucp.version, the protocol version the Platform speaks.
	Version string
	// Capabilities is ucp.capabilities: name -> every version the Platform
	// declares for it.
	Capabilities map[string][]CapabilityVersion
	// Services is ucp.services: name -> one entry per transport binding.
	Services map[string][]Service
	// Raw is the profile document exactly as received.
	Raw json.RawMessage

	// checks remembers Check's verdict per schema, so a cached profile is
	// validated once per version and not on every request.
	checks *checkMemo
}

// checkMemo is the per-schema verdict cache of one Profile.
type checkMemo struct {
	mu      sync.Mutex
	results map[*ProfileSchema]error
}

// CapabilityVersion is one entry of a capability array in a profile: the
// version plus, for extensions, the parent capabilities it extends. It is the
// unit the intersection works on.
type CapabilityVersion struct {
	Version string  `json:"version"`
	Extends Parents `json:"extends,omitempty"`
}

// Parents is the extends member of a capability entry, which UCP allows to be
// one name or a non-empty list of names; it is always held as a list so the
// intersection has one shape to handle.
type Parents []string

// UnmarshalJSON accepts both UCP spellings of extends (a string or an array of
// strings) and rejects anything else, naming what it got.
func (p *Parents) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*p = nil
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var one string
		if err := json.Unmarshal(data, &one); err != nil {
			return fmt.Errorf("extends: %w", err)
		}
		*p = Parents{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return fmt.Errorf("extends must be a capability name or a list of names: %w", err)
	}
	if len(many) == 0 {
		return errors.New("extends must not be an empty list")
	}
	*p = Parents(many)
	return nil
}

// MarshalJSON writes a single parent as a plain string and several as a list,
// matching the form UCP profiles use for each case.
func (p Parents) MarshalJSON() ([]byte, error) {
	if len(p) == 1 {
		return json.Marshal(p[0])
	}
	return json.Marshal([]string(p))
}

// Service is one transport binding of a service in a profile.
type Service struct {
	Version   string `json:"version"`
	Spec      string `json:"spec,omitempty"`
	Transport string `json:"transport"`
	Schema    string `json:"schema,omitempty"`
	Endpoint  string `json:"endpoint,omitempty"`
}

// wireProfile is the part of the profile document that is decoded into a
// Profile; everything else stays in Raw.
type wireProfile struct {
	UCP *struct {
		Version      *string                        `json:"version"`
		Capabilities map[string][]CapabilityVersion `json:"capabilities"`
		Services     map[string][]Service           `json:"services"`
	} `json:"ucp"`
}

// ParseProfile checks that raw is a Platform profile document (a JSON object
// whose ucp member is valid against the bundled platform schema) and decodes
// it. Failures are *rpcerr.Discovery with code profile_malformed; a fault in
// the embedded schemas themselves is returned as a plain error because it is
// the server's problem, not the Platform's.
func ParseProfile(raw []byte) (*Profile, error) {
	if err := validateProfileDocument(raw); err != nil {
		return nil, err
	}
	p, err := DecodeProfile(raw)
	if err != nil {
		return nil, err
	}
	s, _ := BundledProfileSchema() // compiled by the validation above
	p.checks.results[s] = nil
	return p, nil
}

// DecodeProfile decodes a Platform profile document without checking it
// against a schema, because the schema to apply depends on the ucp.version it
// declares; ProfileNegotiator checks it once that version is chosen. It
// refuses only what cannot be read at all: not JSON, no ucp object, no
// ucp.version string, members of the wrong JSON type (profile_malformed).
func DecodeProfile(raw []byte) (*Profile, error) {
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		return nil, malformed("The platform profile is not valid JSON: "+plainJSONError(err)+".", err)
	}
	var w wireProfile
	if err := json.Unmarshal(raw, &w); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field == "" {
			return nil, malformed("The platform profile must be a JSON object with a ucp member.", err)
		}
		return nil, malformed("The platform profile could not be decoded: "+plainJSONError(err)+".", err)
	}
	if w.UCP == nil {
		return nil, malformed("The platform profile has no ucp object (at /ucp).", errors.New("ucp member missing or null"))
	}
	if w.UCP.Version == nil || *w.UCP.Version == "" {
		return nil, malformed("The platform profile does not state its protocol version (at /ucp/version).", errors.New("ucp.version missing or empty"))
	}
	p := &Profile{
		Version:      *w.UCP.Version,
		Capabilities: w.UCP.Capabilities,
		Services:     w.UCP.Services,
		Raw:          append(json.RawMessage(nil), raw...),
		checks:       &checkMemo{results: map[*ProfileSchema]error{}},
	}
	if p.Capabilities == nil {
		p.Capabilities = map[string][]CapabilityVersion{}
	}
	if p.Services == nil {
		p.Services = map[string][]Service{}
	}
	return p, nil
}

// Check validates the profile document (Raw) against s, remembering the
// verdict for later requests that share this Profile. A Profile built in code
// (no Raw) has nothing to check and passes.
func (p *Profile) Check(s *ProfileSchema) error {
	if len(p.Raw) == 0 {
		return nil
	}
	if p.checks == nil {
		return s.Check(p.Raw)
	}
	p.checks.mu.Lock()
	defer p.checks.mu.Unlock()
	if err, ok := p.checks.results[s]; ok {
		return err
	}
	err := s.Check(p.Raw)
	var d *rpcerr.Discovery
	if err == nil || errors.As(err, &d) {
		p.checks.results[s] = err // a fault of the schema itself is not the profile's
	}
	return err
}

// CapabilityNames lists the capability names of the profile in sorted order,
// for logs and diagnostics that must not depend on map order.
func (p *Profile) CapabilityNames() []string {
	names := make([]string, 0, len(p.Capabilities))
	for n := range p.Capabilities {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// malformed builds the profile_malformed discovery error.
func malformed(content string, cause error) *rpcerr.Discovery {
	return &rpcerr.Discovery{Code: rpcerr.ProfileMalformed, Content: content, Cause: cause}
}

// plainJSONError turns an encoding/json error into a short phrase without Go
// type names, suitable for a message shown to the Platform.
func plainJSONError(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("invalid JSON at byte %d (%s)", syn.Offset, syn.Error())
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		where := typ.Field
		if where == "" {
			where = "the document"
		}
		return fmt.Sprintf("%s has a JSON %s where another type is required", where, typ.Value)
	}
	return err.Error()
}
