package mcpserver_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// directTools are tools whose answers cover every outcome the direct path
// writes: a result with characters encoding/json escapes, each typed error,
// an untyped one, a panic, and the capabilities_incompatible outcome.
func directTools() []ucpcore.Tool {
	return []ucpcore.Tool{
		echoTool("search", func(_ context.Context, loc map[string]any) (any, error) {
			switch loc["outcome"] {
			case "invalid":
				return nil, rpcerr.Invalid("/location/distance", "required", "needs a <center> & a max")
			case "limited":
				return nil, rpcerr.RateLimited("slow down", 2*time.Second)
			case "discovery":
				return nil, &rpcerr.Discovery{Code: "profile_unreachable", Content: "profile unreachable"}
			case "fault":
				return nil, errors.New("database on fire")
			case "panic":
				panic("hook exploded")
			}
			return map[string]any{"locations": []any{map[string]any{
				"id":   "loc_1",
				"name": "Fish <&> Chips \u2028 Café \"quoted\" \\ tab\t",
				"geo":  map[string]any{"latitude": 51.5, "longitude": -0.12},
			}}}, nil
		}),
		func() ucpcore.Tool {
			t := echoTool("lookup", emptyResult)
			t.Capability = "dev.ucp.common.location.lookup"
			return t
		}(),
		paramsTool("get"),
	}
}

// directCase is one request sent to both handlers; direct says whether the
// direct path should answer it (false: the SDK must).
type directCase struct {
	name   string
	body   string
	header []string
	direct bool
}

// directCases are the requests of the differential test at one protocol
// version; from 2026-07-28 calls carry the per-request _meta and the
// Mcp-Method and Mcp-Name headers that version requires.
func directCases(version string) []directCase {
	newProtocol := version >= "2026-07-28"
	args := func(loc string) string { return `{"meta":` + meta + `,"location":` + loc + `}` }
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	protoMeta := func(extra string) string {
		if !newProtocol {
			return extra
		}
		m := `"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}}`
		if extra != "" {
			m += "," + extra
		}
		return m
	}
	params := func(name, metaExtra, rest string) string {
		p := `{`
		if m := protoMeta(metaExtra); m != "" {
			p += `"_meta":{` + m + `},`
		}
		return p + `"name":"` + name + `"` + rest + `}`
	}
	plain := func(id, loc string) string { return call(id, params("search", "", `,"arguments":`+args(loc))) }
	headers := func(name string, extra ...string) []string {
		if !newProtocol {
			return extra
		}
		return append([]string{"Mcp-Method", "tools/call", "Mcp-Name", name}, extra...)
	}
	cases := []directCase{
		{name: "result", body: plain("1", `{}`), direct: true},
		{name: "string id", body: plain(`"a\"<b>"`, `{}`), direct: true},
		{name: "largest exact id", body: plain("9007199254740992", `{}`), direct: true},
		{name: "smallest exact id", body: plain("-9007199254740992", `{}`), direct: true},
		{name: "id beyond 2^53", body: plain("9007199254740993", `{}`)},
		{name: "id of int64 max", body: plain("9223372036854775807", `{}`)},
		{name: "fraction id", body: plain("1.5", `{}`)},
		{name: "exponent id", body: plain("1e3", `{}`)},
		{name: "repeated id", body: `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":` + params("search", "", `,"arguments":`+args(`{}`)) + `}`},
		{name: "unparsable content type", body: plain("26", `{}`), header: headers("search", "Content-Type", "application/json; charset")},
		{name: "Last-Event-ID on POST", body: plain("27", `{}`), header: headers("search", "Last-Event-ID", "1")},
		{name: "progress token", body: call("2", params("search", `"progressToken":7`, `,"arguments":`+args(`{}`))), direct: true},
		{name: "invalid params", body: plain("3", `{"outcome":"invalid"}`), direct: true},
		{name: "invalid arguments", body: call("4", params("search", "", `,"arguments":{"meta":`+meta+`}`)), direct: true},
		{name: "rate limited", body: plain("5", `{"outcome":"limited"}`), direct: true},
		{name: "discovery", body: plain("6", `{"outcome":"discovery"}`), direct: true},
		{name: "fault", body: plain("7", `{"outcome":"fault"}`), direct: true},
		{name: "panic", body: plain("8", `{"outcome":"panic"}`), direct: true},
		{name: "incompatible", body: call("9", params("lookup", "", `,"arguments":`+args(`{}`))), header: headers("lookup"), direct: true},
		{name: "unknown tool", body: call("10", params("nope", "", `,"arguments":`+args(`{}`))), header: headers("nope")},
		{name: "extra params member", body: call("11", params("search", "", `,"arguments":`+args(`{}`)+`,"task":{}`))},
		{name: "arguments not an object", body: call("12", params("search", "", `,"arguments":[1]`))},
		{name: "no arguments", body: call("13", params("search", "", ""))},
		{name: "notification", body: `{"jsonrpc":"2.0","method":"tools/call","params":` + params("search", "", `,"arguments":`+args(`{}`)) + `}`},
		{name: "accept without event-stream", body: plain("14", `{}`), header: headers("search", "Accept", "application/json")},
		{name: "text content type", body: plain("15", `{}`), header: headers("search", "Content-Type", "text/plain")},
		{name: "foreign host", body: plain("16", `{}`), header: headers("search", "Host", "evil.example")},
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":17,"method":"tools/list"}`},
		{name: "protocol key in _meta", body: call("18", params("search", `"io.modelcontextprotocol/logLevel":"debug"`, `,"arguments":`+args(`{}`)))},
		{name: "Mcp-Name differs", body: plain("19", `{}`), header: []string{"Mcp-Method", "tools/call", "Mcp-Name", "lookup"}},
		{name: "Mcp-Method missing", body: plain("20", `{}`), header: []string{"Mcp-Name", "search"}},
		{name: "Mcp-Param header", body: plain("21", `{}`), header: headers("search", "Mcp-Param-Region", "eu")},
		{name: "_meta version differs", body: call("22", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}},"name":"search","arguments":`+args(`{}`)+`}`), header: headers("search")},
		{name: "capabilities missing", body: call("23", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+version+`"},"name":"search","arguments":`+args(`{}`)+`}`), header: headers("search")},
		{name: "capabilities not an object", body: call("24", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+version+`","io.modelcontextprotocol/clientCapabilities":[]},"name":"search","arguments":`+args(`{}`)+`}`), header: headers("search")},
		{name: "three params", body: call("26", params("get", "", `,"arguments":{"meta":`+meta+`,"id":"c_1","cart":{"n":1}}`)), header: headers("get"), direct: true},
		{name: "optional param absent", body: call("27", params("get", "", `,"arguments":{"id":"c_1","meta":`+meta+`}`)), header: headers("get"), direct: true},
		{name: "scalar param invalid", body: call("28", params("get", "", `,"arguments":{"meta":`+meta+`,"id":7,"cart":[]}`)), header: headers("get"), direct: true},
		{name: "required scalar param missing", body: call("29", params("get", "", `,"arguments":{"meta":`+meta+`}`)), header: headers("get"), direct: true},
		{name: "another tool's param", body: call("30", params("get", "", `,"arguments":{"meta":`+meta+`,"id":"c_1","location":{}}`)), header: headers("get"), direct: true},
		{name: "client info of the wrong type", body: call("25", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+version+`","io.modelcontextprotocol/clientInfo":{"name":5},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search","arguments":`+args(`{}`)+`}`), header: headers("search")},
	}
	for i := range cases {
		if cases[i].header == nil {
			cases[i].header = headers("search")
		}
	}
	return cases
}

