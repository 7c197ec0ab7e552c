package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestStdioKeepsServing checks that malformed lines get a JSON-RPC error
// each and that the calls around them are still answered.
func TestStdioKeepsServing(t *testing.T) {
	release := make(chan struct{})
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["hold"] != nil {
			<-release
		}
		return emptyResult(ctx, loc)
	}))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), &mcpserver.StdioTransport{In: inR, Out: outW, MaxLineBytes: 4096})
		outW.Close()
	}()
	replies := make(chan rpcReply, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r rpcReply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Errorf("reply is not JSON-RPC: %s", sc.Bytes())
			}
			replies <- r
		}
		close(replies)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatalf("write %q: %v", line, err)
		}
	}
	next := func() rpcReply {
		t.Helper()
		select {
		case r, ok := <-replies:
			if !ok {
				t.Fatal("server closed its output")
			}
			return r
		case <-time.After(30 * time.Second):
			t.Fatal("no reply")
		}
		return rpcReply{}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r := next(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// A held call stays in flight across every bad line below.
	send(callBody(2, "search", `{"meta":`+meta+`,"location":{"hold":true}}`))
	bad := []struct {
		line string
		code int64
	}{
		{`{"jsonrpc":"2.0","id":3,`, -32700},
		{`not json at all`, -32700},
		{`[` + callBody(4, "search", `{"meta":`+meta+`,"location":{}}`) + `]`, -32600},
		{`"a string"`, -32600},
		{`{"jsonrpc":"2.0","id":5}`, -32600},
		{`{"jsonrpc":"2.0","id":6,"method":"x","params":"` + strings.Repeat("a", 5000) + `"}`, -32600},
	}
	for _, b := range bad {
		send(b.line)
		if r := next(); r.Error == nil || r.Error.Code != b.code || r.ID != nil && string(r.ID) != "null" {
			t.Fatalf("%.40s: reply %+v, want %d with id null", b.line, r, b.code)
		}
	}
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/explode","params":{}}`)
	if r := next(); string(r.ID) != "7" || r.Error == nil || r.Error.Code != -32601 {
		t.Fatalf("unknown method: %+v", r)
	}
	send(callBody(8, "search", `{"meta":`+meta+`,"location":{}}`))
	if r := next(); string(r.ID) != "8" || r.Result == nil {
		t.Fatalf("call after bad lines: %+v", r)
	}
	// End of input with the held call in flight: it is still answered.
	inW.Close()
	close(release)
	if r := next(); string(r.ID) != "2" || r.Result == nil {
		t.Fatalf("held call after EOF: %+v", r)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after EOF")
	}
}

// TestStdioDrain checks the graceful stop over stdio: once Drain is closed
// the session ends, but only after the call in flight has been answered.
func TestStdioDrain(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		close(entered)
		<-release
		return emptyResult(ctx, loc)
	}))
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	drain := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), &mcpserver.StdioTransport{In: inR, Out: outW, Drain: drain})
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if !replies.Scan() {
		t.Fatal("no initialize reply")
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(inW, callBody(2, "search", `{"meta":`+meta+`,"location":{}}`)+"\n")
	<-entered
	close(drain)
	select {
	case err := <-done:
		t.Fatalf("Run returned (%v) with a call in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if !replies.Scan() {
		t.Fatal("the call in flight was dropped")
	}
	var r rpcReply
	if err := json.Unmarshal(replies.Bytes(), &r); err != nil || string(r.ID) != "2" || r.Result == nil {
		t.Fatalf("reply %s", replies.Bytes())
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after draining")
	}
}

// TestStdioIsLimitedAndObserved: with a Budget, stdio tool calls draw from
// the caller's bucket (the profile their arguments name) and every other
// message from the stdio bucket, and a request over its limit gets -32000
// with status 429 without reaching the SDK; Observe hears of every line,
// answered, refused or read, with its method, id, tool, caller and error.
func TestStdioIsLimitedAndObserved(t *testing.T) {
	s := newServer(nil, echoTool("search", emptyResult))
	budget := ucpcore.NewBudget(ucpcore.BudgetOptions{RateLimit: &ucpcore.RateLimit{PerSecond: 1e-9, Burst: 2, OtherPerSecond: 1e-9, OtherBurst: 3}})
	var mu sync.Mutex
	var seen []mcpserver.StdioExchange
	observe := func(ex mcpserver.StdioExchange) {
		mu.Lock()
		seen = append(seen, ex)
		mu.Unlock()
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), &mcpserver.StdioTransport{In: inR, Out: outW, Budget: budget, Observe: observe})
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	ask := func(line string) rpcReply {
		t.Helper()
		io.WriteString(inW, line+"\n")
		if !replies.Scan() {
			t.Fatalf("no reply to %.60s", line)
		}
		var r rpcReply
		if err := json.Unmarshal(replies.Bytes(), &r); err != nil {
			t.Fatalf("reply %s: %v", replies.Bytes(), err)
		}
		return r
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for id := 2; id <= 4; id++ {
		r := ask(callBody(id, "search", `{"meta":`+meta+`,"location":{}}`))
		if limited := r.Error != nil && r.Error.Code == -32000 && strings.Contains(string(r.Error.Data), `"status":429`); limited != (id == 4) {
			t.Errorf("call %d: %+v, want 429 only for the third", id, r)
		}
	}
	// Another caller has a bucket of its own.
	if r := ask(callBody(5, "search", `{"meta":{"ucp-agent":{"profile":"https://other.example/p.json"}},"location":{}}`)); r.Result == nil {
		t.Errorf("another profile's call: %+v", r)
	}
	// initialize and the notification took two of the three other tokens.
	if r := ask(`{"jsonrpc":"2.0","id":6,"method":"ping"}`); r.Error != nil {
		t.Errorf("ping: %+v", r)
	}
	if r := ask(`{"jsonrpc":"2.0","id":7,"method":"ping"}`); r.Error == nil || r.Error.Code != -32000 || string(r.ID) != "7" {
		t.Errorf("ping over the limit: %+v", r)
	}
	if r := ask(`not json`); r.Error == nil || r.Error.Code != -32700 {
		t.Errorf("bad line: %+v", r)
	}
	inW.Close()
	<-done
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, ex := range seen {
		code := int64(0)
		if ex.Error != nil {
			code = ex.Error.Code
		}
		got = append(got, fmt.Sprintf("%s %s %s %s %d", ex.Method, idString(ex.ID), ex.Tool, ex.Caller, code))
	}
	want := []string{
		"initialize 1   0",
		"notifications/initialized -   0",
		"tools/call 2 search https://platform.example/agent.json 0",
		"tools/call 3 search https://platform.example/agent.json 0",
		"tools/call 4 search https://platform.example/agent.json -32000",
		"tools/call 5 search https://other.example/p.json 0",
		"ping 6   0",
		"ping 7   -32000",
		" -   -32700",
	}
	// A call is told of as it is answered, on the SDK's goroutine: compare
	// what was heard, not the order.
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("observed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func idString(id jsonrpc.ID) string {
	if !id.IsValid() {
		return "-"
	}
	return fmt.Sprint(id.Raw())
}
