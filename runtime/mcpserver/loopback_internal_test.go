package mcpserver

import (
	"net"
	"testing"
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
