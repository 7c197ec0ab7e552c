package restserver_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/restserver"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

const outputSchema = `{"type":"object","required":["ucp","locations"],"properties":{"ucp":{"type":"object"},"locations":{"type":"array"}}}`

// tool is a search-like tool: it refuses a negative distance.max with the
// pointer a generated decoder would give, and its hook runs run.
func tool(run func(ctx context.Context, loc map[string]any) (any, error)) ucpcore.Tool {
	return ucpcore.Tool{
		Name:         "search_locations",
		Capability:   "dev.ucp.common.location.search",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(outputSchema),
		Params:       []ucpcore.Param{{Name: "meta", Required: true}, {Name: "location", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var loc map[string]any
			if err := json.Unmarshal(args[1], &loc); err != nil || loc == nil {
				return nil, rpcerr.Invalid("/location", "type", "must be an object")
			}
			if d, ok := loc["distance"].(map[string]any); ok {
				if m, _ := d["max"].(float64); m < 0 {
					return nil, rpcerr.Invalid("/location/distance/max", "minimum", "must be >= 0")
				}
			}
			var meta struct {
				Agent struct {
					Profile string `json:"profile"`
				} `json:"ucp-agent"`
			}
			json.Unmarshal(args[0], &meta)
			loc["profile"] = meta.Agent.Profile
			return func(ctx context.Context) (any, error) { return run(ctx, loc) }, nil
		},
	}
}

var ops = []restserver.Operation{{
	Tool: "search_locations", Method: "POST", Path: "/locations/search", MediaType: "application/json",
	Headers: []restserver.Header{{Name: "Request-Id", Required: true, Format: "uuid"}, {Name: "UCP-Agent", Required: true}, {Name: "Content-Digest"}},
}}

const (
	agent = `profile="https://platform.example/.well-known/ucp"`
	reqID = "8ef9b0c2-78d1-4e4b-91c2-3e2ef0d3ab9f"
)

// echo answers with the request it decoded, inside locations.
func echo(_ context.Context, loc map[string]any) (any, error) {
	return map[string]any{"locations": []any{loc}}, nil
}

func newHandler(t *testing.T, run func(context.Context, map[string]any) (any, error), o *restserver.Options, tools *ucpcore.Options) http.Handler {
	t.Helper()
	if o == nil {
		o = &restserver.Options{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if tools == nil {
		tools = &ucpcore.Options{Version: "2026-08-25", Logger: o.Logger}
	}
	h, err := restserver.New([]ucpcore.Tool{tool(run)}, ops, tools, o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// do sends one request; header pairs override the defaults (an empty
// value deletes the header, a name written "+Name" adds one more line).
func do(t *testing.T, h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("UCP-Agent", agent)
	r.Header.Set("Request-Id", reqID)
	for i := 0; i+1 < len(header); i += 2 {
		switch name, more := strings.CutPrefix(header[i], "+"); {
		case more:
			r.Header.Add(name, header[i+1])
		case header[i+1] == "":
			r.Header.Del(name)
		default:
			r.Header.Set(name, header[i+1])
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha-256=:" + base64.StdEncoding.EncodeToString(s[:]) + ":"
}

// TestRefusals checks every refusal the handler makes itself, with its
// status, code and the header or pointer it names.
func TestRefusals(t *testing.T) {
	h := newHandler(t, echo, &restserver.Options{Base: "/ucp", MaxBodyBytes: 1 << 10}, nil)
	cases := []struct {
		name, method, path, body string
		header                   []string
		status                   int
		code, at                 string
	}{
		{"GET", "GET", "/ucp/locations/search", "", nil, 405, "method_not_allowed", ""},
		{"text/plain", "POST", "/ucp/locations/search", `{}`, []string{"Content-Type", "text/plain"}, 415, "unsupported_media_type", "Content-Type"},
		{"no content type", "POST", "/ucp/locations/search", `{}`, []string{"Content-Type", ""}, 415, "unsupported_media_type", "Content-Type"},
		{"body over the cap", "POST", "/ucp/locations/search", `{"query":"` + strings.Repeat("a", 2<<10) + `"}`, nil, 413, "body_too_large", ""},
		{"no Request-Id", "POST", "/ucp/locations/search", `{}`, []string{"Request-Id", ""}, 400, "invalid_header", "Request-Id"},
		{"Request-Id not a UUID", "POST", "/ucp/locations/search", `{}`, []string{"Request-Id", "req-1"}, 400, "invalid_header", "Request-Id"},
		{"no UCP-Agent", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", ""}, 400, "invalid_header", "UCP-Agent"},
		{"UCP-Agent not a dictionary", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", "https://platform.example/.well-known/ucp"}, 400, "invalid_header", "UCP-Agent"},
		{"UCP-Agent profile a token", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", "profile=abc"}, 400, "invalid_header", "UCP-Agent"},
		{"UCP-Agent without profile", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", `agent="x"`}, 400, "invalid_header", "UCP-Agent"},
		{"digest mismatch", "POST", "/ucp/locations/search", `{}`, []string{"Content-Digest", digest([]byte(`{"query":"x"}`))}, 400, "digest_mismatch", "Content-Digest"},
		{"digest without sha-256", "POST", "/ucp/locations/search", `{}`, []string{"Content-Digest", "sha-512=:AAAA:"}, 400, "invalid_header", "Content-Digest"},
		{"digest not a dictionary", "POST", "/ucp/locations/search", `{}`, []string{"Content-Digest", "sha-256"}, 400, "invalid_header", "Content-Digest"},
		{"malformed JSON", "POST", "/ucp/locations/search", `{"query":`, nil, 400, "invalid_json", ""},
		{"negative radius", "POST", "/ucp/locations/search", `{"distance":{"max":-1}}`, nil, 400, "invalid_params", "/distance/max"},
		{"body not an object", "POST", "/ucp/locations/search", `[]`, nil, 400, "invalid_params", ""},
		{"gzip coding on a plain body", "POST", "/ucp/locations/search", `{}`, []string{"Content-Encoding", "gzip"}, 415, "unsupported_media_type", "Content-Encoding"},
		{"identity then gzip", "POST", "/ucp/locations/search", `{}`, []string{"Content-Encoding", "identity", "+Content-Encoding", "gzip"}, 415, "unsupported_media_type", "Content-Encoding"},
		{"latin-1 charset", "POST", "/ucp/locations/search", `{}`, []string{"Content-Type", "application/json; charset=iso-8859-1"}, 415, "unsupported_media_type", "Content-Type"},
		{"two content types", "POST", "/ucp/locations/search", `{}`, []string{"+Content-Type", "text/plain"}, 400, "invalid_header", "Content-Type"},
		{"wrong digest then the right one", "POST", "/ucp/locations/search", `{}`, []string{"Content-Digest", digest([]byte(`{"query":"x"}`)), "+Content-Digest", digest([]byte(`{}`))}, 400, "invalid_header", "Content-Digest"},
		{"sha-256 twice in one line", "POST", "/ucp/locations/search", `{}`, []string{"Content-Digest", digest([]byte(`{}`)) + ", " + digest([]byte(`{}`))}, 400, "invalid_header", "Content-Digest"},
		{"profile twice", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", `profile="https://evil.example/p.json"`, "+UCP-Agent", agent}, 400, "invalid_header", "UCP-Agent"},
		{"profile twice in one line", "POST", "/ucp/locations/search", `{}`, []string{"UCP-Agent", `profile="https://a.example/p, q", profile="https://b.example/p"`}, 400, "invalid_header", "UCP-Agent"},
		{"two Request-Ids", "POST", "/ucp/locations/search", `{}`, []string{"+Request-Id", "8ef9b0c2-78d1-4e4b-91c2-000000000001"}, 400, "invalid_header", "Request-Id"},
		{"the nil UUID as Request-Id", "POST", "/ucp/locations/search", `{}`, []string{"Request-Id", "00000000-0000-0000-0000-000000000000"}, 400, "invalid_header", "Request-Id"},
		{"the max UUID as Request-Id", "POST", "/ucp/locations/search", `{}`, []string{"Request-Id", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"}, 400, "invalid_header", "Request-Id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := do(t, h, c.method, c.path, c.body, c.header...)
			var ref restserver.Refusal
			if err := json.Unmarshal(w.Body.Bytes(), &ref); err != nil {
				t.Fatalf("status %d, body %q: %v", w.Code, w.Body, err)
			}
			if w.Code != c.status || ref.Code != c.code {
				t.Fatalf("status %d code %q, want %d %q: %s", w.Code, ref.Code, c.status, c.code, w.Body)
			}
			if c.status == 405 && w.Header().Get("Allow") != "POST" {
				t.Errorf("Allow = %q", w.Header().Get("Allow"))
			}
			if c.at == "Content-Encoding" && w.Header().Get("Accept-Encoding") != "identity" {
				t.Errorf("Accept-Encoding = %q, want identity (RFC 9110 section 15.5.16)", w.Header().Get("Accept-Encoding"))
			}
			switch {
			case strings.HasPrefix(c.at, "/"):
				if len(ref.Violations) != 1 || ref.Violations[0].Pointer != c.at {
					t.Errorf("violations %+v, want one at %s", ref.Violations, c.at)
				}
			case c.at != "" && ref.Header != c.at:
				t.Errorf("header %q, want %q", ref.Header, c.at)
			}
		})
	}
}

// TestHeadersItCanHonourAreServed: the forms the strict header checks
// still accept (UTF-8 named in any case, the identity coding, a digest
// beside one of another algorithm, a quoted comma in the profile) are
// served, so the refusals above are about the form and not the header.
func TestHeadersItCanHonourAreServed(t *testing.T) {
	h := newHandler(t, echo, &restserver.Options{Base: "/ucp"}, nil)
	for name, header := range map[string][]string{
		"charset UTF-8":      {"Content-Type", "application/json; charset=UTF-8"},
		"identity coding":    {"Content-Encoding", "identity"},
		"two algorithms":     {"Content-Digest", "sha-512=:AAAA:, " + digest([]byte(`{}`))},
		"comma in a profile": {"UCP-Agent", `profile="https://platform.example/p,q.json", version="2026-08-25"`},
	} {
		t.Run(name, func(t *testing.T) {
			if w := do(t, h, "POST", "/ucp/locations/search", `{}`, header...); w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
		})
	}
}

// TestUnknownPathsAreRefusals: every path without an operation, however it
// is spelled (a trailing slash, another case, an escaped slash, repeated
// slashes, dot segments, a path outside the base), is the binding's JSON
// 404 and never a redirect, and each is charged like any other refusal, so
// a flood of them meets 429.
func TestUnknownPathsAreRefusals(t *testing.T) {
	paths := []string{"/ucp/locations/search/", "/ucp/locations/x", "/ucp/locations%2Fsearch", "/UCP/locations/search",
		"//ucp/locations/search", "/ucp//locations/search", "/ucp/./locations/search", "/ucp/locations/../locations/search", "/ucp", "/", "/elsewhere/" + strings.Repeat("x", 4000)}
	refusal := func(t *testing.T, w *httptest.ResponseRecorder, status int, code string) {
		t.Helper()
		var ref restserver.Refusal
		if err := json.Unmarshal(w.Body.Bytes(), &ref); err != nil || w.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("status %d %s, body %q: not a JSON refusal", w.Code, w.Header().Get("Content-Type"), w.Body)
		}
		if loc := w.Header().Get("Location"); loc != "" {
			t.Errorf("redirected to %s", loc)
		}
		if w.Code != status || ref.Code != code {
			t.Fatalf("status %d code %q, want %d %q: %s", w.Code, ref.Code, status, code, w.Body)
		}
		if len(ref.Content) > 300 {
			t.Errorf("refusal content of %d bytes repeats the path unbounded", len(ref.Content))
		}
	}
	open := newHandler(t, echo, &restserver.Options{Base: "/ucp"}, nil)
	for _, p := range paths {
		t.Run(p[:min(len(p), 40)], func(t *testing.T) { refusal(t, do(t, open, "POST", p, `{}`), http.StatusNotFound, "not_found") })
	}
	t.Run("a flood meets 429", func(t *testing.T) {
		const burst = 20
		budget := ucpcore.NewBudget(ucpcore.BudgetOptions{RateLimit: &ucpcore.RateLimit{OtherPerSecond: 1e-9, OtherBurst: burst}})
		limited := newHandler(t, echo, &restserver.Options{Base: "/ucp", Budget: budget}, nil)
		for i := range burst {
			refusal(t, do(t, limited, "POST", paths[i%len(paths)], `{}`), http.StatusNotFound, "not_found")
		}
		for _, p := range paths {
			w := do(t, limited, "POST", p, `{}`)
			refusal(t, w, http.StatusTooManyRequests, "rate_limited")
			if w.Header().Get("Retry-After") == "" {
				t.Errorf("%s: 429 without Retry-After", p)
			}
		}
	})
}

// TestSuccess checks a 200: the body the tool gave with ucp filled in, the
// profile taken from UCP-Agent, and a Content-Digest of the body; a correct
// request digest is accepted.
func TestSuccess(t *testing.T) {
	h := newHandler(t, echo, nil, nil)
	body := []byte(`{"query":"grocery"}`)
	w := do(t, h, "POST", "/locations/search", string(body), "Content-Digest", digest(body), "Content-Type", "application/json; charset=utf-8")
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	want := `{"ucp":{"version":"2026-08-25","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}},"locations":[{"profile":"https://platform.example/.well-known/ucp","query":"grocery"}]}`
	if w.Body.String() != want {
		t.Errorf("body %s\nwant %s", w.Body, want)
	}
	if got := w.Header().Get("Content-Digest"); got != digest(w.Body.Bytes()) {
		t.Errorf("Content-Digest %q, want %q", got, digest(w.Body.Bytes()))
	}
}

// TestToolErrors checks the statuses of the errors a call can end in:
// transport errors with Retry-After, negotiation failures with
// {code, content, continue_url?}, and faults (errors and panics) as 500
// without their text.
func TestToolErrors(t *testing.T) {
	cases := []struct {
		name       string
		err        error
		status     int
		code       string
		retryAfter string
	}{
		{"unauthenticated", rpcerr.Unauthenticated("who are you"), 401, "unauthenticated", ""},
		{"forbidden", rpcerr.Forbidden("no"), 403, "forbidden", ""},
		{"conflict", rpcerr.Conflict("again"), 409, "conflict", ""},
		{"rate limited", rpcerr.RateLimited("slow down", 1500*time.Millisecond), 429, "rate_limited", "2"},
		{"overloaded", rpcerr.Overloaded("busy", time.Second), 503, "unavailable", "1"},
		{"invalid profile url", &rpcerr.Discovery{Code: "invalid_profile_url", Content: "bad"}, 400, "invalid_profile_url", ""},
		{"profile unreachable", &rpcerr.Discovery{Code: "profile_unreachable", Content: "down", ContinueURL: "https://business.example/help"}, 424, "profile_unreachable", ""},
		{"profile malformed", &rpcerr.Discovery{Code: "profile_malformed", Content: "bad json"}, 422, "profile_malformed", ""},
		{"version unsupported", &rpcerr.Discovery{Code: "version_unsupported", Content: "too old"}, 422, "version_unsupported", ""},
		{"hook error", errors.New("secret database detail"), 500, "internal_error", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHandler(t, func(context.Context, map[string]any) (any, error) { return nil, c.err }, nil, nil)
			w := do(t, h, "POST", "/locations/search", `{}`)
			var ref restserver.Refusal
			json.Unmarshal(w.Body.Bytes(), &ref)
			if w.Code != c.status || ref.Code != c.code || w.Header().Get("Retry-After") != c.retryAfter {
				t.Fatalf("status %d code %q Retry-After %q, want %d %q %q: %s", w.Code, ref.Code, w.Header().Get("Retry-After"), c.status, c.code, c.retryAfter, w.Body)
			}
			if strings.Contains(w.Body.String(), "secret") {
				t.Errorf("the fault's text reached the client: %s", w.Body)
			}
			if dc, ok := c.err.(*rpcerr.Discovery); ok && ref.ContinueURL != dc.ContinueURL {
				t.Errorf("continue_url %q, want %q", ref.ContinueURL, dc.ContinueURL)
			}
		})
	}
	t.Run("panic", func(t *testing.T) {
		h := newHandler(t, func(context.Context, map[string]any) (any, error) { panic("boom") }, nil, nil)
		if w := do(t, h, "POST", "/locations/search", `{}`); w.Code != 500 || strings.Contains(w.Body.String(), "boom") {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
	})
}

// TestAccessLogNamesRequestID checks that each request is logged with its
// Request-Id and status.
func TestAccessLogNamesRequestID(t *testing.T) {
	var b strings.Builder
	h := newHandler(t, echo, &restserver.Options{Logger: slog.New(slog.NewTextHandler(&b, nil))}, nil)
	do(t, h, "POST", "/locations/search", `{}`)
	if !strings.Contains(b.String(), "request_id="+reqID) || !strings.Contains(b.String(), "status=200") {
		t.Fatalf("log %q", b.String())
	}
	// What the request chose (its path, its Request-Id) is cut short.
	b.Reset()
	do(t, h, "POST", "/"+strings.Repeat("p", 30_000), `{}`, "Request-Id", strings.Repeat("\xff", 30_000))
	if line := b.String(); len(line) > 1024 || !strings.Contains(line, "status=404") {
		t.Fatalf("a log line of %d bytes: %.300q", len(line), line)
	}
}

// TestTransportsShareOneBudget checks that a Platform that spends its
// burst over MCP is refused over REST too, and the other way round: both
// endpoints draw on one Budget, keyed by the same agent profile.
func TestTransportsShareOneBudget(t *testing.T) {
	for _, first := range []string{"mcp", "rest"} {
		t.Run(first+" first", func(t *testing.T) {
			now := time.Unix(1_000_000, 0)
			budget := ucpcore.NewBudget(ucpcore.BudgetOptions{RateLimit: &ucpcore.RateLimit{PerSecond: 1, Burst: 3, Now: func() time.Time { return now }}})
			logger := slog.New(slog.NewTextHandler(io.Discard, nil))
			topts := &ucpcore.Options{Version: "2026-08-25", Logger: logger}
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			mcpserver.Add(server, tool(echo), topts)
			mcpH := mcpserver.Handler(server, &mcpserver.HTTPOptions{Budget: budget, DirectToolCalls: true, Logger: logger})
			restH := newHandler(t, echo, &restserver.Options{Budget: budget, Logger: logger}, topts)
			callMCP := func() int {
				body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://platform.example/.well-known/ucp"}},"location":{}}}}`
				r := httptest.NewRequest("POST", "/", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				w := httptest.NewRecorder()
				mcpH.ServeHTTP(w, r)
				return w.Code
			}
			callREST := func() int { return do(t, restH, "POST", "/locations/search", `{}`).Code }
			spend, other := callMCP, callREST
			if first == "rest" {
				spend, other = callREST, callMCP
			}
			for i := 0; i < 3; i++ {
				if code := spend(); code != 200 {
					t.Fatalf("call %d within the burst: status %d", i, code)
				}
			}
			if code := other(); code != 429 {
				t.Fatalf("after the burst on %s, the other transport answered %d, want 429", first, code)
			}
			if first == "mcp" {
				w := do(t, restH, "POST", "/locations/search", `{}`)
				if w.Header().Get("Retry-After") == "" {
					t.Errorf("429 without Retry-After")
				}
			}
		})
	}
}

// TestNewRefusesToolsItCannotServe checks the table checks of New.
func TestNewRefusesToolsItCannotServe(t *testing.T) {
	two := tool(echo)
	two.Params = append(two.Params, ucpcore.Param{Name: "cart"})
	for name, c := range map[string]struct {
		tools []ucpcore.Tool
		want  string
	}{
		"unknown tool":    {nil, `names tool "search_locations"`},
		"two body params": {[]ucpcore.Tool{two}, "more than one argument"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := restserver.New(c.tools, ops, nil, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
}

// TestAddProfileService checks that the REST entry joins the MCP one.
func TestAddProfileService(t *testing.T) {
	doc, err := ucpcore.BusinessProfile("2026-08-25", []ucpcore.ProfileService{{Name: "dev.ucp.common", Version: "2026-08-25", Transport: "mcp", Endpoint: "http://x/ucp/mcp"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ucpcore.AddProfileService(doc, ucpcore.ProfileService{Name: "dev.ucp.common", Version: "2026-08-25", Transport: "rest", Schema: "https://ucp.dev/2026-08-25/services/common/rest.openapi.json", Endpoint: "http://x/ucp"})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		UCP struct {
			Services map[string][]map[string]string `json:"services"`
		} `json:"ucp"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	s := p.UCP.Services["dev.ucp.common"]
	if len(s) != 2 || s[0]["transport"] != "mcp" || s[1]["transport"] != "rest" || s[1]["endpoint"] != "http://x/ucp" {
		t.Fatalf("services %v", s)
	}
}

// askTool is an ask-like tool whose meta check is a generated decoder's:
// an idempotency-key that is not a UUID, or a profile that is not an https
// URL, is a violation at its meta pointer. Its answer echoes the key.
func askTool() ucpcore.Tool {
	return ucpcore.Tool{
		Name:         "ask_business",
		Capability:   "dev.ucp.common.ask",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","required":["ucp","answer"],"properties":{"ucp":{"type":"object"},"answer":{"type":"object"}}}`),
		Params:       []ucpcore.Param{{Name: "meta", Required: true}, {Name: "ask", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var meta struct {
				Agent struct {
					Profile string `json:"profile"`
				} `json:"ucp-agent"`
				Key *string `json:"idempotency-key"`
			}
			if err := json.Unmarshal(args[0], &meta); err != nil {
				return nil, rpcerr.Invalid("/meta", "type", "must be an object")
			}
			if !strings.HasPrefix(meta.Agent.Profile, "https://") {
				return nil, rpcerr.Invalid("/meta/ucp-agent/profile", "format", "must be a valid uri")
			}
			if meta.Key != nil && len(*meta.Key) != 36 {
				return nil, rpcerr.Invalid("/meta/idempotency-key", "format", "must be a valid uuid")
			}
			key := "none"
			if meta.Key != nil {
				key = *meta.Key
			}
			return func(context.Context) (any, error) {
				return map[string]any{"answer": map[string]string{"plain": key}}, nil
			}, nil
		},
	}
}

// TestIdempotencyKeyHeaderFillsMeta checks the Idempotency-Key header on an
// operation that declares it: it reaches the tool as meta's
// idempotency-key, an operation that does not declare it ignores it, and a
// header the tool's meta check refuses (the key, or UCP-Agent's profile) is
// answered as invalid_header naming that header, never as a violation at a
// body pointer.
func TestIdempotencyKeyHeaderFillsMeta(t *testing.T) {
	const key = "5b0c1f0e-1d2a-4c3b-9e8f-0a1b2c3d4e5f"
	declared := restserver.Operation{Tool: "ask_business", Method: "POST", Path: "/ask", MediaType: "application/json",
		Headers: []restserver.Header{{Name: "Idempotency-Key", Format: "uuid"}, {Name: "Request-Id", Required: true, Format: "uuid"}, {Name: "UCP-Agent", Required: true}}}
	undeclared := declared
	undeclared.Path = "/ask-undeclared"
	undeclared.Headers = []restserver.Header{{Name: "Request-Id", Required: true, Format: "uuid"}, {Name: "UCP-Agent", Required: true}}
	h, err := restserver.New([]ucpcore.Tool{askTool()}, []restserver.Operation{declared, undeclared},
		&ucpcore.Options{Version: "2026-10-07", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
		&restserver.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	answer := func(t *testing.T, w *httptest.ResponseRecorder) string {
		t.Helper()
		var body struct {
			Answer struct{ Plain string }
		}
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &body) != nil {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		return body.Answer.Plain
	}
	t.Run("the key reaches meta", func(t *testing.T) {
		if got := answer(t, do(t, h, "POST", "/ask", `{"query":"q"}`, "Idempotency-Key", key)); got != key {
			t.Errorf("the tool saw idempotency-key %q, want %q", got, key)
		}
	})
	t.Run("no key leaves meta without one", func(t *testing.T) {
		if got := answer(t, do(t, h, "POST", "/ask", `{"query":"q"}`)); got != "none" {
			t.Errorf("the tool saw idempotency-key %q, want none", got)
		}
	})
	t.Run("an operation that does not declare it ignores it", func(t *testing.T) {
		if got := answer(t, do(t, h, "POST", "/ask-undeclared", `{"query":"q"}`, "Idempotency-Key", "not-a-uuid")); got != "none" {
			t.Errorf("the tool saw idempotency-key %q, want none", got)
		}
	})
	for _, c := range []struct {
		name, header, value, content string
	}{
		{"a key that is not a UUID", "Idempotency-Key", "not-a-uuid", "Idempotency-Key: must be a valid uuid"},
		{"a profile the tool refuses", "UCP-Agent", `profile="http://platform.example/p.json"`, "UCP-Agent: must be a valid uri"},
	} {
		t.Run(c.name+" is the header's fault", func(t *testing.T) {
			w := do(t, h, "POST", "/ask", `{"query":"q"}`, c.header, c.value)
			var ref restserver.Refusal
			if err := json.Unmarshal(w.Body.Bytes(), &ref); err != nil {
				t.Fatalf("status %d, body %q: %v", w.Code, w.Body, err)
			}
			if w.Code != 400 || ref.Code != "invalid_header" || ref.Header != c.header || ref.Content != c.content || len(ref.Violations) != 0 {
				t.Errorf("status %d %+v, want 400 invalid_header naming %s with content %q and no body violation", w.Code, ref, c.header, c.content)
			}
		})
	}
	t.Run("the key sent twice", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/ask", strings.NewReader(`{"query":"q"}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("UCP-Agent", agent)
		r.Header.Set("Request-Id", reqID)
		r.Header.Add("Idempotency-Key", key)
		r.Header.Add("Idempotency-Key", key)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var ref restserver.Refusal
		json.Unmarshal(w.Body.Bytes(), &ref)
		if w.Code != 400 || ref.Code != "invalid_header" || ref.Header != "Idempotency-Key" {
			t.Errorf("status %d %+v, want 400 invalid_header naming Idempotency-Key", w.Code, ref)
		}
	})
}
