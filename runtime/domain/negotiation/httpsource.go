package negotiation

import (
	"container/list"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Defaults for HTTPOptions fields left at zero, chosen so an unconfigured
// source is safe to expose to arbitrary Platform URLs.
const (
	// DefaultTimeout bounds a whole fetch so a slow Platform cannot hold a
	// request open.
	DefaultTimeout = 5 * time.Second
	// DefaultMaxBodyBytes is twice UCP's suggested floor of 128 KiB; real
	// profiles are a few KiB.
	DefaultMaxBodyBytes = 256 << 10
	// DefaultMaxRedirects allows ordinary hosting moves while bounding hops.
	DefaultMaxRedirects = 3
	// DefaultTTL applies when a profile response carries no cache headers:
	// long enough to take fetches off the request path, short enough that a
	// Platform's capability change is seen within minutes.
	DefaultTTL = 5 * time.Minute
	// DefaultMaxEntries bounds cache memory (UCP asks for a fixed discovery
	// footprint whatever the number of profile URLs seen).
	DefaultMaxEntries = 1024

	defaultUserAgent    = "ucpgen-negotiation/1"
	maxProfileURLLength = 2048
)

// HTTPOptions configures an HTTPSource. The zero value is the production
// default: HTTPS only, public addresses only, 5 s timeout, 256 KiB bodies, up
// to 3 re-checked redirects, 5 minute default cache lifetime, 1024 cached
// profiles.
type HTTPOptions struct {
	// Timeout bounds one whole fetch: connect, TLS, headers and body.
	Timeout time.Duration
	// MaxBodyBytes is the largest profile accepted; larger is
	// profile_malformed. UCP advises a bound no lower than 128 KiB.
	MaxBodyBytes int64
	// MaxRedirects is how many redirects are followed, each re-checked like
	// the original URL. Zero means DefaultMaxRedirects; a negative value
	// refuses every redirect, which is what UCP's overview asks of verifiers.
	MaxRedirects int
	// DefaultTTL is how long a profile served without Cache-Control or
	// Expires is reused.
	DefaultTTL time.Duration
	// MinTTL raises every cacheable lifetime to at least this much (UCP
	// suggests 60 s regardless of the origin's headers). Zero keeps the
	// origin's lifetimes, so no-cache and max-age=0 revalidate every time.
	// no-store is never overridden.
	MinTTL time.Duration
	// MaxEntries bounds the cache; the least recently used profile is
	// evicted first.
	MaxEntries int
	// AllowHTTP accepts http:// profile URLs. Only for tests and local
	// development.
	AllowHTTP bool
	// AllowPrivateNetworks lets fetches reach loopback, private, link-local
	// and other special-use addresses. Only for tests and local development.
	AllowPrivateNetworks bool
	// Resolver looks up host names; nil means net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an already checked IP address; nil means a net.Dialer
	// that re-checks the address in its Control hook.
	Dial DialFunc
	// TLSConfig is cloned for the client; nil means the system roots.
	TLSConfig *tls.Config
	// Now is the clock used for cache lifetimes; nil means time.Now.
	Now func() time.Time
	// UserAgent is sent with every fetch.
	UserAgent string
}

// HTTPSource is the production ProfileSource: it fetches Platform profiles
// over HTTPS with SSRF protection, decodes them (DecodeProfile), caches them
// per HTTP caching rules and collapses concurrent fetches of one URL into
// one. It leaves the schema check to ProfileNegotiator, which knows the
// version the Platform speaks. It is safe for concurrent use.
type HTTPSource struct {
	timeout      time.Duration
	maxBody      int64
	maxRedirects int
	defaultTTL   time.Duration
	minTTL       time.Duration
	maxEntries   int
	allowHTTP    bool
	allowPrivate bool
	now          func() time.Time
	userAgent    string
	client       *http.Client
	transport    *http.Transport

	mu      sync.Mutex
	entries map[string]*list.Element // of *cacheEntry
	lru     *list.List               // front = most recently used

	// flights joins concurrent fetches of one URL into a single request.
	flights singleflight.Group

	// flightWaits counts callers that waited on a fetch; tests use it to
	// know when every goroutine has joined a flight.
	flightWaits atomic.Int64
}

// cacheEntry is one stored profile with what is needed to revalidate it.
type cacheEntry struct {
	key          string
	profile      *Profile
	etag         string
	lastModified string
	directives   cacheDirectives
	freshUntil   time.Time
}

// NewHTTPSource validates opts and builds a source. Negative durations, sizes
// or entry counts are rejected rather than silently replaced.
func NewHTTPSource(opts HTTPOptions) (*HTTPSource, error) {
	switch {
	case opts.Timeout < 0:
		return nil, fmt.Errorf("negotiation: HTTPOptions.Timeout must not be negative, got %s", opts.Timeout)
	case opts.MaxBodyBytes < 0:
		return nil, fmt.Errorf("negotiation: HTTPOptions.MaxBodyBytes must not be negative, got %d", opts.MaxBodyBytes)
	case opts.DefaultTTL < 0:
		return nil, fmt.Errorf("negotiation: HTTPOptions.DefaultTTL must not be negative, got %s", opts.DefaultTTL)
	case opts.MinTTL < 0:
		return nil, fmt.Errorf("negotiation: HTTPOptions.MinTTL must not be negative, got %s", opts.MinTTL)
	case opts.MaxEntries < 0:
		return nil, fmt.Errorf("negotiation: HTTPOptions.MaxEntries must not be negative, got %d", opts.MaxEntries)
	}
	s := &HTTPSource{
		timeout:      orDefault(opts.Timeout, DefaultTimeout),
		maxBody:      orDefault(opts.MaxBodyBytes, DefaultMaxBodyBytes),
		maxRedirects: orDefault(opts.MaxRedirects, DefaultMaxRedirects),
		defaultTTL:   orDefault(opts.DefaultTTL, DefaultTTL),
		minTTL:       opts.MinTTL,
		maxEntries:   orDefault(opts.MaxEntries, DefaultMaxEntries),
		allowHTTP:    opts.AllowHTTP,
		allowPrivate: opts.AllowPrivateNetworks,
		now:          opts.Now,
		userAgent:    orDefault(opts.UserAgent, defaultUserAgent),
		entries:      make(map[string]*list.Element),
		lru:          list.New(),
	}
	if s.now == nil {
		s.now = time.Now
	}
	guard := &dialGuard{resolver: opts.Resolver, dial: opts.Dial, allowPrivate: opts.AllowPrivateNetworks}
	if guard.resolver == nil {
		guard.resolver = net.DefaultResolver
	}
	if guard.dial == nil {
		guard.dial = guardedDialer(opts.AllowPrivateNetworks)
	}
	var tlsConf *tls.Config
	if opts.TLSConfig != nil {
		tlsConf = opts.TLSConfig.Clone()
	} else {
		tlsConf = &tls.Config{}
	}
	if tlsConf.MinVersion == 0 {
		tlsConf.MinVersion = tls.VersionTLS12
	}
	s.transport = &http.Transport{
		Proxy:                  nil, // a proxy would dial on our behalf, past the guard
		DialContext:            guard.DialContext,
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    s.timeout,
		ResponseHeaderTimeout:  s.timeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	s.client = &http.Client{Transport: s.transport, CheckRedirect: s.checkRedirect}
	return s, nil
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// CloseIdleConnections releases pooled connections, e.g. on shutdown.
func (s *HTTPSource) CloseIdleConnections() { s.transport.CloseIdleConnections() }

// Transport is the source's guarded round tripper (no proxy, every address
// checked at dial time, bounded response headers), so a caller that sends
// its own requests to URLs a fetched profile names, as a Platform calling a
// Business's endpoints does, keeps the same SSRF protection.
func (s *HTTPSource) Transport() http.RoundTripper { return s.transport }

// Len reports how many profiles are cached, for metrics.
func (s *HTTPSource) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Profile returns the Platform profile at rawURL, from the cache while it is
// fresh, otherwise fetched (or revalidated) once no matter how many callers
// ask at the same time. Errors are *rpcerr.Discovery.
func (s *HTTPSource) Profile(ctx context.Context, rawURL string) (*Profile, error) {
	u, derr := s.checkURL(rawURL)
	if derr != nil {
		return nil, derr
	}
	key := u.String()

	s.mu.Lock()
	if el, ok := s.entries[key]; ok {
		e := el.Value.(*cacheEntry)
		if s.now().Before(e.freshUntil) {
			s.lru.MoveToFront(el)
			s.mu.Unlock()
			return e.profile, nil
		}
	}
	s.mu.Unlock()
	// The fetch outlives a cancelled caller so the others waiting on it are
	// not failed by someone else's cancellation; Timeout bounds it.
	detached := context.WithoutCancel(ctx)
	done := s.flights.DoChan(key, func() (any, error) { return s.fetchFresh(detached, key) })
	s.flightWaits.Add(1)

	select {
	case r := <-done:
		p, _ := r.Val.(*Profile)
		return p, r.Err
	case <-ctx.Done():
		return nil, &rpcerr.Discovery{
			Code:    rpcerr.ProfileUnreachable,
			Content: "The platform profile fetch was abandoned because the request ended first.",
			Cause:   fmt.Errorf("wait for %s: %w", key, ctx.Err()),
		}
	}
}

// fetchFresh fetches key once for every caller joined on it, revalidating
// the cached copy when there is one.
func (s *HTTPSource) fetchFresh(ctx context.Context, key string) (*Profile, error) {
	s.mu.Lock()
	var stale *cacheEntry
	if el, ok := s.entries[key]; ok {
		c := *el.Value.(*cacheEntry)
		stale = &c
	}
	s.mu.Unlock()
	return s.fetch(ctx, key, stale)
}

// fetch GETs key, revalidating stale when it has validators, and updates the
// cache according to the response.
func (s *HTTPSource) fetch(ctx context.Context, key string, stale *cacheEntry) (*Profile, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, key, nil)
	if err != nil {
		return nil, &rpcerr.Discovery{Code: rpcerr.InvalidProfileURL, Content: "The platform profile URL is not a valid URL.", Cause: err}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	if stale != nil {
		if stale.etag != "" {
			req.Header.Set("If-None-Match", stale.etag)
		}
		if stale.lastModified != "" {
			req.Header.Set("If-Modified-Since", stale.lastModified)
		}
	}

	resp, err := s.client.Do(req)
	if err != nil {
		return nil, s.transportError(ctx, key, err)
	}
	defer resp.Body.Close()
	now := s.now()

	if resp.StatusCode == http.StatusNotModified && stale != nil {
		dirs := stale.directives
		if resp.Header.Get("Cache-Control") != "" || resp.Header.Get("Expires") != "" {
			dirs = parseCacheControl(resp.Header, now)
		}
		s.refresh(key, resp.Header, dirs, now)
		return stale.profile, nil
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &rpcerr.Discovery{
			Code:    rpcerr.ProfileUnreachable,
			Content: fmt.Sprintf("The platform profile could not be fetched: its server answered HTTP %d.", resp.StatusCode),
			Cause:   fmt.Errorf("fetch %s: status %s", key, resp.Status),
		}
	}
	if resp.ContentLength > s.maxBody {
		s.forget(key)
		return nil, s.tooLarge(key, resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.maxBody+1))
	if err == nil && ctx.Err() != nil {
		// A deadline during the body read can surface as a clean EOF on a
		// chunked response; the body is then truncated, not malformed.
		err = ctx.Err()
	}
	if err != nil {
		return nil, s.transportError(ctx, key, err)
	}
	if int64(len(body)) > s.maxBody {
		s.forget(key)
		return nil, s.tooLarge(key, -1)
	}
	p, err := DecodeProfile(body)
	if err != nil {
		s.forget(key)
		var d *rpcerr.Discovery
		if errors.As(err, &d) {
			c := *d
			c.Cause = fmt.Errorf("fetch %s: %w", key, d.Cause)
			return nil, &c
		}
		return nil, fmt.Errorf("fetch %s: %w", key, err)
	}
	p.URL = key
	s.store(key, p, resp.Header, parseCacheControl(resp.Header, now), now)
	return p, nil
}

func (s *HTTPSource) tooLarge(key string, declared int64) *rpcerr.Discovery {
	cause := fmt.Errorf("fetch %s: body exceeds %d bytes", key, s.maxBody)
	if declared >= 0 {
		cause = fmt.Errorf("fetch %s: Content-Length %d exceeds %d bytes", key, declared, s.maxBody)
	}
	return malformed(fmt.Sprintf("The platform profile is larger than the %d bytes this business accepts.", s.maxBody), cause)
}

// transportError maps a failed request to the discovery code UCP assigns:
// refused or unresolvable addresses are invalid_profile_url, everything else
// (timeouts, refused connections, TLS failures, redirect limits) is
// profile_unreachable. The content never names an internal address.
func (s *HTTPSource) transportError(ctx context.Context, key string, err error) *rpcerr.Discovery {
	var d *rpcerr.Discovery
	switch {
	case errors.As(err, &d):
		c := *d
		c.Cause = fmt.Errorf("fetch %s: %w", key, err)
		return &c
	case errors.Is(err, errRefusedAddress):
		return &rpcerr.Discovery{Code: rpcerr.InvalidProfileURL, Content: "The platform profile URL resolves to an address this business does not connect to.", Cause: fmt.Errorf("fetch %s: %w", key, err)}
	case errors.Is(err, errUnresolvable):
		return &rpcerr.Discovery{Code: rpcerr.InvalidProfileURL, Content: "The platform profile host name does not resolve.", Cause: fmt.Errorf("fetch %s: %w", key, err)}
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: fmt.Sprintf("The platform profile server did not respond within %s.", s.timeout), Cause: fmt.Errorf("fetch %s: %w", key, err)}
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: fmt.Sprintf("The platform profile server did not respond within %s.", s.timeout), Cause: fmt.Errorf("fetch %s: %w", key, err)}
	}
	return &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: "The platform profile could not be fetched: the connection to its server failed.", Cause: fmt.Errorf("fetch %s: %w", key, err)}
}

