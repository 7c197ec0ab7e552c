package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"strings"
)

// Operations and the tools and REST paths that carry them.
const (
	opSearch = "search"
	opLookup = "lookup"
)

var (
	toolOf = map[string]string{opSearch: "search_locations", opLookup: "lookup_locations"}
	pathOf = map[string]string{opSearch: "/locations/search", opLookup: "/locations/lookup"}
	capOf  = map[string]string{opSearch: "dev.ucp.common.location.search", opLookup: "dev.ucp.common.location.lookup"}
)

// mcpProtocolVersion is the MCP revision the checker speaks.
const mcpProtocolVersion = "2025-06-18"

// reply is one Location operation's answer, whichever transport carried it.
type reply struct {
	// ok is a success: body holds the UCP response object.
	ok   bool
	body []byte
	// status is the HTTP status of the exchange.
	status int
	// code and message are the JSON-RPC error (MCP only); data is error.data
	// over MCP and the whole error body over REST.
	code    int
	message string
	data    json.RawMessage
	// framing lists the ways the exchange broke its transport's rules.
	framing []string
}

// transport calls the two Location operations over one advertised binding.
type transport interface {
	// kind is "mcp" or "rest".
	kind() string
	// call sends the domain request (MCP's arguments.location, REST's
	// body) of op.
	call(ctx context.Context, op string, location json.RawMessage) (reply, error)
}

// mcpTransport is raw JSON-RPC 2.0 over MCP's streamable HTTP: the
// checker frames every message itself, since framing is what it checks.
type mcpTransport struct {
	c        *client
	endpoint string
	agent    string
	session  string
	nextID   int
}

func (m *mcpTransport) kind() string { return "mcp" }

// rpcAnswer is one JSON-RPC exchange over MCP.
type rpcAnswer struct {
	status int
	// msg is the JSON-RPC response (nil when none was found).
	msg map[string]json.RawMessage
	// framing lists the ways the exchange broke JSON-RPC or MCP's HTTP rules.
	framing []string
}

func (m *mcpTransport) headers() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if m.session != "" {
		h.Set("Mcp-Session-Id", m.session)
		h.Set("Mcp-Protocol-Version", mcpProtocolVersion)
	}
	return h
}

// id returns the next request id, alternating numbers and strings so that
// both kinds are seen echoed.
func (m *mcpTransport) id() any {
	m.nextID++
	if m.nextID%2 == 0 {
		return fmt.Sprintf("conform-%d", m.nextID)
	}
	return m.nextID
}

// post sends one raw body and finds the JSON-RPC response whose id is want
// (wantNull: a response with id null, as parse errors carry).
func (m *mcpTransport) post(ctx context.Context, body []byte, want any) (rpcAnswer, error) {
	a, err := m.c.do(ctx, m.endpoint, body, m.headers())
	if err != nil {
		return rpcAnswer{}, err
	}
	out := rpcAnswer{status: a.status}
	if s := a.header.Get("Mcp-Session-Id"); s != "" && m.session == "" {
		m.session = s
	}
	ct, _, _ := mime.ParseMediaType(a.header.Get("Content-Type"))
	var candidates [][]byte
	switch ct {
	case "application/json":
		candidates = [][]byte{a.body}
	case "text/event-stream":
		candidates = sseData(a.body)
	default:
		out.framing = append(out.framing, fmt.Sprintf("HTTP %d with Content-Type %q; a JSON-RPC response needs application/json or text/event-stream", a.status, a.header.Get("Content-Type")))
		return out, nil
	}
	wantID, _ := json.Marshal(want)
	for _, c := range candidates {
		var msg map[string]json.RawMessage
		if json.Unmarshal(c, &msg) != nil {
			continue
		}
		if _, isResponse := msg["id"]; !isResponse {
			continue // a notification or a server request
		}
		if !jsonEqual(msg["id"], wantID) {
			out.framing = append(out.framing, fmt.Sprintf("response id %s does not echo the request id %s", msg["id"], wantID))
		}
		out.msg = msg
		break
	}
	if out.msg == nil {
		out.framing = append(out.framing, fmt.Sprintf("HTTP %d carries no JSON-RPC response: %s", a.status, clip(a.body)))
		return out, nil
	}
	if string(out.msg["jsonrpc"]) != `"2.0"` {
		out.framing = append(out.framing, fmt.Sprintf(`"jsonrpc" is %s, not "2.0"`, out.msg["jsonrpc"]))
	}
	_, hasResult := out.msg["result"]
	_, hasError := out.msg["error"]
	if hasResult == hasError {
		out.framing = append(out.framing, "a JSON-RPC response holds exactly one of result and error")
	}
	return out, nil
}

// rpc sends one JSON-RPC request with a fresh id.
func (m *mcpTransport) rpc(ctx context.Context, method string, params any) (rpcAnswer, error) {
	id := m.id()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return rpcAnswer{}, err
	}
	return m.post(ctx, body, id)
}

