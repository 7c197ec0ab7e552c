package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/runtime/envelope"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

func emptyResult(context.Context, map[string]any) (any, error) {
	return map[string]any{"locations": []any{}}, nil
}

// TestRPCError pins the mapping from typed runtime errors to the JSON-RPC
// error a client sees; untyped errors never leak their text.
func TestRPCError(t *testing.T) {
	wrapped := fmt.Errorf("search: %w", rpcerr.Invalid("/location/distance", "required", "needs center"))
	cases := []struct {
		name    string
		err     error
		code    int64
		message string
		data    string
		logged  bool
	}{
		{"invalid params", wrapped, -32602, "", `{"violations":[{"pointer":"/location/distance","keyword":"required","message":"needs center"}]}`, false},
		{"rate limited rounds retry up", rpcerr.RateLimited("slow down", 1500*time.Millisecond), -32000, "slow down", `{"retry_after":2,"status":429}`, false},
		{"overloaded", rpcerr.Overloaded("busy", time.Second), -32000, "busy", `{"retry_after":1,"status":503}`, false},
		{"forbidden without retry", rpcerr.Forbidden("no"), -32000, "no", `{"status":403}`, false},
		{"discovery", &rpcerr.Discovery{Code: "invalid_profile_url", Content: "bad profile"}, -32001, "bad profile", `{"code":"invalid_profile_url","content":"bad profile"}`, false},
		{"json-rpc passes through", &jsonrpc.Error{Code: -32601, Message: "nope"}, -32601, "nope", ``, false},
		{"untyped is internal", errors.New("db password is hunter2"), -32603, "internal error", ``, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := quietLogger()
			got := mcpserver.RPCError(tc.err, logger)
			if got.Code != tc.code || (tc.message != "" && got.Message != tc.message) {
				t.Fatalf("got %d %q, want %d %q", got.Code, got.Message, tc.code, tc.message)
			}
			if tc.data != "" {
				var a, b any
				json.Unmarshal(got.Data, &a)
				json.Unmarshal([]byte(tc.data), &b)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("data = %s, want %s", got.Data, tc.data)
				}
			}
			if strings.Contains(got.Message, "hunter2") || strings.Contains(string(got.Data), "hunter2") {
				t.Error("internal error text reached the client")
			}
			if logged := strings.Contains(logs.String(), "ucp tool failed"); logged != tc.logged {
				t.Errorf("logged = %v, want %v (%s)", logged, tc.logged, logs)
			}
		})
	}
}

// TestSetMember checks that the ucp member is put first and replaces an
// existing one without disturbing the others.
func TestSetMember(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `{"ucp":1}`},
		{`{"a":[1,{"b":2}],"ucp":"old","c":null}`, `{"ucp":1,"a":[1,{"b":2}],"c":null}`},
	}
	for _, tc := range cases {
		got, err := ucpcore.SetMember([]byte(tc.in), "ucp", 1)
		if err != nil || string(got) != tc.want {
			t.Errorf("SetMember(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	if _, err := ucpcore.SetMember([]byte(`[1]`), "ucp", 1); err == nil {
		t.Error("SetMember on an array: no error")
	}
}

// TestArgumentsMembers checks the two-member rule of the binding: a
// repeated or unknown top-level member is -32602 naming it, never resolved
// to the last value or ignored.
func TestArgumentsMembers(t *testing.T) {
	var called int
	s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		called++
		return emptyResult(ctx, loc)
	}))
	url := serveHTTP(t, s, nil)
	cases := []struct {
		name, args, pointer, message string
	}{
		{"duplicate location", `{"meta":` + meta + `,"location":{"query":"a"},"location":{"query":"b"}}`, "/location", "duplicate member name"},
		{"duplicate meta", `{"meta":{"ucp-agent":{"profile":"https://a.example/p"}},"location":{},"meta":` + meta + `}`, "/meta", "duplicate member name"},
		{"unknown member", `{"meta":` + meta + `,"location":{},"extra":1}`, "/extra", "exactly two members"},
		{"missing location", `{"meta":` + meta + `}`, "/location", "required"},
		{"not an object", `[1]`, "", "must be an object"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r, raw := post(t, url, callBody(i+1, "search", tc.args))
			if r.Error == nil || r.Error.Code != -32602 {
				t.Fatalf("want -32602, got %s", raw)
			}
			var d struct{ Violations []rpcerr.Violation }
			json.Unmarshal(r.Error.Data, &d)
			if len(d.Violations) == 0 || d.Violations[0].Pointer != tc.pointer || !strings.Contains(d.Violations[0].Message+" "+r.Error.Message, tc.message) {
				t.Fatalf("violations %+v, want %s saying %q", d.Violations, tc.pointer, tc.message)
			}
		})
	}
	if called != 0 {
		t.Errorf("hook ran %d times for refused calls", called)
	}
	if _, r, raw := post(t, url, callBody(99, "search", `{"location":{},"meta":`+meta+`}`)); r.Result == nil {
		t.Fatalf("members in either order: %s", raw)
	}
}

