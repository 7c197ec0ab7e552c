package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// seedHooks answers like the seed's binding examples and counts calls.
type seedHooks struct {
	calls int
	err   error
}

func (h *seedHooks) SearchLocations(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	h.calls++
	if h.err != nil {
		return nil, h.err
	}
	return &location.SearchResponse{Locations: []location.Location{{ID: "loc_valley_grocers", Name: "Valley Grocers"}}}, nil
}

func (h *seedHooks) LookupLocations(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	h.calls++
	if h.err != nil {
		return nil, h.err
	}
	return &location.LookupResponse{Locations: []location.LookupLocation{{
		ID: "loc_downtown", Name: "Downtown Store",
		Inputs: []location.LookupLocationInput{{ID: req.IDs[0]}},
	}}}, nil
}

func connect(t *testing.T, h location.Hooks, opts *ucpcore.Options) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := location.Register(server, h, opts); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func checkTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		for kind, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			raw, _ := json.Marshal(schema)
			if bytes.Contains(raw, []byte(`"$ref":"http`)) || bytes.Contains(raw, []byte(`.json`)) && bytes.Contains(raw, []byte(`"$ref":"`+"../")) {
				t.Errorf("%s %s schema has an external $ref", tool.Name, kind)
			}
			for _, ref := range refs(raw) {
				if !strings.HasPrefix(ref, "#/$defs/") {
					t.Errorf("%s %s schema: $ref %q is not local", tool.Name, kind, ref)
				}
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			c := jsonschema.NewCompiler()
			c.UseLoader(noNetwork{})
			if err := c.AddResource("mem:///"+tool.Name+"-"+kind+".json", doc); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Compile("mem:///" + tool.Name + "-" + kind + ".json"); err != nil {
				t.Errorf("%s %s schema is not a valid 2020-12 schema: %v", tool.Name, kind, err)
			}
		}
		if tool.Title == "" || tool.Description == "" {
			t.Errorf("%s lacks title or description", tool.Name)
		}
	}
	if !reflect.DeepEqual(names, []string{"lookup_locations", "search_locations"}) && !reflect.DeepEqual(names, []string{"search_locations", "lookup_locations"}) {
		t.Fatalf("tools = %v", names)
	}
}

type noNetwork struct{}

func (noNetwork) Load(url string) (any, error) { return nil, errors.New("no network: " + url) }