// checkRedirect applies the URL policy to every hop and enforces the limit.
func (s *HTTPSource) checkRedirect(req *http.Request, via []*http.Request) error {
	if s.maxRedirects < 0 {
		return &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: "The platform profile URL redirects, and this business does not follow redirects for profiles.", Cause: fmt.Errorf("redirect to %s refused", req.URL.Redacted())}
	}
	if len(via) > s.maxRedirects {
		return &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: fmt.Sprintf("The platform profile URL redirected more than %d times.", s.maxRedirects), Cause: fmt.Errorf("redirect limit %d exceeded at %s", s.maxRedirects, req.URL.Redacted())}
	}
	if d := s.checkParsed(req.URL, "redirect target"); d != nil {
		return d
	}
	return nil
}

// checkURL parses a profile URL and applies the policy before any network
// activity, returning the normalised form used as the cache key.
func (s *HTTPSource) checkURL(raw string) (*url.URL, *rpcerr.Discovery) {
	invalid := func(content string, cause error) *rpcerr.Discovery {
		return &rpcerr.Discovery{Code: rpcerr.InvalidProfileURL, Content: content, Cause: cause}
	}
	if strings.TrimSpace(raw) == "" {
		return nil, invalid("The platform profile URL is missing.", errors.New("empty profile URL"))
	}
	if len(raw) > maxProfileURLLength {
		return nil, invalid(fmt.Sprintf("The platform profile URL is longer than %d characters.", maxProfileURLLength), fmt.Errorf("profile URL has %d characters", len(raw)))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, invalid("The platform profile URL is not a valid URL.", err)
	}
	if d := s.checkParsed(u, "profile URL"); d != nil {
		return nil, d
	}
	n := *u
	n.Scheme = strings.ToLower(n.Scheme)
	n.Host = strings.ToLower(n.Host)
	n.Fragment, n.RawFragment = "", ""
	return &n, nil
}