// TestPanicRecovered checks that a panicking hook costs one -32603 answer
// and a log line with the stack, and that the server goes on serving.
func TestPanicRecovered(t *testing.T) {
	logger, logs := quietLogger()
	s := newServer(&ucpcore.Options{Logger: logger}, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
		if loc["boom"] != nil {
			var m map[string]int
			//lint:ignore SA5000 the nil map write is the point: a real runtime panic
			m["x"] = 1
		}
		return emptyResult(ctx, loc)
	}))
	url := serveHTTP(t, s, nil)
	for i := 0; i < 3; i++ {
		resp, r, raw := post(t, url, callBody(i, "search", `{"meta":`+meta+`,"location":{"boom":true}}`))
		if r.Error == nil || r.Error.Code != -32603 || r.Error.Message != "internal error" || resp.StatusCode != 200 {
			t.Fatalf("panic answer: %d %s", resp.StatusCode, raw)
		}
	}
	if _, r, raw := post(t, url, callBody(10, "search", `{"meta":`+meta+`,"location":{}}`)); r.Result == nil {
		t.Fatalf("server stopped serving after a panic: %s", raw)
	}
	if l := logs.String(); !strings.Contains(l, "ucp tool panicked") || !strings.Contains(l, "assignment to entry in nil map") || !strings.Contains(l, "TestPanicRecovered") {
		t.Errorf("log lacks the panic and its stack:\n%s", l)
	}
}

