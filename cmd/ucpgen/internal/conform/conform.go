package conform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Options configure one run of the checker.
type Options struct {
	// URL is the Business's origin (its profile is URL/.well-known/ucp) or
	// the profile's own URL.
	URL string
	// AgentProfile is the Platform profile URI sent as meta.ucp-agent and
	// the UCP-Agent header.
	AgentProfile string
	// Rate is the most requests per second the checker sends.
	Rate float64
	// MaxRequests bounds the requests of the whole run.
	MaxRequests int
	// Items are catalogue item ids of the Business, the operands of the
	// items filter checks; without them those checks are skipped.
	Items []string
	// Versions and Transports, when set, restrict the run to those
	// protocol versions and transports ("mcp", "rest").
	Versions   []string
	Transports []string
	// At is the instant the hours checks start from. Zero means the moment
	// Run starts, fixed for the whole run, so that every transport and
	// version is asked about the same instants.
	At time.Time
	// HTTPClient sends the requests (nil: a client with a 30 s timeout).
	HTTPClient *http.Client
}

// Run checks the Business at o.URL and returns the report. Failed rules are
// in the report; an error means the checker could not do its work at all
// (a bad URL, an unreachable host). A run cut short by the budget or by
// ctx's deadline returns its report with Incomplete set.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if o.At.IsZero() {
		o.At = now()
	}
	profileURL, err := profileLocation(o.URL)
	if err != nil {
		return nil, err
	}
	if o.Rate <= 0 {
		return nil, fmt.Errorf("rate %v: must be above 0 requests per second", o.Rate)
	}
	if o.MaxRequests < 1 {
		return nil, fmt.Errorf("max requests %d: must be at least 1", o.MaxRequests)
	}
	if o.AgentProfile == "" {
		return nil, errors.New("agent profile: a Platform profile URI is required")
	}
	for _, t := range o.Transports {
		if t != "mcp" && t != "rest" {
			return nil, fmt.Errorf("transport %q: want mcp or rest", t)
		}
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	r := &Report{URL: o.URL}
	run := &runner{o: o, r: r, c: newClient(hc, o.Rate, o.MaxRequests)}
	err = run.all(ctx, profileURL)
	r.Requests = run.c.spent()
	r.Duration = time.Since(start)
	switch {
	case errors.Is(err, errBudget):
		r.Incomplete = fmt.Sprintf("%v after %d requests; raise --max-requests", err, r.Requests)
	case ctx.Err() != nil:
		r.Incomplete = fmt.Sprintf("the deadline passed (%v) after %d requests; raise --timeout", ctx.Err(), r.Requests)
	case err != nil:
		return r, err
	}
	if r.Incomplete != "" {
		r.interrupted()
	}
	return r, nil
}

// now is the clock Run reads once; tests replace it.
var now = time.Now

// interrupted marks as not run the passing checks of the version and
// transport the run was cut short in, since they never saw all their
// questions asked.
func (r *Report) interrupted() {
	if len(r.Checks) == 0 {
		return
	}
	last := r.Checks[len(r.Checks)-1]
	for _, c := range r.Checks {
		inScope := c == last || (last.Transport != "" && c.Version == last.Version && c.Transport == last.Transport)
		if inScope && (c.Status == Pass || c.Status == Skip) {
			c.Status = NotRun
			c.Details = append(c.Details, "the run ended before this check had asked all its questions")
		}
	}
}

// profileLocation returns the profile URL for a Business URL.
func profileLocation(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("business URL %q: want an absolute http or https URL", raw)
	}
	if !strings.Contains(u.Path, "/.well-known/ucp") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/.well-known/ucp"
	}
	return u.String(), nil
}

// runner holds one run's state.
type runner struct {
	o Options
	r *Report
	c *client
}

var dateVersion = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// profile is the part of a Business profile the checker reads.
type profile struct {
	UCP struct {
		Version           string                       `json:"version"`
		Services          map[string][]profileService  `json:"services"`
		Capabilities      map[string][]json.RawMessage `json:"capabilities"`
		PaymentHandlers   json.RawMessage              `json:"payment_handlers"`
		SupportedVersions map[string]string            `json:"supported_versions"`
	} `json:"ucp"`
}

type profileService struct {
	Version   string `json:"version"`
	Transport string `json:"transport"`
	Endpoint  string `json:"endpoint"`
	Schema    string `json:"schema"`
}

func (r *runner) wanted(list []string, v string) bool {
	return len(list) == 0 || slices.Contains(list, v)
}