// TestDirectToolCallsMatchTheSDK sends every case, at every protocol
// version, to a handler with the direct path and to one without, and
// requires the same status, headers and bytes; a counting middleware shows
// which path answered.
func TestDirectToolCallsMatchTheSDK(t *testing.T) {
	logger, _ := quietLogger()
	opts := &ucpcore.Options{Logger: logger, Version: "2026-08-25", Negotiator: envelope.Fixed("2026-08-25", map[string]string{"dev.ucp.common.location.search": "2026-08-25"})}
	sdk := newServer(opts, directTools()...)
	direct := newServer(opts, directTools()...)
	var throughSDK atomic.Int64
	direct.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				throughSDK.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	sdkURL := serveHTTP(t, sdk, &mcpserver.HTTPOptions{Logger: logger})
	directURL := serveHTTP(t, direct, &mcpserver.HTTPOptions{Logger: logger, DirectToolCalls: true})
	// The direct path learns each tool from its first call, which the SDK
	// answers; every case below then finds the tools learned.
	warmDirect(t, directURL, "search", "lookup", "get")
	if n := throughSDK.Load(); n != 3 {
		t.Fatalf("the first call of each tool: %d through the SDK, want 3", n)
	}

	versions := []string{"", "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "2027-01-01", "2000-01-01"}
	for _, version := range versions {
		for _, c := range directCases(version) {
			t.Run(fmt.Sprintf("%s/%s", version, c.name), func(t *testing.T) {
				header := append([]string{"Mcp-Protocol-Version", version}, c.header...)
				want := rawPost(t, sdkURL, c.body, header)
				before := throughSDK.Load()
				got := rawPost(t, directURL, c.body, header)
				if got != want {
					t.Errorf("direct path differs from the SDK:\ndirect: %s\nsdk:    %s", got, want)
				}
				usedSDK := throughSDK.Load() != before
				known := version == "" || slices.Contains(versions[1:6], version)
				isCall := strings.Contains(c.body, `"tools/call"`) && !strings.Contains(c.name, "notification")
				if isCall && c.direct && known && usedSDK {
					t.Errorf("answered by the SDK, want the direct path")
				}
			})
		}
	}
}

// rawPost sends body with header pairs (see send) and renders status, the
// headers that matter and the body as one string.
func rawPost(t *testing.T, url, body string, header []string) string {
	t.Helper()
	resp, raw := send(t, url, body, header)
	var keys []string
	for k := range resp.Header {
		if k != "Date" {
			keys = append(keys, k+"="+strings.Join(resp.Header[k], ","))
		}
	}
	slices.Sort(keys)
	return fmt.Sprintf("%d %v\n%q", resp.StatusCode, keys, raw)
}

// warmDirect calls each tool once, so that a handler with the direct path
// has learned them all (the first call of a tool goes through the SDK).
func warmDirect(t *testing.T, url string, tools ...string) {
	t.Helper()
	for i, name := range tools {
		post(t, url, callBody(1000+i, name, `{"meta":`+meta+`,"location":{}}`))
	}
}
