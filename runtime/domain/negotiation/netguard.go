package negotiation

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Resolver is the DNS lookup HTTPSource uses; *net.Resolver satisfies it, and
// tests inject a map so no real DNS is consulted.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// DialFunc opens a connection to an address that has already been resolved
// and checked; tests inject one to observe or redirect connections.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// blockedPrefixes are the special-use ranges (RFC 6890 and successors) a
// Platform profile URL must not reach unless private networks are allowed:
// they are where internal services and cloud metadata endpoints live.
var blockedPrefixes = func() []netip.Prefix {
	cidrs := []string{
		// IPv4
		"0.0.0.0/8",       // "this network", includes the unspecified address
		"10.0.0.0/8",      // RFC 1918 private
		"100.64.0.0/10",   // carrier-grade NAT shared space
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, incl. cloud metadata 169.254.169.254
		"172.16.0.0/12",   // RFC 1918 private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation TEST-NET-1
		"192.88.99.0/24",  // deprecated 6to4 relay anycast
		"192.168.0.0/16",  // RFC 1918 private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation TEST-NET-2
		"203.0.113.0/24",  // documentation TEST-NET-3
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, incl. limited broadcast
		// IPv6
		"::/96",           // unspecified, loopback, deprecated IPv4-compatible
		"::ffff:0:0/96",   // IPv4-mapped: refused as a literal, see IsPublicAddress
		"::ffff:0:0:0/96", // IPv4-translated (RFC 2765 SIIT), not global
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard-only
		"100:0:0:1::/64",  // dummy IPv6 prefix (RFC 9780)
		"2001::/23",       // IETF protocol assignments (incl. Teredo)
		"2001:db8::/32",   // documentation
		"3fff::/20",       // documentation
		"5f00::/16",       // SRv6 segment identifiers
		"fc00::/7",        // unique local (private)
		"fe80::/10",       // link-local
		"fec0::/10",       // deprecated site-local
		"ff00::/8",        // multicast
	}
	out := make([]netip.Prefix, len(cidrs))
	for i, c := range cidrs {
		out[i] = netip.MustParsePrefix(c)
	}
	return out
}()

var (
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour   = netip.MustParsePrefix("2002::/16")
)

// IsPublicAddress reports whether addr is an ordinary globally routable
// address, the only kind a Platform profile fetch may connect to by default.
// Addresses that embed an IPv4 address and are globally reachable (NAT64,
// 6to4) are judged by the embedded address so they cannot smuggle a private
// target. IPv4-mapped (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96)
// addresses are refused outright, as the IANA registry marks them not
// globally reachable; the resolver's IPv4 answers are unmapped before they
// get here, so only a literal written in that form is affected.
func IsPublicAddress(addr netip.Addr) bool {
	if !addr.IsValid() {
		return false
	}
	addr = addr.WithZone("")
	if addr.Is6() {
		b := addr.As16()
		switch {
		case nat64Prefix.Contains(addr):
			return IsPublicAddress(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixToFour.Contains(addr):
			return IsPublicAddress(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	for _, p := range blockedPrefixes {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// errRefusedAddress marks a connection the guard refused; HTTPSource maps it
// to invalid_profile_url.
var errRefusedAddress = errors.New("address not allowed for platform profile fetches")

// refusedError says which host was refused (the address stays server-side).
type refusedError struct {
	Host string
	Addr netip.Addr
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("%s resolves to %s: %v", e.Host, e.Addr, errRefusedAddress)
}

func (e *refusedError) Unwrap() error { return errRefusedAddress }

// errUnresolvable marks a host name that has no addresses; HTTPSource maps it
// to invalid_profile_url, as UCP lists "unresolvable" under that code.
var errUnresolvable = errors.New("host name does not resolve")

// dialGuard resolves a host itself, checks every candidate address, and dials
// only checked IP literals, so the address that is connected to is the address
// that was checked (no second lookup for DNS rebinding to exploit).
type dialGuard struct {
	resolver     Resolver
	dial         DialFunc
	allowPrivate bool
}

// DialContext is installed as the http.Transport's dialer.
func (g *dialGuard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", address, err)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	// Refuse the whole host when any candidate is off limits: a name that
	// mixes public and private answers is either misconfigured or an attack.
	if !g.allowPrivate {
		for _, a := range addrs {
			if !IsPublicAddress(a) {
				return nil, &refusedError{Host: host, Addr: a}
			}
		}
	}
	var lastErr error
	for _, a := range addrs {
		conn, err := g.dial(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// resolve returns the candidate addresses for host, which may be an IP
// literal (no lookup) or a name.
func (g *dialGuard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	ipaddrs, err := g.resolver.LookupIPAddr(ctx, host)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return nil, fmt.Errorf("resolve %s: %w: %w", host, errUnresolvable, err)
		}
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	out := make([]netip.Addr, 0, len(ipaddrs))
	for _, ip := range ipaddrs {
		a, ok := netip.AddrFromSlice(ip.IP)
		if !ok {
			continue
		}
		// net.IP holds IPv4 in 16 bytes; unmap so it is dialled as IPv4.
		out = append(out, a.Unmap().WithZone(ip.Zone))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("resolve %s: %w", host, errUnresolvable)
	}
	return out, nil
}

// guardedDialer is the default DialFunc: a net.Dialer whose Control hook
// re-checks the socket address right before connect, as a second line of
// defence should a caller-supplied resolver hand back something unexpected.
func guardedDialer(allowPrivate bool) DialFunc {
	d := &net.Dialer{}
	if !allowPrivate {
		d.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("dial %s: %w", address, err)
			}
			if !IsPublicAddress(ap.Addr()) {
				return &refusedError{Host: address, Addr: ap.Addr()}
			}
			return nil
		}
	}
	return d.DialContext
}