func (r *runner) all(ctx context.Context, profileURL string) error {
	cur, err := r.fetchProfile(ctx, profileURL, "", true)
	if err != nil || cur == nil {
		return err
	}
	profiles := []*profile{cur}
	older := make([]string, 0, len(cur.UCP.SupportedVersions))
	for v := range cur.UCP.SupportedVersions {
		older = append(older, v)
	}
	sort.Strings(older)
	if len(older) > 0 {
		c := r.r.check("discovery.supported-versions", "12", "MUST", "", "", "each supported_versions entry is a leaf profile of that version, with its own services")
		for _, v := range older {
			if !dateVersion.MatchString(v) || v == cur.UCP.Version {
				c.failf("supported_versions key %q is not an older YYYY-MM-DD version", v)
				continue
			}
			p, err := r.fetchProfile(ctx, cur.UCP.SupportedVersions[v], v, false)
			if err != nil {
				return err
			}
			if p == nil {
				c.failf("the %s profile at %s is not usable (see discovery.profile [%s])", v, cur.UCP.SupportedVersions[v], v)
				continue
			}
			if p.UCP.Version != v {
				c.failf("the profile listed for %s says ucp.version %q", v, p.UCP.Version)
			}
			if len(p.UCP.SupportedVersions) > 0 {
				c.failf("the %s profile has supported_versions; it must be a leaf", v)
			}
			for _, s := range p.UCP.Services["dev.ucp.common"] {
				for _, cs := range cur.UCP.Services["dev.ucp.common"] {
					if s.Endpoint != "" && s.Endpoint == cs.Endpoint {
						c.failf("the %s profile shares the %s endpoint %s with %s", v, s.Transport, s.Endpoint, cur.UCP.Version)
					}
				}
			}
			profiles = append(profiles, p)
		}
	}
	for _, v := range r.o.Versions {
		if !slices.ContainsFunc(profiles, func(p *profile) bool { return p.UCP.Version == v }) {
			listed := make([]string, len(profiles))
			for i, p := range profiles {
				listed[i] = p.UCP.Version
			}
			return fmt.Errorf("version %s: the Business profile lists %v", v, listed)
		}
	}
	for _, p := range profiles {
		if !r.wanted(r.o.Versions, p.UCP.Version) {
			continue
		}
		if err := r.version(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// fetchProfile reads and checks one profile; it returns nil when the
// profile is too broken to go on with (the failures are in the report).
func (r *runner) fetchProfile(ctx context.Context, u, version string, current bool) (*profile, error) {
	c := r.r.check("discovery.profile", "1", "MUST", version, "", "the profile is JSON with ucp.version, dev.ucp.common services, Location capabilities and payment_handlers")
	h := http.Header{}
	h.Set("Accept", "application/json")
	a, err := r.c.do(ctx, u, nil, h)
	if err != nil {
		if errors.Is(err, errBudget) || ctx.Err() != nil {
			c.Status = NotRun
			return nil, err
		}
		if current {
			return nil, fmt.Errorf("fetch the Business profile: %w", err)
		}
		c.failf("GET %s: %v", u, err)
		return nil, nil
	}
	if a.status != http.StatusOK {
		c.failf("GET %s: HTTP %d, want 200", u, a.status)
		return nil, nil
	}
	var p profile
	if err := json.Unmarshal(a.body, &p); err != nil {
		c.failf("GET %s: not a profile: %v", u, err)
		return nil, nil
	}
	if c.Version == "" {
		c.Version = p.UCP.Version
	}
	if !dateVersion.MatchString(p.UCP.Version) {
		c.failf("ucp.version %q is not a YYYY-MM-DD date (section 12)", p.UCP.Version)
	}
	if len(p.UCP.PaymentHandlers) == 0 || p.UCP.PaymentHandlers[0] != '{' {
		c.failf("ucp.payment_handlers is missing or not an object")
	}
	services := p.UCP.Services["dev.ucp.common"]
	if len(services) == 0 {
		c.failf(`ucp.services has no "dev.ucp.common" entries`)
	}
	usable := false
	for i, s := range services {
		if !dateVersion.MatchString(s.Version) {
			c.failf("dev.ucp.common[%d].version %q is not a YYYY-MM-DD date", i, s.Version)
		}
		switch s.Transport {
		case "mcp", "rest":
			if u, err := url.Parse(s.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				c.failf("dev.ucp.common[%d] (%s): endpoint %q is not an absolute http(s) URL", i, s.Transport, s.Endpoint)
			} else {
				usable = true
			}
		case "a2a", "embedded":
		default:
			c.failf("dev.ucp.common[%d].transport %q is not one of rest, mcp, a2a, embedded", i, s.Transport)
		}
	}
	found := false
	for _, name := range []string{capOf[opSearch], capOf[opLookup]} {
		entries, ok := p.UCP.Capabilities[name]
		if !ok {
			continue
		}
		found = true
		for i, raw := range entries {
			var e struct {
				Version string `json:"version"`
				Schema  string `json:"schema"`
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				c.failf("%s[%d]: %v", name, i, err)
				continue
			}
			if !dateVersion.MatchString(e.Version) {
				c.failf("%s[%d].version %q is not a YYYY-MM-DD date", name, i, e.Version)
			}
			if e.Schema == "" {
				c.failf("%s[%d] has no schema URL", name, i)
			}
		}
	}
	if !found {
		c.failf("ucp.capabilities advertises neither %s nor %s", capOf[opSearch], capOf[opLookup])
	}
	if !usable || !found {
		return nil, nil
	}
	return &p, nil
}

// version checks everything one profile advertises.
func (r *runner) version(ctx context.Context, p *profile) error {
	v := p.UCP.Version
	d, known := dialects[v]
	caps := map[string]bool{}
	for _, op := range []string{opSearch, opLookup} {
		if _, ok := p.UCP.Capabilities[capOf[op]]; ok {
			caps[op] = true
		}
	}
	var sessions []*session
	for _, s := range p.UCP.Services["dev.ucp.common"] {
		if (s.Transport != "mcp" && s.Transport != "rest") || !r.wanted(r.o.Transports, s.Transport) {
			continue
		}
		served := r.r.check("discovery.transport-served", "1", "MUST", v, s.Transport, "every advertised transport answers at its endpoint, with a tool for each advertised capability and no other Location tool")
		t, err := r.openTransport(ctx, s, caps, served)
		if err != nil {
			return err
		}
		if t == nil {
			continue
		}
		if !known {
			served.skipf("this build of ucpgen has no schemas for version %s; only discovery was checked", v)
			continue
		}
		sess := newSession(ctx, r, d, t, caps)
		if err := sess.run(); err != nil {
			return err
		}
		sessions = append(sessions, sess)
	}
	if len(sessions) == 2 {
		parity(r.r, v, sessions[0], sessions[1])
	}
	return nil
}

// openTransport proves the advertised transport is served and returns it,
// or nil (failed in served) when it is not.
func (r *runner) openTransport(ctx context.Context, s profileService, caps map[string]bool, served *Check) (transport, error) {
	if s.Transport == "rest" {
		t := &restTransport{c: r.c, endpoint: s.Endpoint, agent: r.o.AgentProfile}
		for op := range caps {
			body := []byte(`{}`)
			if op == opLookup {
				body = []byte(`{"ids":["ucpgen-conform-probe"]}`)
			}
			rep, err := t.call(ctx, op, body)
			if err != nil {
				return nil, lost(ctx, served, "POST "+s.Endpoint+pathOf[op], err)
			}
			if rep.status == http.StatusNotFound || rep.status == http.StatusMethodNotAllowed || !rep.ok {
				served.failf("POST %s%s: HTTP %d, want 200 (the profile advertises %s over REST)", s.Endpoint, pathOf[op], rep.status, capOf[op])
			}
		}
		if served.failed() {
			return nil, nil
		}
		return t, nil
	}
	m := &mcpTransport{c: r.c, endpoint: s.Endpoint, agent: r.o.AgentProfile}
	init, err := m.initialize(ctx)
	if err != nil {
		return nil, lost(ctx, served, "initialize at "+s.Endpoint, err)
	}
	if init.msg == nil || init.msg["result"] == nil {
		served.failf("initialize at %s: HTTP %d, no result %v", s.Endpoint, init.status, init.framing)
		return nil, nil
	}
	list, err := m.rpc(ctx, "tools/list", map[string]any{})
	if err != nil {
		return nil, lost(ctx, served, "tools/list at "+s.Endpoint, err)
	}
	var tools struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if list.msg == nil || json.Unmarshal(list.msg["result"], &tools) != nil {
		served.failf("tools/list at %s: no tools result %v", s.Endpoint, list.framing)
		return nil, nil
	}
	have := map[string]bool{}
	for _, tl := range tools.Tools {
		have[tl.Name] = true
		if len(tl.InputSchema) == 0 {
			served.failf("tool %s has no inputSchema", tl.Name)
		}
	}
	for _, op := range []string{opSearch, opLookup} {
		switch {
		case caps[op] && !have[toolOf[op]]:
			served.failf("the profile advertises %s but tools/list has no %s", capOf[op], toolOf[op])
		case !caps[op] && have[toolOf[op]]:
			served.failf("tools/list has %s but the profile does not advertise %s", toolOf[op], capOf[op])
		}
	}
	if served.failed() {
		return nil, nil
	}
	return m, nil
}
