package ucpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// mcpConn is the MCP session of a Conn, opened by its first call.
type mcpConn struct {
	session *mcp.ClientSession
}

func (m *mcpConn) close() error { return m.session.Close() }

// session returns the open session, connecting first when there is none.
func (c *Conn) session(ctx context.Context) (*mcp.ClientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mcp != nil {
		return c.mcp.session, nil
	}
	httpClient := &http.Client{
		Transport:     &capTransport{base: c.client.Transport, limit: c.opts.MaxResponseBytes},
		CheckRedirect: c.client.CheckRedirect,
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "ucpgen-ucpclient", Version: c.biz.Version}, nil)
	s, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             c.biz.Endpoint,
		HTTPClient:           httpClient,
		MaxRetries:           -1, // a broken stream is an error of the call; Conn retries 429 and 503 itself
		DisableStandaloneSSE: true,
		MaxEventSize:         int(min(c.opts.MaxResponseBytes, 1<<30)),
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("open the MCP session: %w", deadline(ctx, err))
	}
	c.mcp = &mcpConn{session: s}
	return s, nil
}

// dropSession closes the session after a failure that may have broken it,
// so that the next call opens a new one.
func (c *Conn) dropSession(s *mcp.ClientSession) {
	c.mu.Lock()
	if c.mcp == nil || c.mcp.session != s {
		c.mu.Unlock()
		return
	}
	c.mcp = nil
	c.mu.Unlock()
	s.Close()
}

// sendMCP calls the tool with meta and body as its arguments and returns
// the result's structuredContent.
func (c *Conn) sendMCP(ctx context.Context, t Tool, id string, body []byte) ([]byte, error) {
	n := &note{requestID: id}
	ctx = context.WithValue(ctx, noteKey{}, n)
	s, err := c.session(ctx)
	if err != nil {
		return nil, n.explain(ctx, err, t.Body)
	}
	args, err := mcpArguments(c.opts.Profile, t.Body, body)
	if err != nil {
		return nil, err
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: t.Name, Arguments: args})
	if err != nil {
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || n.brokeSession() {
			c.dropSession(s)
		}
		return nil, n.explain(ctx, err, t.Body)
	}
	if res.IsError {
		return nil, toolError(res, t.Body)
	}
	if res.StructuredContent == nil {
		return nil, &InvalidResponseError{Err: errors.New("the tool result has no structuredContent")}
	}
	return json.Marshal(res.StructuredContent)
}