func refs(raw []byte) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "$ref" {
					out = append(out, s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	var v any
	json.Unmarshal(raw, &v)
	walk(v)
	return out
}

func TestToolsListedInMemory(t *testing.T) {
	checkTools(t, connect(t, &seedHooks{}, nil))
}

// TestSeedEnvelopes sends the seed's two requests and expects its responses.
func TestSeedEnvelopes(t *testing.T) {
	envs := seedEnvelopes(t)
	cs := connect(t, &seedHooks{}, nil)
	for i := 0; i+1 < len(envs); i += 2 {
		var req struct {
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		var resp struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		json.Unmarshal(envs[i], &req)
		json.Unmarshal(envs[i+1], &resp)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		if err != nil {
			t.Fatalf("%s: %v", req.Params.Name, err)
		}
		got, _ := json.Marshal(res.StructuredContent)
		if !jsonEqual(got, resp.Result.StructuredContent) {
			t.Errorf("%s: structuredContent\n got %s\nwant %s", req.Params.Name, got, resp.Result.StructuredContent)
		}
		if len(res.Content) != 1 || !jsonEqual([]byte(res.Content[0].(*mcp.TextContent).Text), got) {
			t.Errorf("%s: text content does not repeat the structured content", req.Params.Name)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

const goodMeta = `{"ucp-agent":{"profile":"https://platform.example/profile.json"}}`

func call(t *testing.T, cs *mcp.ClientSession, tool, args string) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
}

// TestHookErrorsMapToCodes checks every typed runtime error and a plain one.
func TestHookErrorsMapToCodes(t *testing.T) {
	cases := []struct {
		err      error
		code     int64
		data     string
		leakText string
	}{
		{rpcerr.Invalid("/location/distance/max", "maximum", "exceeds this Business's 50000 m radius cap"), -32602, `"pointer":"/location/distance/max"`, ""},
		{rpcerr.RateLimited("slow down", 30*time.Second), -32000, `"retry_after":30`, ""},
		{rpcerr.Unauthenticated("who are you"), -32000, `"status":401`, ""},
		{rpcerr.Overloaded("busy", 2*time.Second), -32000, `"status":503`, ""},
		{&rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: "profile could not be fetched"}, -32001, `"code":"profile_unreachable"`, ""},
		{errors.New("database password is hunter2"), -32603, "", "hunter2"},
	}
	for _, c := range cases {
		h := &seedHooks{err: c.err}
		cs := connect(t, h, nil)
		_, err := call(t, cs, "search_locations", `{"meta":`+goodMeta+`,"location":{}}`)
		je := wireError(t, err)
		if je.Code != c.code || !strings.Contains(string(je.Data), c.data) {
			t.Errorf("%v: client saw %d %s, want %d with %s", c.err, je.Code, je.Data, c.code, c.data)
		}
		if c.leakText != "" && (strings.Contains(je.Message, c.leakText) || strings.Contains(string(je.Data), c.leakText)) {
			t.Errorf("internal error text leaked: %q", je.Message)
		}
		wire := mcpserver.RPCError(c.err, nil)
		if wire.Code != c.code || !strings.Contains(string(wire.Data), c.data) {
			t.Errorf("%v: wire error %d %s, want %d with %s", c.err, wire.Code, wire.Data, c.code, c.data)
		}
	}
}

// wireError extracts the JSON-RPC error a client call failed with.
func wireError(t *testing.T, err error) *jsonrpc.Error {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("expected a JSON-RPC error, got %v", err)
	}
	return je
}

// TestHTTPStatusOfTransportErrors drives the streamable HTTP handler on
// 127.0.0.1 and checks the HTTP status and Retry-After of -32000 errors.
func TestHTTPStatusOfTransportErrors(t *testing.T) {
	cases := []struct {
		err    error
		status int
		retry  string
	}{
		{rpcerr.RateLimited("slow down", 30*time.Second), 429, "30"},
		{rpcerr.Unauthenticated("no token"), 401, ""},
		{rpcerr.Overloaded("busy", 5*time.Second), 503, "5"},
		{nil, 200, ""},
	}
	for _, c := range cases {
		server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		location.Register(server, &seedHooks{err: c.err}, nil)
		ts := httptest.NewServer(mcpserver.Handler(server, nil))
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":` + goodMeta + `,"location":{}}}}`
		status, hdr, out := post(t, ts.URL, body)
		ts.Close()
		if status != c.status {
			t.Errorf("%v: HTTP %d, want %d (%s)", c.err, status, c.status, out)
		}
		if hdr.Get("Retry-After") != c.retry {
			t.Errorf("%v: Retry-After %q, want %q", c.err, hdr.Get("Retry-After"), c.retry)
		}
	}
}

func post(t *testing.T, url, body string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestRealHTTPClient lists and calls tools over streamable HTTP with the SDK client.
func TestRealHTTPClient(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	location.Register(server, &seedHooks{}, nil)
	ts := httptest.NewServer(mcpserver.Handler(server, nil))
	defer ts.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	checkTools(t, cs)
	res, err := call(t, cs, "lookup_locations", `{"meta":`+goodMeta+`,"location":{"ids":["loc_downtown"]}}`)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
}

// TestBodyLimit rejects oversized requests before they reach a tool.
func TestBodyLimit(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	h := &seedHooks{}
	location.Register(server, h, nil)
	ts := httptest.NewServer(mcpserver.Handler(server, &mcpserver.HTTPOptions{MaxBodyBytes: 512}))
	defer ts.Close()
	big := strings.Repeat("x", 2048)
	status, _, _ := post(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":`+goodMeta+`,"location":{"query":"`+big+`"}}}}`)
	if status < 400 || h.calls != 0 {
		t.Fatalf("oversized body: HTTP %d, hook calls %d", status, h.calls)
	}
}

// TestIsErrorOption flips only invalid-argument reporting.
func TestIsErrorOption(t *testing.T) {
	h := &seedHooks{}
	cs := connect(t, h, &ucpcore.Options{InvalidArgumentsAsToolErrors: true})
	res, err := call(t, cs, "search_locations", `{"location":{}}`)
	if err != nil || !res.IsError {
		t.Fatalf("invalid args with option: err=%v res=%+v", err, res)
	}
	if !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"/meta"`) {
		t.Errorf("isError result lacks the pointer: %s", res.Content[0].(*mcp.TextContent).Text)
	}
	h.err = rpcerr.RateLimited("slow", time.Second)
	if _, err := call(t, cs, "search_locations", `{"meta":`+goodMeta+`,"location":{}}`); err == nil {
		t.Fatal("transport errors must stay JSON-RPC errors with the option on")
	}
	cs2 := connect(t, &seedHooks{}, nil)
	if _, err := call(t, cs2, "search_locations", `{"location":{}}`); wireError(t, err).Code != -32602 {
		t.Fatalf("default must be a -32602 error, got %v", err)
	}
}

// TestBadCalls sends invalid calls; none may reach the hooks.
func TestBadCalls(t *testing.T) {
	m := goodMeta
	cases := []struct {
		name, tool, args, pointer string
	}{
		{"missing meta", "search_locations", `{"location":{}}`, "/meta"},
		{"missing location", "search_locations", `{"meta":` + m + `}`, "/location"},
		{"meta without ucp-agent", "search_locations", `{"meta":{},"location":{}}`, "/meta/ucp-agent"},
		{"ucp-agent without profile", "lookup_locations", `{"meta":{"ucp-agent":{}},"location":{"ids":["a"]}}`, "/meta/ucp-agent/profile"},
		{"meta not an object", "search_locations", `{"meta":5,"location":{}}`, "/meta"},
		{"arguments not an object", "search_locations", `[1,2]`, ""},
		{"location null", "search_locations", `{"meta":` + m + `,"location":null}`, "/location"},
		{"query not a string", "search_locations", `{"meta":` + m + `,"location":{"query":5}}`, "/location/query"},
		{"max not a number", "search_locations", `{"meta":` + m + `,"location":{"distance":{"center":{"latitude":1,"longitude":2},"max":"far"}}}`, "/location/distance/max"},
		{"ids not an array", "lookup_locations", `{"meta":` + m + `,"location":{"ids":"a"}}`, "/location/ids"},
		{"limit not an integer", "search_locations", `{"meta":` + m + `,"location":{"pagination":{"limit":"ten"}}}`, "/location/pagination/limit"},
		{"profile not a URI", "search_locations", `{"meta":{"ucp-agent":{"profile":"not a uri"}},"location":{}}`, "/meta/ucp-agent/profile"},
		{"distance without center", "search_locations", `{"meta":` + m + `,"location":{"distance":{"max":5}}}`, "/location/distance"},
		{"negative max", "search_locations", `{"meta":` + m + `,"location":{"distance":{"center":{"latitude":1,"longitude":2},"max":-5}}}`, "/location/distance/max"},
		{"latitude out of range", "search_locations", `{"meta":` + m + `,"location":{"distance":{"center":{"latitude":91,"longitude":2},"max":5}}}`, "/location/distance/center/latitude"},
		{"empty serves", "search_locations", `{"meta":` + m + `,"location":{"serves":{}}}`, "/location/serves"},
		{"two-key serves", "search_locations", `{"meta":` + m + `,"location":{"serves":{"point":{"latitude":1,"longitude":2},"address":{"address_country":"US"}}}}`, "/location/serves"},
		{"empty serves.address", "search_locations", `{"meta":` + m + `,"location":{"serves":{"address":{}}}}`, "/location/serves/address"},
		{"all-empty serves.address", "lookup_locations", `{"meta":` + m + `,"location":{"ids":["a"],"serves":{"address":{"postal_code":""}}}}`, "/location/serves/address"},
		{"serves key not reverse-domain", "search_locations", `{"meta":` + m + `,"location":{"serves":{"Zone":{}}}}`, "/location/serves"},
		{"open_at without offset", "search_locations", `{"meta":` + m + `,"location":{"filters":{"hours":{"open_at":"2026-05-18T17:00:00"}}}}`, "/location/filters/hours/open_at"},
		{"open_at not a date-time", "search_locations", `{"meta":` + m + `,"location":{"filters":{"hours":{"open_at":"tomorrow Z"}}}}`, "/location/filters/hours/open_at"},
		{"hours filter without open_at", "search_locations", `{"meta":` + m + `,"location":{"filters":{"hours":{}}}}`, "/location/filters/hours"},
		{"amenity id bad pattern", "search_locations", `{"meta":` + m + `,"location":{"filters":{"amenities":["Parking"]}}}`, "/location/filters/amenities/0"},
		{"items empty", "search_locations", `{"meta":` + m + `,"location":{"filters":{"items":[]}}}`, "/location/filters/items"},
		{"items duplicated", "search_locations", `{"meta":` + m + `,"location":{"filters":{"items":["a","a"]}}}`, "/location/filters/items"},
		{"item empty string", "lookup_locations", `{"meta":` + m + `,"location":{"ids":["a"],"filters":{"items":[""]}}}`, "/location/filters/items/0"},
		{"ids empty", "lookup_locations", `{"meta":` + m + `,"location":{"ids":[]}}`, "/location/ids"},
		{"ids missing", "lookup_locations", `{"meta":` + m + `,"location":{}}`, "/location"},
		{"limit zero", "search_locations", `{"meta":` + m + `,"location":{"pagination":{"limit":0}}}`, "/location/pagination/limit"},
		{"signal key not reverse-domain", "search_locations", `{"meta":` + m + `,"location":{"signals":{"ip":"1.2.3.4"}}}`, "/location/signals"},
		{"case-folded member is not id", "lookup_locations", `{"meta":` + m + `,"location":{"IDS":["a"]}}`, "/location"},
	}
	if len(cases) < 25 {
		t.Fatalf("only %d bad calls", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &seedHooks{}
			cs := connect(t, h, nil)
			_, err := call(t, cs, c.tool, c.args)
			je := wireError(t, err)
			if je.Code != -32602 {
				t.Fatalf("want -32602, got %v", err)
			}
			if !strings.Contains(string(je.Data), `"pointer":"`+c.pointer) {
				t.Fatalf("data %s lacks pointer %q", je.Data, c.pointer)
			}
			if h.calls != 0 {
				t.Fatal("hook was called")
			}
		})
	}
}

