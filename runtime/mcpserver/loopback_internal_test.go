package mcpserver

import (
	"bytes"
	"encoding/json"
	"net"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestLocalLoopbackMatchesTheString holds the TCP fast path to loopback
// over the address's text, for every kind of local address a listener has.
func TestLocalLoopbackMatchesTheString(t *testing.T) {
	addrs := []net.Addr{
		&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080},
		&net.TCPAddr{IP: net.ParseIP("127.9.8.7"), Port: 1},
		&net.TCPAddr{IP: net.ParseIP("::1"), Port: 443},
		&net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 80},
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 80},
		&net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 80},
		&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 80, Zone: "eth0"},
		&net.TCPAddr{IP: net.ParseIP("0.0.0.0"), Port: 80},
		&net.TCPAddr{Port: 80},
		&net.UnixAddr{Name: "/tmp/ucp.sock", Net: "unix"},
	}
	for _, a := range addrs {
		if got, want := localLoopback(a), loopback(a.String()); got != want {
			t.Errorf("%s: localLoopback %v, loopback of the text %v", a, got, want)
		}
	}
}

// TestResponseHeadMatchesTheSDK holds the integer fast path of
// appendResponseHead to the SDK's own encoding of the same id, and checks
// the other ids still go through the SDK.
func TestResponseHeadMatchesTheSDK(t *testing.T) {
	ints := 0
	for _, v := range []any{float64(0), float64(1), float64(-1), float64(42), float64(1 << 53), -float64(1 << 53), float64(1e15), "7", "é<&>\"\u2028", ""} {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		frame, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: json.RawMessage("0")})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := bytes.CutSuffix(frame, []byte(`"result":0}`))
		if _, ok := id.Raw().(int64); ok {
			ints++
		}
		got, err := appendResponseHead([]byte("x"), id)
		if err != nil || string(got) != "x"+string(want) {
			t.Errorf("id %#v: %s, %v; the SDK writes %s", v, got, err, want)
		}
	}
	if ints != 7 {
		t.Errorf("%d ids took the integer path, want 7", ints)
	}
}