// mcpArguments is the tools/call arguments object: meta naming the
// Platform's profile, and the body under its argument name.
func mcpArguments(profile, name string, body []byte) (json.RawMessage, error) {
	meta, err := json.Marshal(map[string]any{"ucp-agent": map[string]string{"profile": profile}})
	if err != nil {
		return nil, err
	}
	key, err := json.Marshal(name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"meta":`)
	b.Write(meta)
	b.WriteByte(',')
	b.Write(key)
	b.WriteByte(':')
	b.Write(body)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// toolError types a result with isError set: the Business's
// InvalidArgumentsAsToolErrors form of -32602, or another tool error.
func toolError(res *mcp.CallToolResult, bodyParam string) error {
	var text string
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text = tc.Text
			break
		}
	}
	var d struct {
		Violations []rpcerr.Violation `json:"violations"`
	}
	if json.Unmarshal([]byte(text), &d) == nil && len(d.Violations) > 0 {
		return invalidParams(d.Violations, bodyParam)
	}
	return &StatusError{Message: "tool error: " + rpcerr.Truncate(text, rpcerr.MaxTextBytes)}
}

// invalidParams is a -32602's violations with pointers relative to the
// request body, as REST gives them ("/location/distance/max" becomes
// "/distance/max"); a pointer into meta keeps its /meta prefix.
func invalidParams(vs []rpcerr.Violation, bodyParam string) *rpcerr.InvalidParams {
	prefix := "/" + rpcerr.EscapeToken(bodyParam)
	out := &rpcerr.InvalidParams{Violations: make([]rpcerr.Violation, len(vs))}
	for i, v := range vs {
		if v.Pointer == prefix || strings.HasPrefix(v.Pointer, prefix+"/") {
			v.Pointer = strings.TrimPrefix(v.Pointer, prefix)
		}
		out.Violations[i] = v
	}
	return out.Bounded()
}

// rpcError types a JSON-RPC error by the UCP MCP binding's codes.
func rpcError(e *jsonrpc.Error, bodyParam string, retryHeader string) error {
	msg := rpcerr.Truncate(e.Message, rpcerr.MaxTextBytes)
	switch e.Code {
	case rpcerr.CodeInvalidParams:
		var d struct {
			Violations []rpcerr.Violation `json:"violations"`
		}
		if json.Unmarshal(e.Data, &d) == nil && len(d.Violations) > 0 {
			return invalidParams(d.Violations, bodyParam)
		}
		return &rpcerr.InvalidParams{Violations: []rpcerr.Violation{{Message: msg}}}
	case rpcerr.CodeTransport:
		var d struct {
			Status     int    `json:"status"`
			RetryAfter *int64 `json:"retry_after"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.Status >= 400 && d.Status <= 599 {
			wait := parseRetryAfter(retryHeader)
			if d.RetryAfter != nil && *d.RetryAfter >= 0 {
				wait = parseRetryAfter(fmt.Sprint(*d.RetryAfter))
			}
			return &rpcerr.Transport{HTTPStatus: d.Status, Message: msg, RetryAfter: wait}
		}
	case rpcerr.CodeDiscovery:
		var d struct {
			Code        string `json:"code"`
			Content     string `json:"content"`
			ContinueURL string `json:"continue_url"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.Code != "" {
			return &rpcerr.Discovery{Code: rpcerr.Truncate(d.Code, 100), Content: rpcerr.Truncate(d.Content, rpcerr.MaxTextBytes), ContinueURL: d.ContinueURL}
		}
	}
	return &StatusError{RPCCode: e.Code, Message: msg}
}

// note is what the HTTP layer saw of one call, which the SDK's error
// leaves out: the status and body of a refusal, a cut-off answer.
// The SDK may read an answer on a goroutine of its own, hence the lock.
type note struct {
	requestID string

	mu          sync.Mutex
	status      int
	retryAfter  string
	contentType string
	body        []byte
	tooLarge    bool
}

// set records what one HTTP exchange of the call saw.
func (n *note) set(f func(n *note)) {
	n.mu.Lock()
	f(n)
	n.mu.Unlock()
}

// brokeSession reports whether the exchange ended in a way that may have
// left the SDK's connection unusable.
func (n *note) brokeSession() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.status != 0 || n.tooLarge
}

type noteKey struct{}

// explain turns the SDK's error for a call into the typed error the HTTP
// exchange supports.
func (n *note) explain(ctx context.Context, err error, bodyParam string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.tooLarge:
		return fmt.Errorf("%w: more than the cap of the answer", ErrTooLarge)
	case ctx.Err() != nil:
		return deadline(ctx, err)
	case n.status != 0:
		if msg, derr := jsonrpc.DecodeMessage(n.body); derr == nil {
			if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
				var rpc *jsonrpc.Error
				if errors.As(r.Error, &rpc) {
					return rpcError(rpc, bodyParam, n.retryAfter)
				}
			}
		}
		return &StatusError{HTTPStatus: n.status, Message: "the answer carries no JSON-RPC error"}
	case n.contentType != "":
		if mt, _, perr := mime.ParseMediaType(n.contentType); perr != nil || (mt != "application/json" && mt != "text/event-stream") {
			return fmt.Errorf("the answer's Content-Type is %q, not application/json or text/event-stream", rpcerr.Truncate(n.contentType, 100))
		}
	}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return rpcError(rpc, bodyParam, "")
	}
	return fmt.Errorf("MCP: %w", err)
}

// capTransport caps every answer of the MCP session at limit bytes and
// records, for the call whose context carries a note, its Request-Id and
// what the SDK does not report.
type capTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t *capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	n, _ := req.Context().Value(noteKey{}).(*note)
	if n != nil && req.Method == http.MethodPost {
		req = req.Clone(req.Context())
		req.Header.Set(headerRequestID, n.requestID)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if n == nil {
		n = &note{}
	}
	n.set(func(n *note) { n.contentType = resp.Header.Get("Content-Type") })
	if resp.ContentLength > t.limit {
		resp.Body.Close()
		n.set(func(n *note) { n.tooLarge = true })
		return nil, fmt.Errorf("%w: Content-Length %d is more than %d bytes", ErrTooLarge, resp.ContentLength, t.limit)
	}
	if resp.StatusCode >= 300 {
		data, err := readCapped(req.Context(), resp.Body, resp.ContentLength, t.limit)
		resp.Body.Close()
		if err != nil {
			n.set(func(n *note) { n.tooLarge = errors.Is(err, ErrTooLarge) })
			return nil, err
		}
		n.set(func(n *note) { n.status, n.retryAfter, n.body = resp.StatusCode, resp.Header.Get("Retry-After"), data })
		resp.Body = io.NopCloser(bytes.NewReader(data))
		return resp, nil
	}
	resp.Body = &capBody{ReadCloser: resp.Body, left: t.limit + 1, note: n}
	return resp, nil
}

// capBody fails the read that goes past its cap, noting it: left starts one
// byte above the cap, so an answer of exactly the cap still ends in EOF.
type capBody struct {
	io.ReadCloser
	left int64
	note *note
}

func (b *capBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left <= 0 {
		b.note.set(func(n *note) { n.tooLarge = true })
		return n, ErrTooLarge
	}
	return n, err
}
