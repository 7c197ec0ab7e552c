package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
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

// TestUnhonourableHeadersAreRefused: a body the headers say is gzip or
// Latin-1, two media types, two Request-Id headers, the nil UUID, a
// repeated sha-256 digest and a repeated profile are refused over REST at
// both versions with the status and header named; MCP at both versions
// refuses the same body forms with the same statuses, and a repeated
// profile member in meta, as REST refuses a repeated profile.
func TestUnhonourableHeadersAreRefused(t *testing.T) {
	ev := startEveryVersion(t)
	right := restDigest([]byte(`{}`))
	wrong := restDigest([]byte(`{"query":"other"}`))
	cases := []struct {
		name   string
		header []string
		status int
		code   string
		names  string
		mcp    bool
	}{
		{"gzip on a plain body", []string{"Content-Encoding", "gzip"}, 415, "unsupported_media_type", "Content-Encoding", true},
		{"latin-1 charset", []string{"Content-Type", "application/json; charset=iso-8859-1"}, 415, "unsupported_media_type", "Content-Type", true},
		{"two media types", []string{"+Content-Type", "text/plain"}, 400, "invalid_header", "Content-Type", true},
		{"two Request-Id headers", []string{"+Request-Id", nextRequestID()}, 400, "invalid_header", "Request-Id", false},
		{"the nil UUID", []string{"Request-Id", "00000000-0000-0000-0000-000000000000"}, 400, "invalid_header", "Request-Id", false},
		{"a wrong digest, then the right one", []string{"Content-Digest", wrong, "+Content-Digest", right}, 400, "invalid_header", "Content-Digest", false},
		{"the right digest, then a wrong one", []string{"Content-Digest", right + ", " + wrong}, 400, "invalid_header", "Content-Digest", false},
		{"another profile, then the Platform's", []string{"UCP-Agent", `profile="https://other.example/p.json"`, "+UCP-Agent", `profile="` + restProfile + `"`}, 400, "invalid_header", "UCP-Agent", false},
	}
	for _, v := range bothVersions {
		for _, c := range cases {
			t.Run(v+"/"+c.name, func(t *testing.T) {
				ref := restRefused(t, restPost(t, ev.restURL(v, "search_locations"), `{}`, c.header...), c.status, c.code)
				if ref.Header != c.names {
					t.Errorf("REST refusal names %q, want %s", ref.Header, c.names)
				}
				if !c.mcp {
					return
				}
				status, r := mcpPostWith(t, ev.base+mcpPath(v), toolCall(1, "search_locations", restProfile, `{}`), c.header...)
				if status != c.status || r.Error == nil || r.Error.Code != -32600 || !strings.HasPrefix(r.Error.Message, c.names+":") {
					t.Errorf("MCP: %d %s, want %d -32600 naming %s", status, clip([]byte(r.raw)), c.status, c.names)
				}
			})
		}
		t.Run(v+"/a repeated profile member over MCP", func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://other.example/p.json","profile":"` + restProfile + `"}},"location":{}}}}`
			_, r := mcpPostWith(t, ev.base+mcpPath(v), body)
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("%s, want -32602", clip([]byte(r.raw)))
			}
		})
		// What can be honoured is served: UTF-8 named, the identity coding.
		for _, header := range [][]string{{"Content-Type", "application/json; charset=UTF-8"}, {"Content-Encoding", "identity"}} {
			if r := restPost(t, ev.restURL(v, "search_locations"), `{}`, header...); r.status != 200 {
				t.Errorf("%s REST %v: %d %s", v, header, r.status, clip(r.body))
			}
			if status, r := mcpPostWith(t, ev.base+mcpPath(v), toolCall(1, "search_locations", restProfile, `{}`), header...); status != 200 || r.Result == nil {
				t.Errorf("%s MCP %v: %d %s", v, header, status, clip([]byte(r.raw)))
			}
		}
	}
}

// restDigest is the RFC 9530 Content-Digest of body.
func restDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
}

// mcpPostWith posts one JSON-RPC body to an MCP endpoint with the header
// pairs of restPost's convention and returns the status and reply.
func mcpPostWith(t *testing.T, url, body string, header ...string) (int, rpcResult) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		if name, more := strings.CutPrefix(header[i], "+"); more {
			req.Header.Add(name, header[i+1])
		} else {
			req.Header.Set(name, header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r rpcResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("reply is not JSON-RPC (%d): %s", resp.StatusCode, raw)
	}
	r.raw = string(raw)
	return resp.StatusCode, r
}
