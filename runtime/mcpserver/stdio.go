package mcpserver

// This file covers the SDK's stdio transport, which ends the session (and
// so the process) on the first line it cannot decode, dropping every call
// in flight. Upstream: modelcontextprotocol/go-sdk issue 1209 (open as of
// 2026-12, fix proposed in pull request 1210). TestSDKStdioEndsOnABadLine
// (sdk_test.go) shows the behaviour against the pinned SDK and fails once
// the SDK answers the line and keeps serving; StdioTransport can then give
// way to the SDK's own (keeping the response bound, if the SDK has none).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// DefaultMaxLineBytes bounds one newline-delimited message over stdio.
const DefaultMaxLineBytes = 1 << 20

// StdioTransport serves MCP over newline-delimited JSON-RPC, like the SDK's
// StdioTransport, but a bad line costs only its own answer: the SDK ends the
// session (and the process) on the first malformed line, dropping every call
// in flight. Here a line that is not JSON gets -32700, a batch array, a
// non-request or an over-long line gets -32600, and serving goes on. At end
// of input it waits for the calls already read to be answered before it
// reports EOF, so a client that closes stdin still gets its answers.
type StdioTransport struct {
	// In and Out default to os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer
	// MaxLineBytes bounds one message; default DefaultMaxLineBytes.
	MaxLineBytes int
	// MaxResponseBytes bounds one answer; default DefaultMaxResponseBytes.
	// A larger answer is replaced by -32603 (the tools added with Add
	// refuse it before it is built; this catches every other message).
	MaxResponseBytes int64
	// Drain, when closed, makes the transport stop reading and end the
	// session as at end of input, once the calls already read are
	// answered: a graceful shutdown on a signal. Nil: never.
	Drain <-chan struct{}
	// Budget, when set, rate-limits the session with the buckets Handler
	// uses, before the SDK sees a message: a tools/call is charged to the
	// agent profile its arguments name (exact member names, the first
	// copy; a repeated one is refused by the tool's decoder anyway), or to
	// StdioCaller, with the strict bucket when Budget.Strict selects it;
	// every other message to StdioCaller's bucket of requests that run no
	// tool. A refused request gets -32000 with status 429 and
	// retry_after; a refused notification is dropped, as it has no answer.
	Budget *ucpcore.Budget
	// Observe, when set, is told of every message read, once it is
	// answered (a request), refused or read (a notification), for an
	// access log and metrics: stdio has no HTTP layer to wrap.
	Observe func(StdioExchange)
}

// StdioCaller is the caller a stdio message is charged to when it names no
// agent profile: the one client at the other end of the pipe.
const StdioCaller = "stdio"

// StdioExchange is one message read over stdio and what became of it.
type StdioExchange struct {
	// Method and ID are the message's ("" and the zero id for a line
	// refused before it was read as a message).
	Method string
	ID     jsonrpc.ID
	// Tool and Caller are a tools/call's params.name and the profile it
	// was charged to, as sent.
	Tool, Caller string
	// Error is the error answered, nil for a result or a notification.
	Error *jsonrpc.Error
	// Duration runs from the line's arrival to its answer.
	Duration time.Duration
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	max := t.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	maxResp := t.MaxResponseBytes
	if maxResp <= 0 {
		maxResp = DefaultMaxResponseBytes
	}
	c := &lineConn{
		out:      out,
		max:      max,
		maxResp:  maxResp,
		incoming: make(chan lineRead),
		closed:   make(chan struct{}),
		answered: make(chan struct{}, 1),
		pending:  map[jsonrpc.ID]*stdioCall{},
		drainReq: t.Drain,
		budget:   t.Budget,
		observe:  t.Observe,
	}
	go c.readLoop(bufio.NewReaderSize(in, 64<<10))
	return c, nil
}

type lineRead struct {
	msg jsonrpc.Message
	err error
}

// lineConn is the mcp.Connection of StdioTransport.
type lineConn struct {
	out      io.Writer
	max      int
	maxResp  int64
	incoming chan lineRead
	closed   chan struct{}
	drainReq <-chan struct{} // StdioTransport.Drain; read by readLoop only
	once     sync.Once

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[jsonrpc.ID]*stdioCall // calls read and not yet answered
	answered chan struct{}             // signalled whenever a call is answered

	budget  *ucpcore.Budget
	observe func(StdioExchange)
}

// stdioCall is a call read and not yet answered, as Observe will see it.
type stdioCall struct {
	exchange StdioExchange
	start    time.Time
}

// rawLine is one line as read, before any parsing.
type rawLine struct {
	line    []byte
	tooLong bool
	err     error
}