// checkParsed is the policy shared by the original URL and redirect hops.
func (s *HTTPSource) checkParsed(u *url.URL, what string) *rpcerr.Discovery {
	invalid := func(content string) *rpcerr.Discovery {
		return &rpcerr.Discovery{Code: rpcerr.InvalidProfileURL, Content: content, Cause: fmt.Errorf("%s %s rejected", what, u.Redacted())}
	}
	if !u.IsAbs() || u.Opaque != "" || u.Host == "" {
		return invalid("The platform profile URL must be an absolute https URL.")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !s.allowHTTP {
			return invalid("The platform profile URL must use https.")
		}
	default:
		return invalid("The platform profile URL must use https.")
	}
	if u.User != nil {
		return invalid("The platform profile URL must not contain user information.")
	}
	host := u.Hostname()
	if host == "" {
		return invalid("The platform profile URL has no host.")
	}
	if p := u.Port(); p != "" {
		n := 0
		for _, r := range p {
			n = n*10 + int(r-'0')
			if n > 65535 {
				break
			}
		}
		if n < 1 || n > 65535 {
			return invalid("The platform profile URL has an invalid port.")
		}
	}
	if a, err := netip.ParseAddr(host); err == nil && !s.allowPrivate && !IsPublicAddress(a) {
		return invalid("The platform profile URL points to an address this business does not connect to.")
	}
	return nil
}

