package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// outputSchema is a response shape like the generated Location tools': it
// requires ucp and a locations array.
const outputSchema = `{"$ref":"#/$defs/resp","$defs":{"resp":{"type":"object","required":["ucp","locations"],"properties":{"ucp":{"type":"object"},"locations":{"$ref":"#/$defs/list"},"messages":{"type":"array"}}},"list":{"type":"array","items":{"type":"object"}}}}`

// echoTool is a tool whose hook is run: it receives the decoded location
// object and returns whatever run returns.
func echoTool(name string, run func(ctx context.Context, loc map[string]any) (any, error)) ucpcore.Tool {
	return ucpcore.Tool{
		Name:         name,
		Capability:   "dev.ucp.common.location.search",
		InputSchema:  json.RawMessage(`{"type":"object","required":["meta","location"],"properties":{"meta":{"type":"object"},"location":{"type":"object"}}}`),
		OutputSchema: json.RawMessage(outputSchema),
		Params:       []ucpcore.Param{{Name: "meta", Required: true}, {Name: "location", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var loc map[string]any
			if err := json.Unmarshal(args[1], &loc); err != nil || loc == nil {
				return nil, rpcerr.Invalid("/location", "type", "must be an object")
			}
			return func(ctx context.Context) (any, error) { return run(ctx, loc) }, nil
		},
	}
}

// paramsTool is a tool of three params, none of them location: a required
// meta, a required scalar id and an optional object cart. Its hook answers
// with the id it was given and whether a cart came, so a test sees that
// each raw value reached its own param.
func paramsTool(name string) ucpcore.Tool {
	return ucpcore.Tool{
		Name:         name,
		Capability:   "dev.ucp.common.location.search",
		InputSchema:  json.RawMessage(`{"type":"object","required":["meta","id"],"properties":{"meta":{"type":"object"},"id":{"type":"string"},"cart":{"type":"object"}}}`),
		OutputSchema: json.RawMessage(outputSchema),
		Params:       []ucpcore.Param{{Name: "meta", Required: true}, {Name: "id", Required: true}, {Name: "cart"}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var id string
			idErr := json.Unmarshal(args[1], &id)
			if idErr != nil {
				idErr = rpcerr.Invalid("", "type", "must be a string")
			}
			var cartErr error
			if args[2] != nil && (len(args[2]) == 0 || args[2][0] != '{') {
				cartErr = rpcerr.Invalid("", "type", "must be an object")
			}
			if err := ucpcore.ArgumentErrors([]string{"meta", "id", "cart"}, nil, idErr, cartErr); err != nil {
				return nil, err
			}
			return func(context.Context) (any, error) {
				return map[string]any{"locations": []any{}, "id": id, "cart": args[2] != nil}, nil
			}, nil
		},
	}
}

// logBuffer collects log output safely across goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newServer registers tools on a fresh MCP server.
func newServer(opts *ucpcore.Options, tools ...ucpcore.Tool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, t := range tools {
		mcpserver.Add(s, t, opts)
	}
	return s
}

// rpcReply is a JSON-RPC response as the wire carries it.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// post sends body to url as an MCP client would and decodes the reply.
func post(t *testing.T, url, body string, header ...string) (*http.Response, rpcReply, string) {
	t.Helper()
	resp, raw := send(t, url, body, append([]string{"Mcp-Protocol-Version", "2025-06-18"}, header...))
	var r rpcReply
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("reply is not JSON-RPC: %v\n%s", err, raw)
		}
	}
	return resp, r, string(raw)
}

// send posts body with MCP's JSON headers, then the header pairs (Host sets
// the request's host, an empty value deletes the header), and returns the
// response with its whole body.
func send(t *testing.T, url, body string, header []string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		switch name, more := strings.CutPrefix(header[i], "+"); {
		case header[i] == "Host":
			req.Host = header[i+1]
		case more:
			req.Header.Add(name, header[i+1])
		case header[i+1] == "":
			req.Header.Del(header[i])
		default:
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, raw
}

// callBody is a tools/call request with the given id and arguments.
func callBody(id int, tool, arguments string) string {
	return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + arguments + `}}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

const meta = `{"ucp-agent":{"profile":"https://platform.example/agent.json"}}`

// serveHTTP starts a loopback server for s with opts.
func serveHTTP(t *testing.T, s *mcp.Server, opts *mcpserver.HTTPOptions) string {
	t.Helper()
	ts := httptest.NewServer(mcpserver.Handler(s, opts))
	t.Cleanup(ts.Close)
	return ts.URL
}

func quietLogger() (*slog.Logger, *logBuffer) {
	var b logBuffer
	return slog.New(slog.NewTextHandler(&b, nil)), &b
}

var httpClient = &http.Client{}

// newPost builds an MCP POST bound to ctx.
func newPost(t *testing.T, ctx context.Context, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req
}

// hangDeadline is when a test that waits for the server to do something
// gives up: a little before the test binary's -timeout would stop it, so
// a slow machine (the race detector on two busy cores) fails nothing a
// hang would not, and the test still reports what it waited for. Without
// a -timeout it is five minutes away.
func hangDeadline(t *testing.T) time.Time {
	t.Helper()
	if d, ok := t.Deadline(); ok {
		return d.Add(-hangGrace)
	}
	return time.Now().Add(5 * time.Minute)
}

// hangGrace is how long before the binary's deadline hangDeadline falls,
// time for the failing test to report and clean up.
const hangGrace = 20 * time.Second
