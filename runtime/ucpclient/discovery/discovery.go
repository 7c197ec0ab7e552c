// Package discovery finds a Business for a Platform: it reads the
// Business's /.well-known/ucp through the SSRF guard and size caps of
// runtime/domain/negotiation, chooses the profile of the version a client
// speaks (the current one, or the leaf its supported_versions names),
// validates it by that version's business schema, picks a transport and
// returns a ucpclient.Conn that calls through the same guard.
package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpclient"
	"github.com/ucpgen/ucpgen/schemas"
)

// Options configure discovery and the Conn it returns.
type Options struct {
	// Options are the calls' options; Profile, the Platform's profile URL,
	// is required.
	ucpclient.Options
	// Transport is "mcp" or "rest" to use only that transport, or empty to
	// use REST when the profile offers it and MCP otherwise.
	Transport string
	// HTTP is the policy of every connection, profile fetches and calls
	// alike: the SSRF guard (https only and public addresses only unless
	// AllowHTTP and AllowPrivateNetworks, for local development), the
	// profile size cap (MaxBodyBytes), the timeout of a profile fetch and
	// of waiting for an answer's headers (Timeout), and how many redirects
	// a profile fetch follows. Calls follow none.
	HTTP negotiation.HTTPOptions
	// ProfileSchemas holds the UCP schema trees (laid out as package
	// schemas' trees) of versions ucpgen does not bundle, by version, so
	// that a profile at such a version can be validated.
	ProfileSchemas map[string]fs.FS
}