// initialize opens the MCP session: initialize, then the initialized
// notification.
func (m *mcpTransport) initialize(ctx context.Context) (rpcAnswer, error) {
	a, err := m.rpc(ctx, "initialize", map[string]any{
		"protocolVersion": mcpProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "ucpgen-conform", "version": "1"},
	})
	if err != nil || a.msg == nil || a.msg["result"] == nil {
		return a, err
	}
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if _, err := m.c.do(ctx, m.endpoint, note, m.headers()); err != nil {
		return a, err
	}
	return a, nil
}

func (m *mcpTransport) arguments(location json.RawMessage) map[string]any {
	return map[string]any{
		"meta":     map[string]any{"ucp-agent": map[string]any{"profile": m.agent}},
		"location": location,
	}
}

func (m *mcpTransport) call(ctx context.Context, op string, location json.RawMessage) (reply, error) {
	a, err := m.rpc(ctx, "tools/call", map[string]any{"name": toolOf[op], "arguments": m.arguments(location)})
	if err != nil {
		return reply{}, err
	}
	return toolReply(a), nil
}

// toolReply reads a tools/call answer: a result with structuredContent and
// the same JSON as a text block, or a JSON-RPC error.
func toolReply(a rpcAnswer) reply {
	r := reply{status: a.status, framing: a.framing}
	if a.msg == nil {
		return r
	}
	if raw, ok := a.msg["error"]; ok {
		var e struct {
			Code    *int            `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(raw, &e); err != nil || e.Code == nil {
			r.framing = append(r.framing, fmt.Sprintf("error %s is not {code, message}", clip(raw)))
			return r
		}
		r.code, r.message, r.data = *e.Code, e.Message, e.Data
		return r
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured json.RawMessage `json:"structuredContent"`
		IsError    bool            `json:"isError"`
	}
	if err := json.Unmarshal(a.msg["result"], &res); err != nil {
		r.framing = append(r.framing, fmt.Sprintf("result is not a tools/call result: %v", err))
		return r
	}
	if res.IsError {
		r.framing = append(r.framing, "result has isError: a UCP transport error is a JSON-RPC error, a Business outcome a successful result (section 2)")
	}
	if len(res.Structured) == 0 || res.Structured[0] != '{' {
		r.framing = append(r.framing, "result has no structuredContent object (section 1)")
		return r
	}
	text := false
	for _, c := range res.Content {
		if c.Type == "text" && jsonEqual([]byte(c.Text), res.Structured) {
			text = true
		}
	}
	if !text {
		r.framing = append(r.framing, "result.content has no text block with the same JSON as structuredContent (section 1)")
	}
	r.ok, r.body = true, res.Structured
	return r
}

// restTransport is the REST binding: POST {endpoint}/locations/{op}.
type restTransport struct {
	c        *client
	endpoint string
	agent    string
}

func (t *restTransport) kind() string { return "rest" }

func (t *restTransport) headers() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("UCP-Agent", fmt.Sprintf("profile=%q", t.agent))
	h.Set("Request-Id", newUUID())
	return h
}

func (t *restTransport) call(ctx context.Context, op string, location json.RawMessage) (reply, error) {
	return t.post(ctx, op, location, t.headers())
}

func (t *restTransport) post(ctx context.Context, op string, body []byte, h http.Header) (reply, error) {
	a, err := t.c.do(ctx, strings.TrimSuffix(t.endpoint, "/")+pathOf[op], body, h)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: a.status}
	ct, _, _ := mime.ParseMediaType(a.header.Get("Content-Type"))
	if ct != "application/json" {
		r.framing = append(r.framing, fmt.Sprintf("HTTP %d with Content-Type %q, not application/json (section 13)", a.status, a.header.Get("Content-Type")))
	}
	if !json.Valid(a.body) || len(bytes.TrimSpace(a.body)) == 0 || bytes.TrimSpace(a.body)[0] != '{' {
		r.framing = append(r.framing, fmt.Sprintf("HTTP %d body is not a JSON object: %s", a.status, clip(a.body)))
		return r, nil
	}
	if a.status == http.StatusOK {
		r.ok, r.body = true, a.body
	} else {
		r.data = a.body
	}
	return r, nil
}

// sseData returns the data of each event of a text/event-stream body.
func sseData(body []byte) [][]byte {
	var out [][]byte
	var cur []byte
	flush := func() {
		if cur != nil {
			out = append(out, cur)
			cur = nil
		}
	}
	for _, line := range bytes.Split(body, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0:
			flush()
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if cur != nil {
				cur = append(cur, '\n')
			}
			cur = append(cur, d...)
		}
	}
	flush()
	return out
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// clip shortens a body for a message.
func clip(b []byte) string {
	const n = 200
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
