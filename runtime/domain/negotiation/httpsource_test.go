package negotiation

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// profileServer is a loopback TLS server whose handler the test sets and
// whose requests are counted.
type profileServer struct {
	*httptest.Server
	hits    atomic.Int64
	mu      sync.Mutex
	handler http.HandlerFunc
	lastReq http.Header
}

func newProfileServer(t testing.TB, h http.HandlerFunc) *profileServer {
	t.Helper()
	ps := &profileServer{handler: h}
	ps.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps.hits.Add(1)
		ps.mu.Lock()
		ps.lastReq = r.Header.Clone()
		h := ps.handler
		ps.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(ps.Close)
	return ps
}

func (ps *profileServer) header(name string) string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.lastReq.Get(name)
}

// trust returns a TLS config that trusts the test server's certificate.
func (ps *profileServer) trust() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(ps.Certificate())
	return &tls.Config{RootCAs: pool}
}

// newSource builds an HTTPSource for the loopback server: private networks
// allowed, the server's certificate trusted, options adjusted by mod.
func newSource(t *testing.T, ps *profileServer, mod func(*HTTPOptions)) *HTTPSource {
	t.Helper()
	opts := HTTPOptions{AllowPrivateNetworks: true, TLSConfig: ps.trust()}
	if mod != nil {
		mod(&opts)
	}
	s, err := NewHTTPSource(opts)
	if err != nil {
		t.Fatalf("NewHTTPSource: %v", err)
	}
	t.Cleanup(s.CloseIdleConnections)
	return s
}

// serveProfile writes body with the given extra headers.
func serveProfile(body []byte, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

func TestHTTPSourceFetchesValidProfile(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	ps := newProfileServer(t, serveProfile(body))
	s := newSource(t, ps, nil)
	url := ps.URL + "/profiles/agent.json#frag"
	p, err := s.Profile(context.Background(), url)
	if err != nil {
		t.Fatalf("Profile: %v", errString(err))
	}
	if p.Version != v0825 || len(p.Capabilities[capSearch]) != 1 {
		t.Fatalf("profile = %+v", p)
	}
	if p.URL != ps.URL+"/profiles/agent.json" {
		t.Errorf("URL = %q (fragment must be dropped)", p.URL)
	}
	if got := ps.header("Accept"); got != "application/json" {
		t.Errorf("Accept = %q", got)
	}
}

func TestHTTPSourceCaching(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	type step struct {
		advance  time.Duration
		wantHits int64
	}
	tests := []struct {
		name    string
		headers []string
		steps   []step
		// wantCached is Len() after the last step.
		wantCached int
	}{
		{
			name:       "fresh profile is served from cache",
			headers:    []string{"Cache-Control", "public, max-age=60"},
			steps:      []step{{0, 1}, {0, 1}, {30 * time.Second, 1}},
			wantCached: 1,
		},
		{
			name:       "max-age expiry refetches",
			headers:    []string{"Cache-Control", "max-age=60"},
			steps:      []step{{0, 1}, {59 * time.Second, 1}, {time.Second, 2}, {59 * time.Second, 2}, {time.Second, 3}},
			wantCached: 1,
		},
		{
			name:       "Age is subtracted from max-age",
			headers:    []string{"Cache-Control", "max-age=60", "Age", "50"},
			steps:      []step{{0, 1}, {9 * time.Second, 1}, {time.Second, 2}},
			wantCached: 1,
		},
		{
			name:       "no cache headers use the default TTL",
			headers:    nil,
			steps:      []step{{0, 1}, {DefaultTTL - time.Second, 1}, {time.Second, 2}},
			wantCached: 1,
		},
		{
			name:       "no-store is never cached",
			headers:    []string{"Cache-Control", "no-store, max-age=600"},
			steps:      []step{{0, 1}, {0, 2}, {0, 3}},
			wantCached: 0,
		},
		{
			name:       "no-cache revalidates every time",
			headers:    []string{"Cache-Control", "no-cache"},
			steps:      []step{{0, 1}, {0, 2}, {0, 3}},
			wantCached: 1,
		},
		{
			name:       "max-age=0 revalidates every time",
			headers:    []string{"Cache-Control", "max-age=0"},
			steps:      []step{{0, 1}, {0, 2}},
			wantCached: 1,
		},
		{
			name:       "Expires relative to Date",
			headers:    []string{"Date", "Tue, 01 Sep 2026 12:00:00 GMT", "Expires", "Tue, 01 Sep 2026 12:02:00 GMT"},
			steps:      []step{{0, 1}, {119 * time.Second, 1}, {time.Second, 2}},
			wantCached: 1,
		},
		{
			name:       "invalid Expires is already stale",
			headers:    []string{"Expires", "0"},
			steps:      []step{{0, 1}, {0, 2}},
			wantCached: 1,
		},
		{
			name:       "huge max-age is capped",
			headers:    []string{"Cache-Control", "max-age=31536000"},
			steps:      []step{{0, 1}, {maxCacheLifetime - time.Second, 1}, {time.Second, 2}},
			wantCached: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := newProfileServer(t, serveProfile(body, tt.headers...))
			clock := newFakeClock()
			s := newSource(t, ps, func(o *HTTPOptions) { o.Now = clock.Now })
			var first *Profile
			for i, st := range tt.steps {
				clock.Advance(st.advance)
				p, err := s.Profile(context.Background(), ps.URL+"/p")
				if err != nil {
					t.Fatalf("step %d: %v", i, errString(err))
				}
				if first == nil {
					first = p
				}
				if got := ps.hits.Load(); got != st.wantHits {
					t.Fatalf("step %d: server hits = %d, want %d", i, got, st.wantHits)
				}
			}
			if got := s.Len(); got != tt.wantCached {
				t.Errorf("Len = %d, want %d", got, tt.wantCached)
			}
		})
	}
}