// Discover reads the profile of the Business at business (an origin, whose
// profile is /.well-known/ucp, or the profile's own URL), chooses the
// profile of svc.Version, validates it, and picks the transport: the one
// opts.Transport names, else REST, else MCP. Only profiles are fetched.
func Discover(ctx context.Context, business string, svc ucpclient.Service, o *Options) (*ucpclient.Conn, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	if opts.Transport != "" && opts.Transport != ucpclient.MCP && opts.Transport != ucpclient.REST {
		return nil, fmt.Errorf("discovery: Options.Transport %q is neither %q nor %q", opts.Transport, ucpclient.MCP, ucpclient.REST)
	}
	root, err := profileURL(business)
	if err != nil {
		return nil, err
	}
	src, err := negotiation.NewHTTPSource(opts.HTTP)
	if err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	chosen, err := chooseProfile(ctx, src, root, svc.Version, opts.ProfileSchemas)
	if err != nil {
		return nil, err
	}
	b := ucpclient.Business{
		ProfileURL: chosen.URL,
		Profile:    chosen.Raw,
		Version:    chosen.Version,
		HTTP: &http.Client{
			Transport: src.Transport(),
			// Tool calls are POSTs to endpoints the profile named; a
			// redirect is answered, not followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	for _, name := range chosen.CapabilityNames() {
		if slices.ContainsFunc(chosen.Capabilities[name], func(e negotiation.CapabilityVersion) bool { return e.Version == svc.Version }) {
			b.Capabilities = append(b.Capabilities, name)
		}
	}
	if b.Transport, b.Endpoint, err = pickTransport(chosen, svc, opts); err != nil {
		return nil, err
	}
	return ucpclient.New(svc, b, &opts.Options)
}

// chooseProfile fetches the profile at root and returns the one of version
// (root itself or a leaf it lists) once it passed its schema.
func chooseProfile(ctx context.Context, src *negotiation.HTTPSource, root, version string, trees map[string]fs.FS) (*negotiation.Profile, error) {
	current, err := fetchProfile(ctx, src, root)
	if err != nil {
		return nil, err
	}
	supported, err := supportedVersions(current)
	if err != nil {
		return nil, err
	}
	offered := append([]string{current.Version}, slices.Sorted(maps.Keys(supported))...)
	if current.Version == version {
		if err := checkProfile(current, trees); err != nil {
			return nil, err
		}
		return current, nil
	}
	leafURL, ok := supported[version]
	if !ok {
		return nil, &VersionError{Business: root, Want: version, Offered: offered}
	}
	// The current profile is validated when its version's schema is at
	// hand; from a newer release only supported_versions is read.
	if _, known := schemaTree(current.Version, trees); known {
		if err := checkProfile(current, trees); err != nil {
			return nil, err
		}
	}
	leaf, err := fetchProfile(ctx, src, leafURL)
	if err != nil {
		return nil, err
	}
	if leaf.Version != version {
		return nil, &ProfileError{URL: leaf.URL, Reason: fmt.Sprintf("supported_versions lists it for %s, but it declares ucp.version %q", version, leaf.Version)}
	}
	if again, err := supportedVersions(leaf); err != nil || len(again) > 0 {
		return nil, &ProfileError{URL: leaf.URL, Reason: "a version's profile must be a leaf, but it lists supported_versions"}
	}
	if err := checkProfile(leaf, trees); err != nil {
		return nil, err
	}
	return leaf, nil
}

// fetchProfile fetches one Business profile through the guarded source.
func fetchProfile(ctx context.Context, src *negotiation.HTTPSource, url string) (*negotiation.Profile, error) {
	p, err := src.Profile(ctx, url)
	if err != nil {
		return nil, profileError(url, err, true)
	}
	return p, nil
}

// profileError names the profile a negotiation error is about. The
// negotiation package words its contents for a Business reading a Platform's
// profile, so a fetch failure is told by its cause, and a schema failure by
// its content, which lists the violations.
func profileError(url string, err error, fetch bool) error {
	d, ok := rpcerr.AsDiscovery(err)
	if !ok {
		return &ProfileError{URL: url, Reason: err.Error(), Err: err}
	}
	reason := d.Content
	if fetch && d.Cause != nil {
		reason = d.Cause.Error()
	}
	return &ProfileError{URL: url, Code: d.Code, Reason: reason, Err: err}
}

// supportedVersions reads ucp.supported_versions: version -> profile URI.
func supportedVersions(p *negotiation.Profile) (map[string]string, error) {
	var doc struct {
		UCP struct {
			Supported map[string]string `json:"supported_versions"`
		} `json:"ucp"`
	}
	if err := json.Unmarshal(p.Raw, &doc); err != nil {
		return nil, &ProfileError{URL: p.URL, Code: rpcerr.ProfileMalformed, Reason: "ucp.supported_versions must map versions to profile URIs: " + err.Error(), Err: err}
	}
	return doc.UCP.Supported, nil
}

// checkProfile validates p by the business schema of the version it
// declares.
func checkProfile(p *negotiation.Profile, trees map[string]fs.FS) error {
	s, err := businessSchema(p.Version, trees)
	if err != nil {
		return &ProfileError{URL: p.URL, Reason: err.Error(), Err: err}
	}
	if err := p.Check(s); err != nil {
		return profileError(p.URL, err, false)
	}
	return nil
}

// bundled compiles each bundled tree's business schema once per process.
var bundled sync.Map // version -> func() (*negotiation.ProfileSchema, error)

// schemaTree is the schema tree of version: the caller's, or one ucpgen
// bundles.
func schemaTree(version string, trees map[string]fs.FS) (fs.FS, bool) {
	if t, ok := trees[version]; ok {
		return t, true
	}
	switch version {
	case schemas.Version:
		return schemas.FS, true
	case schemas.PreviousVersion:
		return schemas.Previous, true
	}
	return nil, false
}

// businessSchema is the compiled business schema of version.
func businessSchema(version string, trees map[string]fs.FS) (*negotiation.ProfileSchema, error) {
	tree, ok := schemaTree(version, trees)
	if !ok {
		return nil, fmt.Errorf("no schema tree for UCP %s to validate the profile by; ucpgen bundles %s and %s, Options.ProfileSchemas may add others", version, schemas.Version, schemas.PreviousVersion)
	}
	compile := func() (*negotiation.ProfileSchema, error) { return negotiation.CompileBusinessProfileSchema(tree) }
	if _, own := trees[version]; !own {
		once, _ := bundled.LoadOrStore(version, sync.OnceValues(compile))
		compile = once.(func() (*negotiation.ProfileSchema, error))
	}
	s, err := compile()
	if err != nil {
		return nil, fmt.Errorf("UCP %s business profile schema: %w", version, err)
	}
	if v := s.Version(); v != "" && v != version {
		return nil, fmt.Errorf("the schema tree given for UCP %s is the tree of %s", version, v)
	}
	return s, nil
}

// pickTransport chooses the endpoint of the service at the profile's
// version: the transport the caller asked for, else REST, else MCP.
func pickTransport(p *negotiation.Profile, svc ucpclient.Service, opts Options) (string, string, error) {
	endpoints := map[string]string{}
	var offered []string
	for _, s := range p.Services[svc.Name] {
		if s.Version != p.Version || s.Endpoint == "" {
			continue
		}
		if _, dup := endpoints[s.Transport]; !dup {
			endpoints[s.Transport] = s.Endpoint
			offered = append(offered, s.Transport)
		}
	}
	order := []string{ucpclient.REST, ucpclient.MCP}
	if opts.Transport != "" {
		order = []string{opts.Transport}
	}
	if !ucpclient.HasREST(svc) {
		order = slices.DeleteFunc(order, func(t string) bool { return t == ucpclient.REST })
	}
	for _, t := range order {
		if ep, ok := endpoints[t]; ok {
			if err := checkEndpoint(ep, opts.HTTP); err != nil {
				return "", "", &ProfileError{URL: p.URL, Reason: "services " + svc.Name + ": " + err.Error()}
			}
			return t, ep, nil
		}
	}
	return "", "", &TransportError{Business: p.URL, Service: svc.Name, Version: p.Version, Want: order, Offered: offered}
}

// profileURL is where the Business at business publishes its profile: an
// origin gets /.well-known/ucp, any other URL is taken as the profile's.
func profileURL(business string) (string, error) {
	u, err := url.Parse(business)
	if err != nil {
		return "", fmt.Errorf("discovery: Business URL: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("discovery: Business URL %q is not absolute", business)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/.well-known/ucp"
	}
	return u.String(), nil
}

// checkEndpoint applies the scheme half of the connection policy to an
// endpoint a profile names (the dial guard applies the address half).
func checkEndpoint(raw string, h negotiation.HTTPOptions) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("endpoint %q: %w", raw, err)
	}
	switch {
	case u.Host == "" || u.User != nil || u.Opaque != "":
		return fmt.Errorf("endpoint %q is not an absolute URL without user information", raw)
	case u.Scheme == "https":
	case u.Scheme == "http" && h.AllowHTTP:
	default:
		return fmt.Errorf("endpoint %q must use https", raw)
	}
	return nil
}

// LocalDevelopment is the connection policy for a Business on this machine
// or a private network (http:// and private addresses allowed), as in tests
// and local development; never use it for Businesses found on the Internet.
func LocalDevelopment() negotiation.HTTPOptions {
	return negotiation.HTTPOptions{AllowHTTP: true, AllowPrivateNetworks: true}
}
