package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// exampleTool is a hand-written ucpcore.Tool of the shape generated code
// produces (generated packages' Register adds theirs the same way).
func exampleTool() ucpcore.Tool {
	return ucpcore.Tool{
		Name:        "greet",
		Capability:  "dev.example.greet",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Params:      []ucpcore.Param{{Name: ucpcore.MetaParam, Required: true}, {Name: "who", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var who string
			json.Unmarshal(args[1], &who)
			return func(context.Context) (any, error) {
				return map[string]string{"greeting": "hello, " + who}, nil
			}, nil
		},
	}
}

// Add registers a tool on an SDK server and Handler serves it over
// streamable HTTP; the answer is structured content plus the same JSON as
// text, with the negotiated ucp member.
func ExampleHandler() {
	server := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	mcpserver.Add(server, exampleTool(), &ucpcore.Options{Version: "2026-08-25"})
	ts := httptest.NewServer(mcpserver.Handler(server, &mcpserver.HTTPOptions{DirectToolCalls: true}))
	defer ts.Close()

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":` +
		`{"meta":{"ucp-agent":{"profile":"https://agent.example/p.json"}},"who":"world"}}}`
	for _, body := range []string{call, `{"jsonrpc":"2.0","id":2,"method":"tools/call"`} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var reply struct {
			Result struct {
				StructuredContent struct {
					Greeting string `json:"greeting"`
				} `json:"structuredContent"`
			} `json:"result"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		json.Unmarshal(raw, &reply)
		if reply.Error != nil {
			fmt.Println(resp.StatusCode, reply.Error.Code)
			continue
		}
		fmt.Println(resp.StatusCode, reply.Result.StructuredContent.Greeting)
	}
	// Output:
	// 200 hello, world
	// 400 -32700
}