func TestBusinessProfile(t *testing.T) {
	b, err := location.BusinessProfile(&seedHooks{}, "https://shop.example/ucp/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		UCP struct {
			Version      string
			Services     map[string][]map[string]string
			Capabilities map[string][]map[string]string
			Handlers     map[string]any `json:"payment_handlers"`
		}
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	// The expected version, capabilities and schema URLs come from the
	// generator's model of this package's input, not from pinned text.
	m := sourceModel(t)
	want := map[string]string{}
	for _, tool := range m.Tools {
		u, err := m.PublishedURL(tool.CapabilityFile)
		if err != nil {
			t.Fatal(err)
		}
		want[tool.Capability] = u
	}
	if p.UCP.Version != m.Version || location.ProtocolVersion != m.Version || p.UCP.Services["dev.ucp.common"][0]["endpoint"] != "https://shop.example/ucp/mcp" ||
		len(p.UCP.Capabilities) != len(want) || len(want) != 2 || p.UCP.Handlers == nil {
		t.Fatalf("unexpected profile: %s", b)
	}
	for c, u := range want {
		if got := p.UCP.Capabilities[c]; len(got) != 1 || got[0]["schema"] != u || got[0]["version"] != m.Version {
			t.Errorf("capability %s: %v, want schema %s at version %s", c, got, u, m.Version)
		}
	}
	_ = opt.Some(1)
}