// TestIncompatibleMatchesOutputSchema checks the capabilities_incompatible
// outcome against the tool's own advertised outputSchema, which MCP
// clients enforce on structuredContent, and that it keeps the UCP error
// envelope.
func TestIncompatibleMatchesOutputSchema(t *testing.T) {
	tool := echoTool("search", emptyResult)
	neg := envelope.Fixed("2026-08-25", map[string]string{"dev.ucp.common.location.lookup": "2026-08-25"})
	url := serveHTTP(t, newServer(&ucpcore.Options{Negotiator: neg}, tool), nil)
	_, r, raw := post(t, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
	if r.Result == nil || r.Result.IsError {
		t.Fatalf("want a tool result, got %s", raw)
	}
	c := jsonschema.NewCompiler()
	var doc any
	json.Unmarshal(tool.OutputSchema, &doc)
	if err := c.AddResource("out.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("out.json")
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	json.Unmarshal(r.Result.StructuredContent, &inst)
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("outcome fails the advertised outputSchema: %v\n%s", err, r.Result.StructuredContent)
	}
	var got struct {
		UCP struct {
			Status string `json:"status"`
		} `json:"ucp"`
		Locations []any `json:"locations"`
		Messages  []struct {
			Type, Code, Content string
		} `json:"messages"`
	}
	json.Unmarshal(r.Result.StructuredContent, &got)
	if got.UCP.Status != "error" || got.Locations == nil || len(got.Locations) != 0 || len(got.Messages) != 1 ||
		got.Messages[0].Code != "capabilities_incompatible" || got.Messages[0].Content == "" {
		t.Fatalf("outcome = %s", r.Result.StructuredContent)
	}
	if !strings.HasPrefix(string(r.Result.StructuredContent), `{"ucp":`) {
		t.Errorf("ucp is not the first member: %s", r.Result.StructuredContent)
	}
}

// TestIncompatibleNeedsEmptyValues checks that a schema requiring a member
// with no honest empty value is a server fault, not a made-up answer.
func TestIncompatibleNeedsEmptyValues(t *testing.T) {
	tool := echoTool("search", emptyResult)
	tool.OutputSchema = json.RawMessage(`{"type":"object","required":["ucp","total"],"properties":{"total":{"type":"integer"}}}`)
	logger, logs := quietLogger()
	neg := envelope.Fixed("2026-08-25", nil)
	url := serveHTTP(t, newServer(&ucpcore.Options{Negotiator: neg, Logger: logger}, tool), nil)
	_, r, raw := post(t, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
	if r.Error == nil || r.Error.Code != -32603 {
		t.Fatalf("want -32603, got %s", raw)
	}
	if !strings.Contains(logs.String(), `required member \"total\"`) {
		t.Errorf("log does not name the member: %s", logs)
	}
}

// TestContextReachesHook checks that the request context reaches the hook
// and ends when the caller goes away, so long work can stop.
func TestContextReachesHook(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			entered, stopped := make(chan struct{}), make(chan error, 1)
			s := newServer(nil, echoTool("search", func(ctx context.Context, loc map[string]any) (any, error) {
				close(entered)
				<-ctx.Done()
				stopped <- ctx.Err()
				return nil, ctx.Err()
			}))
			url := serveHTTP(t, s, &mcpserver.HTTPOptions{DirectToolCalls: direct})
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-entered
				cancel()
			}()
			req := newPost(t, ctx, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
			if _, err := httpClient.Do(req); err == nil {
				t.Fatal("cancelled request succeeded")
			}
			select {
			case err := <-stopped:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("hook context ended with %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("hook context was never cancelled after the client went away")
			}
		})
	}
}

// countingNegotiator records how often negotiation was asked for.
type countingNegotiator struct{ n atomic.Int64 }

func (c *countingNegotiator) Negotiate(ctx context.Context, profile, tool string) (envelope.Outcome, error) {
	c.n.Add(1)
	return envelope.Fixed("2026-08-25", map[string]string{tool: "2026-08-25"}).Negotiate(ctx, profile, tool)
}

// TestInvalidCallNeverNegotiates checks that a call failing validation is
// refused before negotiation, so it cannot make the server fetch the
// caller-supplied profile URL.
func TestInvalidCallNeverNegotiates(t *testing.T) {
	neg := &countingNegotiator{}
	url := serveHTTP(t, newServer(&ucpcore.Options{Negotiator: neg}, echoTool("search", emptyResult)), nil)
	for i, args := range []string{
		`{"meta":{"ucp-agent":{"profile":"http://169.254.169.254/latest"}},"location":"not an object"}`,
		`{"meta":{"ucp-agent":{"profile":"http://10.0.0.1/p"}},"location":{},"location":{}}`,
		`{"meta":{"ucp-agent":{}},"location":{}}`,
	} {
		if _, r, raw := post(t, url, callBody(i, "search", args)); r.Error == nil || r.Error.Code != -32602 {
			t.Fatalf("%s: want -32602, got %s", args, raw)
		}
	}
	if n := neg.n.Load(); n != 0 {
		t.Fatalf("negotiated %d times for invalid calls", n)
	}
	if _, r, raw := post(t, url, callBody(9, "search", `{"meta":`+meta+`,"location":{}}`)); r.Result == nil || neg.n.Load() != 1 {
		t.Fatalf("valid call: %s, %d negotiations", raw, neg.n.Load())
	}
}

