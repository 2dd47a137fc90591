package testutil

import (
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy forwards loopback connections to a server; Cut(true) closes every connection
// and refuses new ones until Cut(false); SetFrozen(true) swallows every byte both ways
// and lets new connections wait, as a server that stopped answering.
type Proxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	down   bool
	frozen bool
	conns  []net.Conn
	wg     sync.WaitGroup
}

// SetFrozen makes the proxy swallow every byte, as a server that stopped answering.
func (p *Proxy) SetFrozen(f bool) { p.mu.Lock(); p.frozen = f; p.mu.Unlock() }

func (p *Proxy) isFrozen() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.frozen }

// pump copies src to dst, dropping what arrives while the proxy is frozen.
func (p *Proxy) pump(dst, src net.Conn) {
	defer p.wg.Done()
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.isFrozen() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// StartProxy starts a proxy on a free loopback port to target (host:port); the test's
// cleanup stops it.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, target: target}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		l.Close()
		p.Cut(true)
		p.wg.Wait()
	})
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.l.Addr().String() }

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down, frozen := p.down, p.frozen
		if frozen {
			p.conns = append(p.conns, c) // accepted, never answered
		}
		p.mu.Unlock()
		if down {
			c.Close() // as good as refused: the client reads EOF at once
			continue
		}
		if frozen {
			continue
		}
		s, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(s, c)
		go p.pump(c, s)
	}
}

// Cut closes every connection and refuses new ones (down), or lets them through again.
func (p *Proxy) Cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}
