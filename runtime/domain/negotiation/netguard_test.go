package negotiation

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
)

func TestIsPublicAddress(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"8.8.8.8", true},
		{"2606:4700:4700::1111", true},
		{"0.0.0.0", false},
		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"172.32.0.1", true},
		{"192.168.1.1", false},
		{"169.254.169.254", false},
		{"100.64.0.1", false},
		{"100.127.255.255", false},
		{"100.128.0.1", true},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"192.0.2.10", false},
		{"198.18.0.1", false},
		{"::", false},
		{"::1", false},
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"ff02::1", false},
		{"2001:db8::1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:93.184.215.14", true},
		{"64:ff9b::a00:1", false},    // NAT64 of 10.0.0.1
		{"64:ff9b::5db8:d70e", true}, // NAT64 of 93.184.215.14
		{"2002:a00:1::1", false},     // 6to4 of 10.0.0.1
		{"2002:5db8:d70e::1", true},  // 6to4 of 93.184.215.14
		{"::a00:1", false},           // deprecated IPv4-compatible
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := IsPublicAddress(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Fatalf("IsPublicAddress(%s) = %v, want %v", tt.addr, got, tt.want)
			}
		})
	}
	if IsPublicAddress(netip.Addr{}) {
		t.Fatal("the zero Addr must not be public")
	}
}

// The default dialer's Control hook refuses a non-public socket address even
// if something upstream handed it one, and permits it when allowed.
func TestGuardedDialerControlHook(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	_, err = guardedDialer(false)(context.Background(), "tcp", ln.Addr().String())
	if !errors.Is(err, errRefusedAddress) {
		t.Fatalf("strict dial: err = %v, want refused", err)
	}
	conn, err := guardedDialer(true)(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("permissive dial: %v", err)
	}
	conn.Close()
}

func TestDialGuardResolvesOnceAndDialsLiterals(t *testing.T) {
	fn := &fakeNet{hosts: map[string][]string{"platform.example.com": {"93.184.215.14", "2606:4700::1"}}}
	g := &dialGuard{resolver: fn, dial: fn.Dial}
	_, err := g.DialContext(context.Background(), "tcp", "platform.example.com:443")
	if err == nil {
		t.Fatal("fake network has no route, want error")
	}
	want := []string{"93.184.215.14:443", "[2606:4700::1]:443"}
	got := fn.dialed()
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("dials = %v, want %v (every candidate, as IP literals)", got, want)
	}
	if len(fn.lookups) != 1 {
		t.Fatalf("lookups = %v, want exactly one", fn.lookups)
	}

	_, err = g.DialContext(context.Background(), "tcp", "missing.example.com:443")
	if !errors.Is(err, errUnresolvable) {
		t.Fatalf("unknown host: err = %v, want unresolvable", err)
	}
}
