package conform

import (
	"encoding/json"
	"net/http"
	"strings"
)

// probe is a request the Business must refuse as invalid parameters.
type probe struct {
	op, name, body string
	// pointer is the JSON Pointer (into the domain request) of the bad
	// member; its parent is accepted too.
	pointer string
}

func (s *session) probes() []probe {
	ps := []probe{
		{opSearch, "negative distance.max", `{"distance":{"center":{"latitude":0,"longitude":0},"max":-1}}`, "/distance/max"},
		{opSearch, "distance without max", `{"distance":{"center":{"latitude":0,"longitude":0}}}`, "/distance/max"},
		{opSearch, "latitude out of range", `{"distance":{"center":{"latitude":91,"longitude":0},"max":10}}`, "/distance/center/latitude"},
		{opSearch, "empty serves", `{"serves":{}}`, "/serves"},
		{opSearch, "serves with two keys", `{"serves":{"point":{"latitude":0,"longitude":0},"address":{"address_country":"US"}}}`, "/serves"},
		{opSearch, "serves.address without a usable field", `{"serves":{"address":{}}}`, "/serves/address"},
		{opSearch, "serves extension that was not negotiated", `{"serves":{"org.example.conform.zone":{"id":"z1"}}}`, "/serves/org.example.conform.zone"},
		{opSearch, "unknown filter", `{"filters":{"org_example_conform_unknown":true}}`, "/filters/org_example_conform_unknown"},
		{opSearch, "hours.open_at that is not RFC 3339", `{"filters":{"hours":{"open_at":"tomorrow at noon"}}}`, "/filters/hours/open_at"},
		{opSearch, "pagination.limit 0", `{"pagination":{"limit":0}}`, "/pagination/limit"},
		{opLookup, "empty ids", `{"ids":[]}`, "/ids"},
	}
	if s.d.itemsKey == "items" {
		ps = append(ps,
			probe{opSearch, "empty filters.items", `{"filters":{"items":[]}}`, "/filters/items"},
			probe{opSearch, "repeated filters.items", `{"filters":{"items":["a","a"]}}`, "/filters/items"})
	}
	return ps
}

// errors checks the error model: invalid parameters are -32602 over MCP
// and 400 over REST, each with a JSON Pointer to the member and a reason.
func (s *session) errors() error {
	c := s.check("errors.invalid-params", map[string]string{"mcp": "2", "rest": "13"}[s.t.kind()], "MUST",
		map[string]string{
			"mcp":  "invalid parameters get JSON-RPC -32602 whose data names the member by JSON Pointer into the arguments, with a reason",
			"rest": "invalid parameters get HTTP 400 whose body names the member by JSON Pointer, with a reason",
		}[s.t.kind()])
	for _, p := range s.probes() {
		if !s.caps[p.op] {
			continue
		}
		rep, pg, err := s.call(p.op, json.RawMessage(p.body), "error: "+p.name)
		if err != nil {
			return err
		}
		if pg != nil || rep.ok {
			c.failf("%s (%s %s): accepted with a success; want a refusal", p.name, p.op, p.body)
			continue
		}
		want := p.pointer
		if s.t.kind() == "mcp" {
			want = "/location" + want
			if rep.code != -32602 {
				c.failf("%s (%s %s): JSON-RPC code %d (%s), want -32602", p.name, p.op, p.body, rep.code, rep.message)
				continue
			}
			if strings.TrimSpace(rep.message) == "" {
				c.failf("%s: error.message is empty; a reason is due", p.name)
			}
		} else if rep.status != http.StatusBadRequest {
			c.failf("%s (%s %s): HTTP %d, want 400", p.name, p.op, p.body, rep.status)
			continue
		}
		if !hasPointer(rep.data, want) {
			c.failf("%s (%s %s): no JSON Pointer %s (or its parent) in the error: %s", p.name, p.op, p.body, want, clip(rep.data))
		}
	}
	if s.t.kind() == "mcp" {
		return s.mcpErrors()
	}
	return s.restErrors()
}

// hasPointer reports whether data holds, at any depth, the string want,
// want's parent pointer, or a pointer below want (an array entry of it).
func hasPointer(data json.RawMessage, want string) bool {
	parent := ""
	if i := strings.LastIndex(want, "/"); i > 0 {
		parent = want[:i]
	}
	return findString(data, func(x string) bool {
		return x == want || (parent != "" && x == parent) || strings.HasPrefix(x, want+"/")
	})
}

