package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
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
