package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

// idCases are request ids and whether they come back byte for byte; the
// rest must be refused with -32600 and "id": null, never echoed changed.
var idCases = []struct {
	id    string
	exact bool
}{
	{`1`, true},
	{`0`, true},
	{`-7`, true},
	{`9007199254740992`, true},
	{`-9007199254740992`, true},
	{`"abc"`, true},
	{`9007199254740993`, false},
	{`9223372036854775807`, false},
	{`-9223372036854775809`, false},
	{`1.5`, false},
	{`1.0`, false},
	{`1e3`, false},
	{`-0`, false},
}

// rawID is the id member of a reply exactly as the wire carries it, and
// whether the member is there at all.
func rawID(t *testing.T, reply []byte) (string, bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(reply, &m); err != nil {
		t.Fatalf("reply is not a JSON object: %v: %s", err, reply)
	}
	id, ok := m["id"]
	return string(id), ok
}

// TestRequestIDsEchoedExactly checks JSON-RPC id fidelity on the direct
// path, the SDK path and stdio: an id comes back as sent, or the request
// is refused with -32600 and "id": null.
func TestRequestIDsEchoedExactly(t *testing.T) {
	tool := echoTool("search", emptyResult)
	for _, direct := range []bool{true, false} {
		url := serveHTTP(t, newServer(nil, tool), &mcpserver.HTTPOptions{DirectToolCalls: direct})
		for _, tc := range idCases {
			body := strings.Replace(callBody(1, "search", `{"meta":`+meta+`,"location":{}}`), `"id":1`, `"id":`+tc.id, 1)
			resp, raw := send(t, url, body, nil)
			id, ok := rawID(t, raw)
			switch {
			case tc.exact && (resp.StatusCode != 200 || id != tc.id):
				t.Errorf("direct=%v id %s: %d, id %s: %s", direct, tc.id, resp.StatusCode, id, raw)
			case !tc.exact && (resp.StatusCode != 400 || !ok || id != "null" || !strings.Contains(string(raw), "-32600")):
				t.Errorf("direct=%v id %s: %d, id %s (present %v), want 400 -32600 with id null: %s", direct, tc.id, resp.StatusCode, id, ok, raw)
			}
		}
	}

	s := newServer(nil, tool)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		s.Run(context.Background(), &mcpserver.StdioTransport{In: inR, Out: outW})
		outW.Close()
	}()
	defer inW.Close()
	lines := bufio.NewScanner(outR)
	next := func() []byte {
		t.Helper()
		got := make(chan bool, 1)
		go func() { got <- lines.Scan() }()
		select {
		case ok := <-got:
			if !ok {
				t.Fatal("stdio closed its output")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no reply over stdio")
		}
		return lines.Bytes()
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	next()
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for _, tc := range idCases {
		body := strings.Replace(callBody(1, "search", `{"meta":`+meta+`,"location":{}}`), `"id":1`, `"id":`+tc.id, 1)
		io.WriteString(inW, body+"\n")
		raw := next()
		id, ok := rawID(t, raw)
		switch {
		case tc.exact && id != tc.id:
			t.Errorf("stdio id %s: came back as %s: %s", tc.id, id, raw)
		case !tc.exact && (!ok || id != "null" || !strings.Contains(string(raw), "-32600")):
			t.Errorf("stdio id %s: id %s (present %v), want -32600 with id null: %s", tc.id, id, ok, raw)
		}
	}
	// A line that never became a request says "id": null too.
	io.WriteString(inW, "{not json\n")
	if id, ok := rawID(t, next()); !ok || id != "null" {
		t.Errorf("parse error over stdio: id %s present %v, want null", id, ok)
	}
}

// TestNullIDBeforeTheIDIsKnown checks that errors sent before the request's
// id is known carry "id": null, as JSON-RPC 2.0 requires.
func TestNullIDBeforeTheIDIsKnown(t *testing.T) {
	url := serveHTTP(t, newServer(nil, echoTool("search", emptyResult)), &mcpserver.HTTPOptions{MaxBodyBytes: 1024})
	for name, body := range map[string]string{
		"parse error":     `{"jsonrpc":`,
		"batch":           `[]`,
		"body too large":  `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 2048) + `"}}`,
		"no method":       `{"jsonrpc":"2.0","id":1}`,
		"repeated method": `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`,
	} {
		_, raw := send(t, url, body, nil)
		if id, ok := rawID(t, raw); !ok || id != "null" {
			t.Errorf("%s: id %s present %v, want null: %s", name, id, ok, raw)
		}
	}
}

// TestOtherMethodsGetJSON405 checks that GET, PUT and DELETE on a
// stateless endpoint get a JSON-RPC error with 405 and Allow, not plain
// text.
func TestOtherMethodsGetJSON405(t *testing.T) {
	url := serveHTTP(t, newServer(nil, echoTool("search", emptyResult)), nil)
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var r rpcReply
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || json.Unmarshal(raw, &r) != nil || r.Error == nil || r.Error.Code != -32600 {
			t.Errorf("%s: %d Allow %q %q: %s", method, resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("Content-Type"), raw)
		}
	}
}
