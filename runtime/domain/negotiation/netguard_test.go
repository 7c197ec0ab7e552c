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
		{"::ffff:93.184.215.14", false}, // IPv4-mapped literal: write the IPv4 form
		{"::ffff:0:7f00:1", false},      // IPv4-translated 127.0.0.1
		{"::ffff:0:5db8:d70e", false},   // IPv4-translated, not global either
		{"64:ff9b::a00:1", false},       // NAT64 of 10.0.0.1
		{"64:ff9b::5db8:d70e", true},    // NAT64 of 93.184.215.14
		{"2002:a00:1::1", false},        // 6to4 of 10.0.0.1
		{"2002:5db8:d70e::1", true},     // 6to4 of 93.184.215.14
		{"::a00:1", false},              // deprecated IPv4-compatible
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

// ianaSpecialPurpose is the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (RFC 6890 and its updates), one row per entry, with the
// registry's Globally Reachable flag (Teredo's "N/A" is listed as not
// global). public is what IsPublicAddress answers for the entry's addresses
// when global is true: some global entries sit inside a wider non-global
// entry (PCP anycast inside 192.0.0.0/24, AMT inside 2001::/23), and the
// guard refuses the wider block whole, which is stricter than the registry.
// embeds marks the two globally routed translation prefixes (NAT64
// 64:ff9b::/96 and 6to4 2002::/16, flagged True and N/A) whose addresses are
// judged by the IPv4 address they carry.
var ianaSpecialPurpose = []struct {
	prefix string
	name   string
	global bool
	public bool
	embeds bool
}{
	// IPv4 Special-Purpose Address Registry
	{"0.0.0.0/8", "this network", false, false, false},
	{"0.0.0.0/32", "this host on this network", false, false, false},
	{"10.0.0.0/8", "private-use", false, false, false},
	{"100.64.0.0/10", "shared address space", false, false, false},
	{"127.0.0.0/8", "loopback", false, false, false},
	{"169.254.0.0/16", "link local", false, false, false},
	{"172.16.0.0/12", "private-use", false, false, false},
	{"192.0.0.0/24", "IETF protocol assignments", false, false, false},
	{"192.0.0.0/29", "IPv4 service continuity prefix", false, false, false},
	{"192.0.0.8/32", "IPv4 dummy address", false, false, false},
	{"192.0.0.9/32", "port control protocol anycast", true, false, false},
	{"192.0.0.10/32", "TURN anycast", true, false, false},
	{"192.0.0.170/32", "NAT64/DNS64 discovery", false, false, false},
	{"192.0.0.171/32", "NAT64/DNS64 discovery", false, false, false},
	{"192.0.2.0/24", "documentation (TEST-NET-1)", false, false, false},
	{"192.31.196.0/24", "AS112-v4", true, true, false},
	{"192.52.193.0/24", "AMT", true, true, false},
	{"192.88.99.0/24", "deprecated 6to4 relay anycast", false, false, false},
	{"192.168.0.0/16", "private-use", false, false, false},
	{"198.18.0.0/15", "benchmarking", false, false, false},
	{"198.51.100.0/24", "documentation (TEST-NET-2)", false, false, false},
	{"203.0.113.0/24", "documentation (TEST-NET-3)", false, false, false},
	{"240.0.0.0/4", "reserved", false, false, false},
	{"255.255.255.255/32", "limited broadcast", false, false, false},
	// IPv6 Special-Purpose Address Registry
	{"::1/128", "loopback", false, false, false},
	{"::/128", "unspecified", false, false, false},
	{"::ffff:0:0/96", "IPv4-mapped", false, false, false},
	{"64:ff9b::/96", "IPv4-IPv6 translation", true, false, true},
	{"64:ff9b:1::/48", "IPv4-IPv6 translation, local use", false, false, false},
	{"100::/64", "discard-only", false, false, false},
	{"100:0:0:1::/64", "dummy IPv6 prefix", false, false, false},
	{"2001::/23", "IETF protocol assignments", false, false, false},
	{"2001::/32", "TEREDO", false, false, false},
	{"2001:1::1/128", "port control protocol anycast", true, false, false},
	{"2001:1::2/128", "TURN anycast", true, false, false},
	{"2001:1::3/128", "DNS-SD service registration protocol anycast", true, false, false},
	{"2001:2::/48", "benchmarking", false, false, false},
	{"2001:3::/32", "AMT", true, false, false},
	{"2001:4:112::/48", "AS112-v6", true, false, false},
	{"2001:10::/28", "deprecated ORCHID", false, false, false},
	{"2001:20::/28", "ORCHIDv2", true, false, false},
	{"2001:30::/28", "drone remote ID protocol entity tags", true, false, false},
	{"2001:db8::/32", "documentation", false, false, false},
	{"2002::/16", "6to4", true, false, true},
	{"2620:4f:8000::/48", "direct delegation AS112 service", true, true, false},
	{"3fff::/20", "documentation", false, false, false},
	{"5f00::/16", "segment routing (SRv6) SIDs", false, false, false},
	{"fc00::/7", "unique-local", false, false, false},
	{"fe80::/10", "link-local unicast", false, false, false},
}

// samples returns the first and last address of p and one in its middle.
func samples(p netip.Prefix) []netip.Addr {
	first := p.Masked().Addr()
	b := first.AsSlice()
	last := make([]byte, len(b))
	mid := make([]byte, len(b))
	copy(last, b)
	copy(mid, b)
	for i := p.Bits(); i < len(b)*8; i++ {
		last[i/8] |= 0x80 >> (i % 8)
	}
	if p.Bits() < len(b)*8 {
		mid[p.Bits()/8] |= 0x80 >> (p.Bits() % 8)
	}
	l, _ := netip.AddrFromSlice(last)
	m, _ := netip.AddrFromSlice(mid)
	return []netip.Addr{first, m, l}
}

// TestIANASpecialPurposeRegistries checks every registry entry: no address
// of a non-global entry is public, and the guard refuses to dial one (as a
// literal, and as the answer of a name lookup) before any connection.
func TestIANASpecialPurposeRegistries(t *testing.T) {
	for _, e := range ianaSpecialPurpose {
		p := netip.MustParsePrefix(e.prefix)
		for _, a := range samples(p) {
			want := e.public
			if e.embeds {
				b := a.As16()
				v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
				if p.Addr().As16()[0] == 0x20 {
					v4 = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
				}
				want = IsPublicAddress(v4)
			}
			if !e.global && want {
				t.Fatalf("%s: table error, a non-global entry cannot be public", e.prefix)
			}
			if got := IsPublicAddress(a); got != want {
				t.Errorf("%s (%s) %s: IsPublicAddress = %v, want %v", e.prefix, e.name, a, got, want)
			}
			if e.global {
				continue
			}
			fn := &fakeNet{hosts: map[string][]string{"profile.example": {a.String()}}}
			g := &dialGuard{resolver: fn, dial: fn.Dial}
			targets := []string{net.JoinHostPort(a.String(), "443"), "profile.example:443"}
			if a.Is4In6() {
				// A resolver's net.IP cannot tell ::ffff:a.b.c.d from the
				// IPv4 answer a.b.c.d, which is how it is dialled and judged.
				targets = targets[:1]
			}
			for _, target := range targets {
				if _, err := g.DialContext(context.Background(), "tcp", target); !errors.Is(err, errRefusedAddress) {
					t.Errorf("%s (%s) dial %s: err = %v, want refused", e.prefix, e.name, target, err)
				}
			}
			if d := fn.dialed(); len(d) != 0 {
				t.Errorf("%s (%s): dialled %v before refusing", e.prefix, e.name, d)
			}
		}
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
