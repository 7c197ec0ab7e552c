package pgtest

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// Proxy is a TCP relay between code under test and the database, so a test
// can take the database away from one server without stopping the cluster
// other tests share: Stop drops every connection and refuses new ones, as a
// stopped server does; Freeze leaves connections open but passes no byte,
// as a server under SIGSTOP does; Start restores service.
type Proxy struct {
	t      testing.TB
	ln     net.Listener
	target string

	mu     sync.Mutex
	mode   int // up, stopped, frozen
	thaw   chan struct{}
	conns  map[net.Conn]struct{}
	closed bool
}

const (
	proxyUp = iota
	proxyStopped
	proxyFrozen
)

// NewProxy relays a loopback port to dsn's host and port and returns the
// proxy and dsn rewritten to go through it; it closes when the test ends.
func NewProxy(t testing.TB, dsn string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Fatalf("pgtest proxy needs a URL DSN with a host, got %q: %v", dsn, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, ln: ln, target: u.Host, thaw: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	go p.accept()
	t.Cleanup(p.close)
	u.Host = ln.Addr().String()
	return p, u.String()
}

// Stop drops every relayed connection and refuses new ones until Start.
func (p *Proxy) Stop() { p.set(proxyStopped, true) }

// Freeze stops relaying bytes (connections stay open, new ones are
// accepted but never answered) until Start.
func (p *Proxy) Freeze() { p.set(proxyFrozen, false) }

// Start relays again.
func (p *Proxy) Start() { p.set(proxyUp, false) }

func (p *Proxy) set(mode int, drop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == proxyFrozen && mode != proxyFrozen {
		close(p.thaw)
		p.thaw = make(chan struct{})
	}
	p.mode = mode
	if drop {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

func (p *Proxy) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.ln.Close()
	p.set(proxyStopped, true)
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.mode == proxyStopped {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			continue
		}
		go p.relay(c)
	}
}

// relay dials the database for one client connection and copies both ways
// through gates that hold while the proxy is frozen.
func (p *Proxy) relay(c net.Conn) {
	p.gate()
	d, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(d) {
		c.Close()
		return
	}
	go p.copy(d, c)
	p.copy(c, d)
}

func (p *Proxy) copy(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.gate()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // EOF or a dropped connection: close both sides
		}
	}
}

// gate waits while the proxy is frozen.
func (p *Proxy) gate() {
	for {
		p.mu.Lock()
		frozen, thaw := p.mode == proxyFrozen, p.thaw
		p.mu.Unlock()
		if !frozen {
			return
		}
		<-thaw
	}
}