func TestHTTPSourceMinTTLFloor(t *testing.T) {
	ps := newProfileServer(t, serveProfile(readTestdata(t, "platform_profile.json"), "Cache-Control", "max-age=5"))
	clock := newFakeClock()
	s := newSource(t, ps, func(o *HTTPOptions) { o.Now = clock.Now; o.MinTTL = time.Minute })
	for i, st := range []struct {
		advance  time.Duration
		wantHits int64
	}{{0, 1}, {59 * time.Second, 1}, {time.Second, 2}} {
		clock.Advance(st.advance)
		if _, err := s.Profile(context.Background(), ps.URL); err != nil {
			t.Fatalf("step %d: %v", i, errString(err))
		}
		if got := ps.hits.Load(); got != st.wantHits {
			t.Fatalf("step %d: hits = %d, want %d", i, got, st.wantHits)
		}
	}
}

func TestHTTPSourceETagRevalidation(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	var notModified atomic.Int64
	ps := newProfileServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=10")
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(body)
	})
	clock := newFakeClock()
	s := newSource(t, ps, func(o *HTTPOptions) { o.Now = clock.Now })
	ctx := context.Background()

	first, err := s.Profile(ctx, ps.URL)
	if err != nil {
		t.Fatalf("first: %v", errString(err))
	}
	if ps.header("If-None-Match") != "" {
		t.Fatalf("first request was conditional")
	}
	clock.Advance(11 * time.Second)
	second, err := s.Profile(ctx, ps.URL)
	if err != nil {
		t.Fatalf("revalidate: %v", errString(err))
	}
	if ps.hits.Load() != 2 || notModified.Load() != 1 {
		t.Fatalf("hits=%d notModified=%d, want 2 and 1", ps.hits.Load(), notModified.Load())
	}
	if second != first {
		t.Fatalf("304 did not keep the cached profile")
	}
	// The 304 restarted the lifetime: 9 s later it is still fresh.
	clock.Advance(9 * time.Second)
	if _, err := s.Profile(ctx, ps.URL); err != nil {
		t.Fatal(errString(err))
	}
	if ps.hits.Load() != 2 {
		t.Fatalf("hits = %d after refreshed lifetime, want 2", ps.hits.Load())
	}
	clock.Advance(2 * time.Second)
	if _, err := s.Profile(ctx, ps.URL); err != nil {
		t.Fatal(errString(err))
	}
	if ps.hits.Load() != 3 || notModified.Load() != 2 {
		t.Fatalf("hits=%d notModified=%d, want 3 and 2", ps.hits.Load(), notModified.Load())
	}
}