func (c *lineConn) readLoop(r *bufio.Reader) {
	// Reading blocks in the OS, so it has a goroutine of its own; this loop
	// can then also watch for Drain.
	lines := make(chan rawLine)
	go func() {
		for {
			line, tooLong, err := readLine(r, c.max)
			select {
			case lines <- rawLine{line, tooLong, err}:
			case <-c.closed:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		var rl rawLine
		select {
		case rl = <-lines:
		case <-c.drainReq:
			c.drainReq = nil
			rl = rawLine{err: io.EOF}
		case <-c.closed:
			return
		}
		start := time.Now()
		if rl.tooLong {
			c.refuse(start, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: message exceeds %d bytes", c.max))
		} else if len(bytes.TrimSpace(rl.line)) > 0 {
			if msg, perr := preparseLine(rl.line); perr != nil {
				c.refuse(start, perr.Code, perr.Message)
			} else if c.admit(start, msg) {
				select {
				case c.incoming <- lineRead{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if rl.err != nil {
			if errors.Is(rl.err, io.EOF) {
				c.drain()
			}
			select {
			case c.incoming <- lineRead{err: rl.err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads one line without its newline, discarding the rest of a
// line longer than max (tooLong reports that).
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := r.ReadLine()
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > max {
				tooLong, line = true, nil
			}
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}

// preparseLine applies the HTTP endpoint's protocol checks to one line.
func preparseLine(line []byte) (jsonrpc.Message, *jsonrpc.Error) {
	if _, perr := preparse(line); perr != nil {
		return nil, perr
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + err.Error()}
	}
	return msg, nil
}

// drain waits until every call read so far is answered, or the connection
// closes.
func (c *lineConn) drain() {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		}
	}
}

// refuse answers a line that never became a request (id null).
func (c *lineConn) refuse(start time.Time, code int64, msg string) {
	e := &jsonrpc.Error{Code: code, Message: msg}
	// Told first, so that whoever reads the answer finds it recorded.
	c.tell(StdioExchange{Error: e}, start)
	data, err := encodeError(jsonrpc.ID{}, e)
	if err == nil {
		_ = c.writeLine(data)
	}
}

// admit charges a message read to the budget and records a call as
// pending; it reports whether the message goes on to the SDK. A refused
// request is answered here with the budget's error.
func (c *lineConn) admit(start time.Time, msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return true // a response to a request of the server's
	}
	ex := StdioExchange{Method: req.Method, ID: req.ID}
	var err error
	if req.Method == "tools/call" {
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params, &p)
		ex.Tool, ex.Caller = p.Name, StdioCaller
		if prof, ok := stringValue(ucpcore.Argument(p.Arguments, ucpcore.MetaParam, "ucp-agent", "profile")); ok && prof != "" {
			ex.Caller = prof
		}
		if c.budget != nil {
			err = c.budget.ChargeTool(ex.Caller, c.budget.Strict(p.Name, p.Arguments))
		}
	} else if c.budget != nil {
		err = c.budget.ChargeOther(StdioCaller)
	}
	if err != nil {
		ex.Error = RPCError(err, nil)
		c.tell(ex, start)
		if req.IsCall() {
			if data, eerr := encodeError(req.ID, ex.Error); eerr == nil {
				_ = c.writeLine(data)
			}
		}
		return false
	}
	if !req.IsCall() {
		c.tell(ex, start)
		return true
	}
	c.mu.Lock()
	c.pending[req.ID] = &stdioCall{exchange: ex, start: start}
	c.mu.Unlock()
	return true
}

// stringValue decodes a JSON string.
func stringValue(raw json.RawMessage) (string, bool) {
	var s string
	return s, raw != nil && json.Unmarshal(raw, &s) == nil
}

// tell passes ex, which began at start, to Observe.
func (c *lineConn) tell(ex StdioExchange, start time.Time) {
	if c.observe != nil {
		ex.Duration = time.Since(start)
		c.observe(ex)
	}
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r := <-c.incoming:
		return r.msg, r.err
	}
}

// Write implements mcp.Connection; it is safe for concurrent use.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, sent, err := c.encode(msg)
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		c.mu.Lock()
		call := c.pending[resp.ID]
		c.mu.Unlock()
		if call != nil {
			// Told before the answer is written, so that whoever reads it
			// finds it recorded.
			call.exchange.Error = sent
			c.tell(call.exchange, call.start)
		}
	}
	if err == nil {
		err = c.writeLine(data)
	}
	if isResp {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// encode is the line msg is sent as, and the error it answers with (for a
// response: its own, or the -32603 that replaces an answer over the bound).
func (c *lineConn) encode(msg jsonrpc.Message) ([]byte, *jsonrpc.Error, error) {
	var sent *jsonrpc.Error
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp && resp.Error != nil && !errors.As(resp.Error, &sent) {
		// The SDK sends an error of another type as an internal error.
		sent = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, sent, fmt.Errorf("encode message: %w", err)
	}
	if isResp && int64(len(data)) > c.maxResp {
		sent = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("response exceeds %d bytes", c.maxResp)}
		if data, err = encodeError(resp.ID, sent); err != nil {
			return nil, sent, fmt.Errorf("encode message: %w", err)
		}
	}
	return data, sent, nil
}

// writeLine writes one encoded message and its newline.
func (c *lineConn) writeLine(data []byte) error {
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	_, err := c.out.Write(data)
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection; stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