// TestParamsComeFromTheTool checks that the arguments a call may carry are
// the tool's own params: each raw value reaches its param, an optional one
// may be left out, a required one may not, another tool's param is refused,
// and violations of several arguments come back together under their
// pointers.
func TestParamsComeFromTheTool(t *testing.T) {
	s := newServer(nil, paramsTool("get"))
	url := serveHTTP(t, s, nil)
	type violation struct{ pointer, message string }
	cases := []struct {
		name string
		args string
		want string // structured content, when the call succeeds
		errs []violation
	}{
		{"all three", `{"meta":` + meta + `,"id":"c_1","cart":{}}`, `"cart":true,"id":"c_1"`, nil},
		{"optional absent", `{"id":"c_2","meta":` + meta + `}`, `"cart":false,"id":"c_2"`, nil},
		{"required missing", `{"meta":` + meta + `,"cart":{}}`, "", []violation{{"/id", "is required"}}},
		{"meta missing", `{"id":"c_1"}`, "", []violation{{"/meta", "carries ucp-agent.profile"}}},
		{"two invalid", `{"meta":` + meta + `,"id":7,"cart":[]}`, "", []violation{{"/id", "must be a string"}, {"/cart", "must be an object"}}},
		{"another tool's param", `{"meta":` + meta + `,"id":"c_1","location":{}}`, "", []violation{{"/location", "exactly three members, meta, id and cart"}}},
		{"repeated param", `{"meta":` + meta + `,"id":"a","id":"b"}`, "", []violation{{"/id", "duplicate member name"}}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r, raw := post(t, url, callBody(i+1, "get", tc.args))
			if tc.errs == nil {
				if r.Result == nil || !strings.Contains(string(r.Result.StructuredContent), tc.want) {
					t.Fatalf("want a result with %s, got %s", tc.want, raw)
				}
				return
			}
			if r.Error == nil || r.Error.Code != -32602 {
				t.Fatalf("want -32602, got %s", raw)
			}
			var d struct{ Violations []rpcerr.Violation }
			json.Unmarshal(r.Error.Data, &d)
			if len(d.Violations) != len(tc.errs) {
				t.Fatalf("violations %+v, want %v", d.Violations, tc.errs)
			}
			for j, w := range tc.errs {
				if d.Violations[j].Pointer != w.pointer || !strings.Contains(d.Violations[j].Message, w.message) {
					t.Errorf("violation %d: %+v, want %s saying %q", j, d.Violations[j], w.pointer, w.message)
				}
			}
		})
	}
}

// TestErrorBranchKeepsItsStatus checks that a result which is not a
// generated struct (a union such as checkout-or-error) gets the negotiated
// version and capabilities while the hook's own ucp members stay: an error
// branch must still say status "error", which its schema requires.
func TestErrorBranchKeepsItsStatus(t *testing.T) {
	s := newServer(&ucpcore.Options{Version: "2026-08-25"}, echoTool("search", func(context.Context, map[string]any) (any, error) {
		return map[string]any{
			"ucp":       map[string]any{"version": "1999-01-01", "status": "error", "note": "kept"},
			"messages":  []any{map[string]any{"type": "error", "code": "out_of_stock"}},
			"locations": []any{},
		}, nil
	}))
	url := serveHTTP(t, s, nil)
	_, r, raw := post(t, url, callBody(1, "search", `{"meta":`+meta+`,"location":{}}`))
	if r.Result == nil {
		t.Fatalf("want a result, got %s", raw)
	}
	var got struct {
		UCP map[string]any `json:"ucp"`
	}
	if err := json.Unmarshal(r.Result.StructuredContent, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"version": "2026-08-25", "status": "error", "note": "kept", "capabilities": map[string]any{"dev.ucp.common.location.search": []any{map[string]any{"version": "2026-08-25"}}}}
	if !reflect.DeepEqual(got.UCP, want) {
		t.Errorf("ucp = %v, want %v", got.UCP, want)
	}
}
