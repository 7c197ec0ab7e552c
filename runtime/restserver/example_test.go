package restserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ucpgen/ucpgen/runtime/restserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// New serves ucpcore tools over UCP's REST binding: the body is the
// tool's argument, the UCP-Agent header stands for meta, and refusals
// carry the binding's status and a JSON body.
func ExampleNew() {
	tool := ucpcore.Tool{
		Name:        "greet",
		Capability:  "dev.example.greet",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Params:      []ucpcore.Param{{Name: ucpcore.MetaParam, Required: true}, {Name: "who", Required: true}},
		Bind: func(args []json.RawMessage) (ucpcore.Run, error) {
			var who struct{ Name string }
			json.Unmarshal(args[1], &who)
			return func(context.Context) (any, error) {
				return map[string]string{"greeting": "hello, " + who.Name}, nil
			}, nil
		},
	}
	ops := []restserver.Operation{{Tool: "greet", Method: http.MethodPost, Path: "/greetings", MediaType: "application/json"}}
	h, err := restserver.New([]ucpcore.Tool{tool}, ops, &ucpcore.Options{Version: "2026-08-25"}, &restserver.Options{Base: "/ucp", NoAccessLog: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(h)
	defer ts.Close()

	for _, agent := range []string{`profile="https://agent.example/p.json"`, ""} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/ucp/greetings", strings.NewReader(`{"Name":"world"}`))
		req.Header.Set("Content-Type", "application/json")
		if agent != "" {
			req.Header.Set(restserver.HeaderAgent, agent)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			Greeting string `json:"greeting"`
			Code     string `json:"code"`
		}
		json.Unmarshal(raw, &out)
		fmt.Println(resp.StatusCode, out.Greeting+out.Code)
	}
	// Output:
	// 200 hello, world
	// 400 invalid_header
}