// store caches p when the response allows it, evicting the least recently
// used entry beyond MaxEntries.
func (s *HTTPSource) store(key string, p *Profile, h http.Header, dirs cacheDirectives, now time.Time) {
	ttl, ok := dirs.lifetime(s.defaultTTL, s.minTTL)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		s.removeLocked(key)
		return
	}
	e := &cacheEntry{
		key:          key,
		profile:      p,
		etag:         h.Get("ETag"),
		lastModified: h.Get("Last-Modified"),
		directives:   dirs,
		freshUntil:   now.Add(ttl),
	}
	if el, ok := s.entries[key]; ok {
		el.Value = e
		s.lru.MoveToFront(el)
		return
	}
	s.entries[key] = s.lru.PushFront(e)
	for s.lru.Len() > s.maxEntries {
		oldest := s.lru.Back()
		s.lru.Remove(oldest)
		delete(s.entries, oldest.Value.(*cacheEntry).key)
	}
}

// refresh applies a 304: the stored profile stays, its lifetime restarts and
// any new validators replace the old ones.
func (s *HTTPSource) refresh(key string, h http.Header, dirs cacheDirectives, now time.Time) {
	ttl, ok := dirs.lifetime(s.defaultTTL, s.minTTL)
	s.mu.Lock()
	defer s.mu.Unlock()
	el, found := s.entries[key]
	if !found {
		return // evicted meanwhile; nothing to refresh
	}
	if !ok {
		s.removeLocked(key)
		return
	}
	e := *el.Value.(*cacheEntry)
	if etag := h.Get("ETag"); etag != "" {
		e.etag = etag
	}
	if lm := h.Get("Last-Modified"); lm != "" {
		e.lastModified = lm
	}
	e.directives = dirs
	e.freshUntil = now.Add(ttl)
	el.Value = &e
	s.lru.MoveToFront(el)
}

// forget drops a cached profile whose URL now serves something unusable.
func (s *HTTPSource) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(key)
}

func (s *HTTPSource) removeLocked(key string) {
	if el, ok := s.entries[key]; ok {
		s.lru.Remove(el)
		delete(s.entries, key)
	}
}

var _ ProfileSource = (*HTTPSource)(nil)
