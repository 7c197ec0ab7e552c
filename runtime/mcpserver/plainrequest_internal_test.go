package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/runtime/jsonmember"
)

// plainRequestCases are bodies plainRequest takes (take) or leaves to the
// SDK; FuzzPreparseMatchesSDK starts from them too.
var plainRequestCases = []struct {
	in   string
	take bool
}{
	{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`, true},
	{` { "method" : "tools/list" , "jsonrpc" : "2.0" , "id" : "abc" } `, true},
	{`{"jsonrpc":"2.0","id":-9007199254740992,"method":"m"}`, true},
	{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
	{`{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":[1,{"b":"\u00e9"}]}}`, true},
	{`{"jsonrpc":"2.0","id":"a\"b","method":"m"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"m\u0041"}`, false},
	{`{"jsonrpc":"2.0","id":null,"method":"m"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"m","params":null}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}`, false},
	{`{"jsonrpc":"1.0","id":1,"method":"m"}`, false},
	{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"m","extra":1}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":7}`, false},
}

// differsFromSDK reports how got, a request read from body without the
// SDK, differs from what the SDK's DecodeMessage reads from the same bytes
// (method, id and params), or nil when it does not.
func differsFromSDK(body []byte, got *jsonrpc.Request) error {
	msg, err := jsonrpc.DecodeMessage(bytes.TrimLeft(body, " \t\r\n"))
	if err != nil {
		return fmt.Errorf("the SDK refuses what was taken: %v", err)
	}
	want, ok := msg.(*jsonrpc.Request)
	if !ok {
		return fmt.Errorf("the SDK reads %T", msg)
	}
	if got.Method != want.Method || !reflect.DeepEqual(got.ID.Raw(), want.ID.Raw()) || !bytes.Equal(got.Params, want.Params) {
		return fmt.Errorf("got %q %#v %s, the SDK %q %#v %s", got.Method, got.ID.Raw(), got.Params, want.Method, want.ID.Raw(), want.Params)
	}
	return nil
}

// TestPlainRequestMatchesSDK holds preparse's own request decoder to the
// SDK's DecodeMessage: every request it takes decodes to the same method,
// id and params, and the shapes it leaves alone still reach the SDK.
func TestPlainRequestMatchesSDK(t *testing.T) {
	for _, c := range plainRequestCases {
		env, _, perr := readEnvelope([]byte(bytes.TrimSpace([]byte(c.in))))
		if perr != nil {
			t.Fatalf("%s: %v", c.in, perr.Message)
		}
		got, ok := env.plainRequest()
		if ok != c.take {
			t.Errorf("%s: taken %v, want %v", c.in, ok, c.take)
		}
		if !ok {
			continue
		}
		if err := differsFromSDK([]byte(c.in), got); err != nil {
			t.Errorf("%s: %v", c.in, err)
		}
	}
}

// FuzzPreparseMatchesSDK holds preparse to the SDK on any body: a request
// it hands on, by its own decoder or the SDK's, is the request the SDK's
// DecodeMessage reads from the same bytes (method, id and params).
func FuzzPreparseMatchesSDK(f *testing.F) {
	for _, c := range plainRequestCases {
		f.Add([]byte(c.in))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a\"b","method":"m\u0041","params":{"a":[1,{"b":"\u00e9"}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1e3,"method":"m"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","id":2}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, perr := preparse(body)
		if perr != nil || req == nil {
			return
		}
		if err := differsFromSDK(body, req); err != nil {
			t.Fatalf("%q: preparse: %v", body, err)
		}
	})
}

// FuzzDirectParamsMatchSDK holds directParams to the SDK's reading of
// tools/call params: whatever it takes (params objects a request's
// decoders passed on) names the tool, arguments and _meta the SDK's
// CallToolParamsRaw decodes from the same bytes.
func FuzzDirectParamsMatchSDK(f *testing.F) {
	f.Add([]byte(`{"name":"search_locations","arguments":{"location":{}}}`))
	f.Add([]byte(`{"_meta":{"progressToken":1},"arguments":{},"name":"x\u00e9"}`))
	f.Add([]byte(`{"name":"a","name":"b","arguments":{}}`))
	f.Add([]byte(`{"Name":"a","arguments":{}}`))
	f.Add([]byte(`{"name":"caf\u00e9","arguments":{"a":"\ud800"}}`))
	f.Fuzz(func(t *testing.T, params []byte) {
		if !jsonmember.Scans(params) || len(params) == 0 || params[0] != '{' {
			return // plainRequest passes on params objects the scanner read
		}
		name, args, meta, ok := directParams(params)
		if !ok {
			return
		}
		var want mcp.CallToolParamsRaw
		if err := json.Unmarshal(params, &want); err != nil {
			t.Fatalf("%s: directParams took params the SDK refuses: %v", params, err)
		}
		if name != want.Name || !bytes.Equal(args, want.Arguments) {
			t.Fatalf("%s: directParams reads %q %s, the SDK %q %s", params, name, args, want.Name, want.Arguments)
		}
		var gotMeta mcp.Meta
		if meta != nil {
			if err := json.Unmarshal(meta, &gotMeta); err != nil {
				t.Fatalf("%s: _meta %s does not decode: %v", params, meta, err)
			}
		}
		if !reflect.DeepEqual(gotMeta, want.Meta) {
			t.Fatalf("%s: directParams reads _meta %#v, the SDK %#v", params, gotMeta, want.Meta)
		}
	})
}

// TestReadEnvelopeRepeatedMembers finds a repeated member whether it comes
// among the first few names (a list) or after many (a map).
func TestReadEnvelopeRepeatedMembers(t *testing.T) {
	many := func(n int) string {
		var b bytes.Buffer
		b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"m"`)
		for i := range n {
			fmt.Fprintf(&b, `,"x%d":%d`, i, i)
		}
		return b.String()
	}
	for _, c := range []struct {
		in, repeated string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m"}`, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"m","id":2}`, "id"},
		{`{"jsonrpc":"2.0","id":1,"jsonrpc":"2.0","method":"m"}`, "jsonrpc"},
		{many(5) + `}`, ""},
		{many(5) + `,"x4":0}`, "x4"},
		{many(40) + `}`, ""},
		{many(40) + `,"method":"n"}`, "method"},
		{many(40) + `,"x39":0}`, "x39"},
		{many(40) + `,"x0":0}`, "x0"},
	} {
		env, scanned, perr := readEnvelope([]byte(c.in))
		if scanned != (perr == nil) {
			t.Errorf("%.60s...: scanned %v with error %v", c.in, scanned, perr)
		}
		switch {
		case c.repeated == "" && perr != nil:
			t.Errorf("%.60s...: refused: %s", c.in, perr.Message)
		case c.repeated != "" && (perr == nil || perr.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(perr.Message, `member "`+c.repeated+`" appears more than once`)):
			t.Errorf("%.60s...: got %v, want %q named as repeated", c.in, perr, c.repeated)
		case c.repeated == "" && env.other != (c.in != `{"jsonrpc":"2.0","id":1,"method":"m"}`):
			t.Errorf("%.60s...: other = %v", c.in, env.other)
		}
	}
}