// findString reports whether data holds, at any depth, a string match
// accepts.
func findString(data json.RawMessage, match func(string) bool) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return match(x)
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// mcpErrors checks the JSON-RPC errors that are not about the domain
// request: a body that is not JSON, a call without meta, an unknown tool.
func (s *session) mcpErrors() error {
	m := s.t.(*mcpTransport)
	c := s.check("mcp.errors", "2", "MUST", "a body that is not JSON gets -32700 with id null, a call without meta.ucp-agent gets -32602, one whose profile is not a URI -32602 or -32001 invalid_profile_url, an unknown tool a JSON-RPC error")
	a, err := m.post(s.ctx, []byte(`{"jsonrpc":"2.0","id":`), nil)
	if err != nil {
		return lost(s.ctx, c, "a truncated JSON body", err)
	}
	if code := rpcCode(a); code != -32700 {
		c.failf("a truncated JSON body: code %d, want -32700 (parse error)", code)
	}
	for _, f := range a.framing {
		c.failf("a truncated JSON body: %s", f)
	}
	tool := toolOf[opSearch]
	if !s.caps[opSearch] {
		tool = toolOf[opLookup]
	}
	a, err = m.rpc(s.ctx, "tools/call", map[string]any{"name": tool, "arguments": map[string]any{"location": map[string]any{"ids": []string{"x"}}}})
	if err != nil {
		return lost(s.ctx, c, tool+" without meta", err)
	}
	if r := toolReply(a); r.code != -32602 {
		c.failf("%s without meta: %s, want -32602 (meta.ucp-agent.profile is required)", tool, describeRPC(r))
	} else if !hasPointer(r.data, "/meta/ucp-agent") && !hasPointer(r.data, "/meta") {
		c.failf("%s without meta: no JSON Pointer to /meta in the error: %s", tool, clip(r.data))
	}
	args := m.arguments(json.RawMessage(`{}`))
	if tool == toolOf[opLookup] {
		args = m.arguments(json.RawMessage(`{"ids":["x"]}`))
	}
	args["meta"] = map[string]any{"ucp-agent": map[string]any{"profile": "not a uri"}}
	a, err = m.rpc(s.ctx, "tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return lost(s.ctx, c, tool+" with a profile that is not a URI", err)
	}
	if r := toolReply(a); r.code != -32602 && !(r.code == -32001 && findString(r.data, func(x string) bool { return x == "invalid_profile_url" })) {
		c.failf("%s with meta.ucp-agent.profile \"not a uri\": %s, want -32602 or -32001 invalid_profile_url", tool, describeRPC(r))
	}
	a, err = m.rpc(s.ctx, "tools/call", map[string]any{"name": "ucpgen_conform_no_such_tool", "arguments": m.arguments(json.RawMessage(`{}`))})
	if err != nil {
		return lost(s.ctx, c, "an unknown tool", err)
	}
	if r := toolReply(a); r.code == 0 {
		c.failf("an unknown tool: %s, want a JSON-RPC error", describeRPC(r))
	}
	return nil
}

func rpcCode(a rpcAnswer) int {
	return toolReply(a).code
}

func describeRPC(r reply) string {
	if r.ok {
		return "a successful result"
	}
	if r.code == 0 {
		return "no JSON-RPC error"
	}
	return describe(r)
}

// restErrors checks REST's header and body refusals.
func (s *session) restErrors() error {
	t := s.t.(*restTransport)
	c := s.check("rest.errors", "13", "MUST", "a body that is not JSON, a request without UCP-Agent, one whose profile is not a URI and one without Request-Id each get HTTP 400")
	op := opSearch
	body := []byte(`{}`)
	if !s.caps[opSearch] {
		op, body = opLookup, []byte(`{"ids":["x"]}`)
	}
	cases := []struct {
		name  string
		body  []byte
		drop  string
		agent string
	}{
		{"a truncated JSON body", []byte(`{"distance":`), "", ""},
		{"no UCP-Agent header", body, "UCP-Agent", ""},
		{"a UCP-Agent profile that is not a URI", body, "", `profile="not a uri"`},
		{"no Request-Id header", body, "Request-Id", ""},
	}
	for _, tc := range cases {
		h := t.headers()
		if tc.drop != "" {
			h.Del(tc.drop)
		}
		if tc.agent != "" {
			h.Set("UCP-Agent", tc.agent)
		}
		r, err := t.post(s.ctx, op, tc.body, h)
		if err != nil {
			return lost(s.ctx, c, tc.name, err)
		}
		if r.status != http.StatusBadRequest {
			c.failf("%s: HTTP %d, want 400", tc.name, r.status)
		}
	}
	return nil
}
