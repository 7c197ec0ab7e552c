package main

import (
	"net/http"
	"strings"
	"testing"
)

// The tests in this file send a running storefinder, serving both
// versions, requests whose path or headers it cannot honour, over REST and
// over MCP's plain JSON-RPC, as an attacker would.

// TestUnknownRESTPathsAreJSONRefusals: a path no endpoint serves, however
// it is spelled, gets the REST binding's JSON 404, never a text/plain page
// or a redirect, at both versions' bases and outside them, and a flood of
// them meets 429 as other refusals do.
func TestUnknownRESTPathsAreJSONRefusals(t *testing.T) {
	l := defaultLimits(t)
	const burst = 60
	l.otherRate, l.otherBurst = 0.001, burst
	base := startVersions(t, config{supported: prevVersion, limits: l})
	var paths []string
	for _, v := range bothVersions {
		rest := restPath(v)
		paths = append(paths, rest+"/locations/search/", rest+"/locations/x", rest+"/locations%2Fsearch", strings.ToUpper(rest)+"/locations/search",
			"/"+rest+"/locations/search", rest+"/./locations/search", rest+"//locations/search", rest+"/locations/../locations/search", rest, mcpPath(v)+"/")
	}
	paths = append(paths, "/", "/nothing", "/.well-known/ucp/", "/.well-known//ucp", "/x/"+strings.Repeat("%FF", 4000))
	if len(paths) >= burst {
		t.Fatalf("%d paths do not fit in the burst of %d", len(paths), burst)
	}
	notFound := func(t *testing.T, p string, status int, code string) {
		t.Helper()
		r := restPost(t, base+p, `{}`)
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s: %d %s %q, want a JSON refusal", p, r.status, ct, clip(r.body))
		}
		if loc := r.header.Get("Location"); loc != "" {
			t.Errorf("%s: redirected to %s", p, loc)
		}
		ref := restRefused(t, r, status, code)
		if len(ref.Content) > 300 {
			t.Errorf("%s: a refusal of %d bytes repeats the path unbounded", p, len(ref.Content))
		}
	}
	sent := 0
	for _, p := range paths {
		notFound(t, p, http.StatusNotFound, "not_found")
		sent++
	}
	for ; sent < burst; sent++ {
		notFound(t, paths[sent%len(paths)], http.StatusNotFound, "not_found")
	}
	for _, p := range paths[:5] {
		notFound(t, p, http.StatusTooManyRequests, "rate_limited")
	}
}