func TestHTTPSourceLastModifiedRevalidation(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	const lm = "Mon, 31 Aug 2026 10:00:00 GMT"
	ps := newProfileServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Last-Modified", lm)
		if r.Header.Get("If-Modified-Since") == lm {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(body)
	})
	s := newSource(t, ps, nil)
	a, err := s.Profile(context.Background(), ps.URL)
	if err != nil {
		t.Fatal(errString(err))
	}
	b, err := s.Profile(context.Background(), ps.URL)
	if err != nil {
		t.Fatal(errString(err))
	}
	if a != b || ps.header("If-Modified-Since") != lm || ps.hits.Load() != 2 {
		t.Fatalf("same=%v If-Modified-Since=%q hits=%d", a == b, ps.header("If-Modified-Since"), ps.hits.Load())
	}
}

// A changed profile replaces the cached one on revalidation.
func TestHTTPSourceRevalidationReplacesChangedProfile(t *testing.T) {
	var version atomic.Value
	version.Store(v0825)
	ps := newProfileServer(t, nil)
	ps.handler = func(w http.ResponseWriter, r *http.Request) {
		v := version.Load().(string)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", `"`+v+`"`)
		if r.Header.Get("If-None-Match") == `"`+v+`"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(profileDoc(t, v, caps{capSearch: {cv(v)}}))
	}
	s := newSource(t, ps, nil)
	if p, err := s.Profile(context.Background(), ps.URL); err != nil || p.Version != v0825 {
		t.Fatalf("first: %v %v", p, errString(err))
	}
	version.Store("2026-12-01")
	if p, err := s.Profile(context.Background(), ps.URL); err != nil || p.Version != "2026-12-01" {
		t.Fatalf("after change: %v %v", p, errString(err))
	}
}

func TestHTTPSourceCacheIsBounded(t *testing.T) {
	ps := newProfileServer(t, serveProfile(readTestdata(t, "platform_profile.json"), "Cache-Control", "max-age=600"))
	s := newSource(t, ps, func(o *HTTPOptions) { o.MaxEntries = 2 })
	ctx := context.Background()
	for _, path := range []string{"/a", "/b", "/a", "/c"} { // /a used again, so /b is least recent
		if _, err := s.Profile(ctx, ps.URL+path); err != nil {
			t.Fatal(errString(err))
		}
	}
	if s.Len() != 2 || ps.hits.Load() != 3 {
		t.Fatalf("Len=%d hits=%d, want 2 and 3", s.Len(), ps.hits.Load())
	}
	if _, err := s.Profile(ctx, ps.URL+"/a"); err != nil {
		t.Fatal(errString(err))
	}
	if ps.hits.Load() != 3 {
		t.Fatalf("/a was evicted though it was used recently")
	}
	if _, err := s.Profile(ctx, ps.URL+"/b"); err != nil {
		t.Fatal(errString(err))
	}
	if ps.hits.Load() != 4 {
		t.Fatalf("/b was not evicted")
	}
}

func TestHTTPSourceFailures(t *testing.T) {
	valid := readTestdata(t, "platform_profile.json")
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	tests := []struct {
		name    string
		handler http.HandlerFunc
		mod     func(*HTTPOptions)
		code    string
		// wantIn must appear in the content.
		wantIn string
	}{
		{
			name:    "404",
			handler: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			code:    rpcerr.ProfileUnreachable, wantIn: "HTTP 404",
		},
		{
			name:    "500",
			handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
			code:    rpcerr.ProfileUnreachable, wantIn: "HTTP 500",
		},
		{
			name:    "unsolicited 304",
			handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) },
			code:    rpcerr.ProfileUnreachable, wantIn: "HTTP 304",
		},
		{
			name: "timeout",
			handler: func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-release:
				case <-r.Context().Done():
				}
			},
			mod:  func(o *HTTPOptions) { o.Timeout = 50 * time.Millisecond },
			code: rpcerr.ProfileUnreachable, wantIn: "did not respond within",
		},
		{
			name: "timeout while reading the body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write(valid[:10])
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
				}
			},
			mod:  func(o *HTTPOptions) { o.Timeout = 50 * time.Millisecond },
			code: rpcerr.ProfileUnreachable, wantIn: "did not respond within",
		},
		{
			name:    "oversized body with Content-Length",
			handler: serveProfile(append(valid, make([]byte, 2048)...)),
			mod:     func(o *HTTPOptions) { o.MaxBodyBytes = 1024 },
			code:    rpcerr.ProfileMalformed, wantIn: "larger than the 1024 bytes",
		},
		{
			name: "oversized streamed body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				for i := 0; i < 4; i++ {
					_, _ = w.Write([]byte(strings.Repeat(" ", 512)))
					w.(http.Flusher).Flush()
				}
			},
			mod:  func(o *HTTPOptions) { o.MaxBodyBytes = 1024 },
			code: rpcerr.ProfileMalformed, wantIn: "larger than the 1024 bytes",
		},
		{
			name:    "invalid JSON",
			handler: serveProfile([]byte(`{"ucp": {`)),
			code:    rpcerr.ProfileMalformed, wantIn: "not valid JSON",
		},
		{
			name:    "HTML error page with 200",
			handler: serveProfile([]byte(`<html><body>Login</body></html>`)),
			code:    rpcerr.ProfileMalformed, wantIn: "not valid JSON",
		},
		{
			name:    "profile without a version",
			handler: serveProfile([]byte(`{"ucp":{"services":{}}}`)),
			code:    rpcerr.ProfileMalformed, wantIn: "/ucp/version",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := newProfileServer(t, tt.handler)
			s := newSource(t, ps, tt.mod)
			p, err := s.Profile(context.Background(), ps.URL+"/profile")
			if p != nil {
				t.Fatalf("got profile, want error")
			}
			d := wantDiscovery(t, err, tt.code)
			if !strings.Contains(d.Content, tt.wantIn) {
				t.Errorf("content %q does not mention %q", d.Content, tt.wantIn)
			}
			if strings.Contains(d.Content, "127.0.0.1") {
				t.Errorf("content %q leaks the server address", d.Content)
			}
			if s.Len() != 0 {
				t.Errorf("failure was cached")
			}
		})
	}
}

// An unsupported protocol version is detected after a successful fetch.
func TestHTTPSourceUnsupportedVersionThroughNegotiator(t *testing.T) {
	ps := newProfileServer(t, serveProfile(profileDoc(t, "2027-03-01", caps{capSearch: {cv("2027-03-01")}})))
	n := &ProfileNegotiator{
		Source:  newSource(t, ps, nil),
		Current: Business{Version: v0825, Capabilities: caps{capSearch: {cv(v0825)}}},
	}
	_, err := n.Negotiate(context.Background(), ps.URL, capSearch)
	d := wantDiscovery(t, err, rpcerr.VersionUnsupported)
	if !strings.Contains(d.Content, "2027-03-01") || !strings.Contains(d.Content, v0825) {
		t.Errorf("content %q", d.Content)
	}
}

func TestHTTPSourceEndToEndNegotiation(t *testing.T) {
	ps := newProfileServer(t, serveProfile(readTestdata(t, "platform_profile.json")))
	n := &ProfileNegotiator{
		Source: newSource(t, ps, nil),
		Current: Business{Version: v0825, Capabilities: caps{
			capSearch:                         {cv(v0825)},
			capLookup:                         {cv(v0825)},
			"net.example.location.wheelchair": {cv("2026-07-01", capSearch)},
		}},
	}
	out, err := n.Negotiate(context.Background(), ps.URL, capSearch)
	if err != nil || !out.Compatible {
		t.Fatalf("search: %+v %v", out, errString(err))
	}
	if got := slices.Sorted(maps.Keys(out.Capabilities)); strings.Join(got, ",") != capSearch+",net.example.location.wheelchair" {
		t.Errorf("capabilities = %v", got)
	}
	out, err = n.Negotiate(context.Background(), ps.URL, capLookup)
	if err != nil || out.Compatible {
		t.Fatalf("lookup: %+v %v, want incompatible", out, errString(err))
	}
	if ps.hits.Load() != 1 {
		t.Errorf("hits = %d, want 1 (second negotiation from cache)", ps.hits.Load())
	}
}

func TestHTTPSourceSingleFlight(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	release := make(chan struct{})
	// no-store: without single-flight every caller would fetch.
	ps := newProfileServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		serveProfile(body, "Cache-Control", "no-store")(w, r)
	})
	s := newSource(t, ps, nil)
	const callers = 20
	var wg sync.WaitGroup
	results := make([]*Profile, callers)
	errs := make([]error, callers)
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], errs[i] = s.Profile(context.Background(), ps.URL+"/shared")
		}(i)
	}
	waitFor(t, "all callers to join the fetch", func() bool { return s.flightWaits.Load() == callers })
	close(release)
	wg.Wait()
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errString(errs[i]))
		}
		if results[i] != results[0] {
			t.Fatalf("caller %d got a different profile", i)
		}
	}
	if got := ps.hits.Load(); got != 1 {
		t.Fatalf("server hits = %d, want 1", got)
	}
}

// A caller that gives up does not fail the others waiting on the same fetch.
func TestHTTPSourceCallerCancellation(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	release := make(chan struct{})
	ps := newProfileServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		serveProfile(body)(w, r)
	})
	s := newSource(t, ps, nil)
	ctx, cancel := context.WithCancel(context.Background())
	impatient := make(chan error, 1)
	go func() {
		_, err := s.Profile(ctx, ps.URL)
		impatient <- err
	}()
	patient := make(chan error, 1)
	waitFor(t, "first caller to wait", func() bool { return s.flightWaits.Load() == 1 })
	go func() {
		_, err := s.Profile(context.Background(), ps.URL)
		patient <- err
	}()
	waitFor(t, "second caller to wait", func() bool { return s.flightWaits.Load() == 2 })
	cancel()
	wantDiscovery(t, <-impatient, rpcerr.ProfileUnreachable)
	close(release)
	if err := <-patient; err != nil {
		t.Fatalf("patient caller: %v", errString(err))
	}
	if ps.hits.Load() != 1 {
		t.Fatalf("hits = %d, want 1", ps.hits.Load())
	}
}

func TestHTTPSourceRedirects(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	ps := newProfileServer(t, nil)
	ps.handler = func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err == nil {
			if n == 0 {
				serveProfile(body)(w, r)
				return
			}
			http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
			return
		}
		switch r.URL.Path {
		case "/to-http":
			http.Redirect(w, r, "http://"+r.Host+"/hop/0", http.StatusFound)
		case "/to-userinfo":
			http.Redirect(w, r, "https://user:pw@"+r.Host+"/hop/0", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}
	tests := []struct {
		name     string
		path     string
		mod      func(*HTTPOptions)
		wantCode string
	}{
		{name: "within the default limit", path: "/hop/3"},
		{name: "over the default limit", path: "/hop/4", wantCode: rpcerr.ProfileUnreachable},
		{name: "custom limit", path: "/hop/1", mod: func(o *HTTPOptions) { o.MaxRedirects = 1 }},
		{name: "over a custom limit", path: "/hop/2", mod: func(o *HTTPOptions) { o.MaxRedirects = 1 }, wantCode: rpcerr.ProfileUnreachable},
		{name: "redirects refused", path: "/hop/1", mod: func(o *HTTPOptions) { o.MaxRedirects = -1 }, wantCode: rpcerr.ProfileUnreachable},
		{name: "no redirect with redirects refused", path: "/hop/0", mod: func(o *HTTPOptions) { o.MaxRedirects = -1 }},
		{name: "redirect to http", path: "/to-http", wantCode: rpcerr.InvalidProfileURL},
		{name: "redirect with userinfo", path: "/to-userinfo", wantCode: rpcerr.InvalidProfileURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSource(t, ps, tt.mod)
			p, err := s.Profile(context.Background(), ps.URL+tt.path)
			if tt.wantCode == "" {
				if err != nil || p == nil {
					t.Fatalf("Profile: %v", errString(err))
				}
				return
			}
			wantDiscovery(t, err, tt.wantCode)
		})
	}
}

func TestHTTPSourceAllowHTTP(t *testing.T) {
	srv := httptest.NewServer(serveProfile(readTestdata(t, "platform_profile.json")))
	t.Cleanup(srv.Close)
	strict, err := NewHTTPSource(HTTPOptions{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = strict.Profile(context.Background(), srv.URL)
	wantDiscovery(t, err, rpcerr.InvalidProfileURL)

	lax, err := NewHTTPSource(HTTPOptions{AllowPrivateNetworks: true, AllowHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lax.CloseIdleConnections)
	if _, err := lax.Profile(context.Background(), srv.URL); err != nil {
		t.Fatalf("AllowHTTP: %v", errString(err))
	}
}

// fakeNet is an injected resolver and dialer: names resolve from a table and
// every dial is recorded, then (when connectTo is set) sent to the loopback
// test server whatever address was asked for.
type fakeNet struct {
	mu        sync.Mutex
	hosts     map[string][]string
	lookups   []string
	dials     []string
	connectTo string
}

func (f *fakeNet) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups = append(f.lookups, host)
	addrs, ok := f.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, len(addrs))
	for i, a := range addrs {
		out[i] = net.IPAddr{IP: net.ParseIP(a)}
	}
	return out, nil
}

func (f *fakeNet) Dial(ctx context.Context, network, address string) (net.Conn, error) {
	f.mu.Lock()
	f.dials = append(f.dials, address)
	target := f.connectTo
	f.mu.Unlock()
	if target == "" {
		return nil, fmt.Errorf("test network: no route to %s", address)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, target)
}

func (f *fakeNet) dialed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.dials...)
}

func TestHTTPSourceRefusesNonPublicTargets(t *testing.T) {
	fn := &fakeNet{hosts: map[string][]string{
		"loopback.example.com": {"127.0.0.1"},
		"private.example.com":  {"10.1.2.3"},
		"metadata.example.com": {"169.254.169.254"},
		"v6loop.example.com":   {"::1"},
		"ula.example.com":      {"fd12:3456::1"},
		"cgnat.example.com":    {"100.64.1.1"},
		"mapped.example.com":   {"::ffff:192.168.1.1"},
		"mixed.example.com":    {"93.184.215.14", "10.0.0.1"},
	}}
	s, err := NewHTTPSource(HTTPOptions{Resolver: fn, Dial: fn.Dial})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url  string
		code string
	}{
		{"http://platform.example.com/profile", rpcerr.InvalidProfileURL},
		{"ftp://platform.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://user:secret@platform.example.com/profile", rpcerr.InvalidProfileURL},
		{"https:///profile", rpcerr.InvalidProfileURL},
		{"/relative/profile", rpcerr.InvalidProfileURL},
		{"https://platform.example.com:0/profile", rpcerr.InvalidProfileURL},
		{"https://platform.example.com:99999/profile", rpcerr.InvalidProfileURL},
		{"https://%zz/", rpcerr.InvalidProfileURL},
		{"https://platform.example.com/" + strings.Repeat("a", maxProfileURLLength), rpcerr.InvalidProfileURL},
		{"https://127.0.0.1/profile", rpcerr.InvalidProfileURL},
		{"https://169.254.169.254/latest/meta-data", rpcerr.InvalidProfileURL},
		{"https://[::1]/profile", rpcerr.InvalidProfileURL},
		{"https://loopback.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://private.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://metadata.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://v6loop.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://ula.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://cgnat.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://mapped.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://mixed.example.com/profile", rpcerr.InvalidProfileURL},
		{"https://nowhere.example.com/profile", rpcerr.InvalidProfileURL},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			_, err := s.Profile(context.Background(), tt.url)
			d := wantDiscovery(t, err, tt.code)
			for _, leak := range []string{"127.0.0.1", "10.1.2.3", "169.254", "::1", "10.0.0.1"} {
				if strings.Contains(d.Content, leak) {
					t.Errorf("content %q names address %s", d.Content, leak)
				}
			}
		})
	}
	if got := fn.dialed(); len(got) != 0 {
		t.Fatalf("connections were attempted: %v", got)
	}
}

// A public-looking name whose server redirects to a private target is refused
// at the hop, before any connection to the private address.
func TestHTTPSourceRefusesRedirectToPrivateAddress(t *testing.T) {
	body := readTestdata(t, "platform_profile.json")
	ps := newProfileServer(t, nil)
	_, port, _ := net.SplitHostPort(ps.Listener.Addr().String())
	ps.handler = func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-literal":
			http.Redirect(w, r, "https://127.0.0.1:"+port+"/profile", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, "https://internal.example.com:"+port+"/profile", http.StatusFound)
		case "/to-public":
			http.Redirect(w, r, "https://cdn.example.com:"+port+"/profile", http.StatusFound)
		default:
			serveProfile(body)(w, r)
		}
	}
	fn := &fakeNet{
		hosts: map[string][]string{
			"platform.example.com": {"93.184.215.14"},
			"cdn.example.com":      {"93.184.215.15"},
			"internal.example.com": {"10.0.0.5"},
		},
		connectTo: ps.Listener.Addr().String(),
	}
	s, err := NewHTTPSource(HTTPOptions{Resolver: fn, Dial: fn.Dial, TLSConfig: ps.trust()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.CloseIdleConnections)

	// Control: a public name (dialled as its checked public address) works,
	// also across a redirect to another public name.
	for _, path := range []string{"/profile", "/to-public"} {
		if _, err := s.Profile(context.Background(), "https://platform.example.com:"+port+path); err != nil {
			t.Fatalf("public %s: %v", path, errString(err))
		}
	}
	for _, path := range []string{"/to-literal", "/to-name"} {
		_, err := s.Profile(context.Background(), "https://platform.example.com:"+port+path)
		wantDiscovery(t, err, rpcerr.InvalidProfileURL)
	}
	for _, d := range fn.dialed() {
		host, _, _ := net.SplitHostPort(d)
		if host != "93.184.215.14" && host != "93.184.215.15" {
			t.Errorf("dialled non-public address %s", d)
		}
	}
}

func TestNewHTTPSourceRejectsNegativeOptions(t *testing.T) {
	tests := []struct {
		name string
		opts HTTPOptions
	}{
		{"Timeout", HTTPOptions{Timeout: -1}},
		{"MaxBodyBytes", HTTPOptions{MaxBodyBytes: -1}},
		{"DefaultTTL", HTTPOptions{DefaultTTL: -1}},
		{"MinTTL", HTTPOptions{MinTTL: -1}},
		{"MaxEntries", HTTPOptions{MaxEntries: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewHTTPSource(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.name) {
				t.Fatalf("err = %v, want one naming %s", err, tt.name)
			}
		})
	}
}
