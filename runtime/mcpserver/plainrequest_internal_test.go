package mcpserver

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestPlainRequestMatchesSDK holds preparse's own request decoder to the
// SDK's DecodeMessage: every request it takes decodes to the same method,
// id and params, and the shapes it leaves alone still reach the SDK.
func TestPlainRequestMatchesSDK(t *testing.T) {
	cases := []struct {
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
	for _, c := range cases {
		got, ok := plainRequest([]byte(c.in))
		if ok != c.take {
			t.Errorf("%s: taken %v, want %v", c.in, ok, c.take)
		}
		if !ok {
			continue
		}
		msg, err := jsonrpc.DecodeMessage([]byte(c.in))
		if err != nil {
			t.Errorf("%s: the SDK refuses what plainRequest took: %v", c.in, err)
			continue
		}
		want, isReq := msg.(*jsonrpc.Request)
		if !isReq {
			t.Errorf("%s: the SDK reads %T", c.in, msg)
			continue
		}
		if got.Method != want.Method || !reflect.DeepEqual(got.ID.Raw(), want.ID.Raw()) || !bytes.Equal(got.Params, want.Params) {
			t.Errorf("%s: got %q %#v %s, the SDK %q %#v %s", c.in, got.Method, got.ID.Raw(), got.Params, want.Method, want.ID.Raw(), want.Params)
		}
	}
}