// TestUnknownToolAndMalformedJSON covers failures the SDK answers itself.
func TestUnknownToolAndMalformedJSON(t *testing.T) {
	h := &seedHooks{}
	cs := connect(t, h, nil)
	if je := wireError(t, func() error { _, err := call(t, cs, "find_stores", `{}`); return err }()); je.Code != -32602 {
		t.Fatalf("unknown tool: %d", je.Code)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	location.Register(server, h, nil)
	ts := httptest.NewServer(mcpserver.Handler(server, nil))
	defer ts.Close()
	// A body that is not JSON is refused before any tool runs: HTTP 400
	// with a JSON-RPC -32700 error object.
	status, _, body := post(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":`)
	if status != 400 || !strings.Contains(body, `"code":-32700`) {
		t.Fatalf("malformed JSON answered with %d %q", status, body)
	}
	if h.calls != 0 {
		t.Fatal("hook was called")
	}
}

// TestBusinessProfileMatchesReleaseExample renders the profile of the
// release's own example Business (its MCP endpoint) and requires the very
// document the release shows, spec page URLs included, so that a Platform
// reading ours sees every member the release's example carries.
func TestBusinessProfileMatchesReleaseExample(t *testing.T) {
	raw, err := os.ReadFile(testshared.Path(t, "ucp-upstream", "2026-08-25", "examples", "mcp-14-profile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ex struct{ Payload json.RawMessage }
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	got, err := location.BusinessProfile(&seedHooks{}, "https://business.example.com/ucp/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var want, have any
	if err := json.Unmarshal(ex.Payload, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &have); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, have) {
		t.Fatalf("profile differs from the release example\n got: %s\nwant: %s", got, ex.Payload)
	}
}
