package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestResponseBoundBeforeTheAnswerIsBuilt checks that an answer over
// MaxResponseBytes is refused from its encoded body, before the SDK's
// result (which repeats the body as an escaped text block) or the direct
// path's frame is built: the refusal allocates little beyond the body the
// hook's answer needs anyway.
func TestResponseBoundBeforeTheAnswerIsBuilt(t *testing.T) {
	// The body is 6 MiB of \u003c, whose text block would be 7 MiB more.
	body := preEncoded(`,"locations":[{"name":"` + strings.Repeat(`\u003c`, 1<<20) + `"}]}`)
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		return body, nil
	}))
	for _, direct := range []bool{true, false} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			logger, _ := quietLogger()
			url := serveHTTP(t, s, &mcpserver.HTTPOptions{DirectToolCalls: direct, MaxResponseBytes: 4 << 20, Logger: logger})
			post(t, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp, r, raw := post(t, url, callBody(2, "search", `{"meta":`+meta+`,"location":{}}`))
			runtime.ReadMemStats(&after)
			if resp.StatusCode != 500 || r.Error == nil || r.Error.Code != -32603 || !strings.Contains(r.Error.Message, "exceeds") {
				t.Fatalf("%d: %.200s", resp.StatusCode, raw)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %.1f MiB for a body of %.1f MiB", float64(alloc)/(1<<20), float64(len(body))/(1<<20))
			// The body's buffer grows by doubling (at most twice its size);
			// building the answer would take at least as much again.
			if limit := 3 * uint64(len(body)); alloc > limit {
				t.Errorf("refusing the answer allocated %d bytes, more than %d", alloc, limit)
			}
		})
	}
}

// TestStdioResponseBound checks the same bound over stdio: the answer is
// refused with -32603 for its id, and the session goes on.
func TestStdioResponseBound(t *testing.T) {
	body := preEncoded(`,"locations":[{"name":"` + strings.Repeat("x", 5<<20) + `"}]}`)
	logger, _ := quietLogger()
	s := newServer(&ucpcore.Options{Logger: logger, MaxResponseBytes: 4 << 20}, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["big"] != nil {
			return body, nil
		}
		return emptyResult(ctx, loc)
	}))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		s.Run(context.Background(), &mcpserver.StdioTransport{In: inR, Out: outW})
		outW.Close()
	}()
	defer inW.Close()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 16<<20)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	lines.Scan()
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(inW, callBody(1, "search", `{"meta":`+meta+`,"location":{"big":true}}`)+"\n")
	io.WriteString(inW, callBody(2, "search", `{"meta":`+meta+`,"location":{}}`)+"\n")
	// Calls run concurrently, so the replies may come in either order.
	var got []string
	for range 2 {
		if !lines.Scan() {
			t.Fatal("stdio closed its output")
		}
		got = append(got, lines.Text())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{`"id":1,"error":{"code":-32603,"message":"response exceeds 4194304 bytes"}`, `"id":2,"result"`} {
		if !strings.Contains(all, want) || len(all) > 64<<10 {
			t.Fatalf("replies %.300s, want one containing %s", all, want)
		}
	}
}

// preEncoded is a hook answer that writes itself, as generated results do,
// so the test measures the runtime's copies and not encoding/json's.
type preEncoded string

func (p preEncoded) AppendJSONWithUCP(b, ucp []byte) ([]byte, error) {
	b = append(b, `{"ucp":`...)
	b = append(b, ucp...)
	return append(b, p...), nil
}
