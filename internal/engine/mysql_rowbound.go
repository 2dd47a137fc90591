package engine

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
)

// go-sql-driver reads a whole row (one logical packet, split into 16 MB physical ones)
// before any of its values is seen, and grows its buffer by appending: nine 15 MB values
// of one row took 612 MB of RSS. The server's max_allowed_packet bounds each value (16
// MB on MariaDB by default, up to 1 GB), not a row of up to 4096 of them. The engine
// therefore dials the server itself (Config.DialFunc) and reads the packet framing as
// the bytes pass (frameConn): before every row the largest logical packet is set to
// what is left of the byte cap plus mysqlRowSlack, and a packet header announcing more
// fails the read, so the driver never allocates for it; the query ends as ErrByteLimit.
//
// The framing is readable only on a plain connection: with TLS (or compression) the
// driver wraps the connection after dialing and what passes is ciphertext. Such a pool
// is not bounded this way: one row may then take what the server's max_allowed_packet
// times the row's columns allows (documented in docs/engines.md).

// mysqlRowSlack is how many bytes one row may take on the wire beyond what it counts
// against the byte cap: per value at most 64 (a DECIMAL's 67 characters plus a 9-byte
// length, against the 16 counted for the number it is read as; a text or blob costs
// its bytes plus a length of at most 9, against cellOverhead), for MySQL's 4096 columns
// at most, plus the 4-byte header.
const mysqlRowSlack = 4 + 4096*64

// errRowOverBound is what frameConn's Read returns for a packet over its bound; the
// driver reports it as a bad connection, so the frameConn remembers it (over).
var errRowOverBound = errors.New("mysql row over the byte cap")

// frameConn is a plain connection to a MySQL server whose reads follow the packet
// framing: a 4-byte header (24-bit length, sequence number) and the body; a body of
// 0xffffff bytes is continued by the next packet.
type frameConn struct {
	net.Conn
	limit   atomic.Int64 // the largest logical packet accepted; 0: any
	over    atomic.Bool  // a packet over the limit was refused
	id      atomic.Uint32
	onClose func()

	hdr     [4]byte
	hdrN    int
	left    int   // body bytes of the current physical packet still to come
	logical int64 // bytes of the current logical packet so far
	cont    bool  // the next physical packet continues the current logical one
	first   bool  // the current packet is the server's greeting (it carries the connection id)
	body    []byte
}

func (c *frameConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	for i := 0; i < n; {
		if c.left > 0 {
			k := min(c.left, n-i)
			if c.first && len(c.body) < 64 {
				c.body = append(c.body, p[i:i+min(k, 64-len(c.body))]...)
			}
			c.left -= k
			i += k
			if c.left == 0 && c.first {
				c.greeting()
			}
			continue
		}
		c.hdr[c.hdrN] = p[i]
		c.hdrN++
		i++
		if c.hdrN < 4 {
			continue
		}
		c.hdrN = 0
		size := int(c.hdr[0]) | int(c.hdr[1])<<8 | int(c.hdr[2])<<16
		if !c.cont {
			c.logical = 0
		}
		c.logical += int64(size)
		c.cont = size == 0xffffff
		if lim := c.limit.Load(); lim > 0 && c.logical > lim {
			c.over.Store(true)
			return 0, errRowOverBound
		}
		c.left = size
	}
	return n, err
}

// greeting reads the connection id from the server's first packet (protocol 10: the
// version byte, the server's version text up to a NUL, then the id, little-endian).
func (c *frameConn) greeting() {
	c.first = false
	b := c.body
	c.body = nil
	if len(b) < 1 || b[0] != 10 {
		return
	}
	end := 1
	for end < len(b) && b[end] != 0 {
		end++
	}
	if end+5 <= len(b) {
		c.id.Store(binary.LittleEndian.Uint32(b[end+1 : end+5]))
	}
}

func (c *frameConn) Close() error {
	c.onClose()
	return c.Conn.Close()
}

// mysqlFrames is the dialect's plain connections; byID finds one by the id the server
// gave it.
type mysqlFrames struct {
	mu    sync.Mutex
	conns map[*frameConn]bool
}

// dialFunc is the Config.DialFunc that wraps each connection in a frameConn; nil when
// the configuration cannot be read that way (TLS, compression, a registered network).
func (f *mysqlFrames) dialFunc(cfg *mysql.Config) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if cfg.TLS != nil || strings.Contains(cfg.FormatDSN(), "compress=true") {
		return nil
	}
	switch cfg.Net {
	case "tcp", "tcp4", "tcp6", "unix":
	default:
		return nil
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tc, ok := nc.(*net.TCPConn); ok {
			_ = tc.SetKeepAlive(true) // as the driver does for its own connections
		}
		fc := &frameConn{Conn: nc, first: true}
		fc.onClose = func() {
			f.mu.Lock()
			delete(f.conns, fc)
			f.mu.Unlock()
		}
		f.mu.Lock()
		if f.conns == nil {
			f.conns = map[*frameConn]bool{}
		}
		f.conns[fc] = true
		f.mu.Unlock()
		return fc, nil
	}
}

// byID is the plain connection the server calls id, or nil.
func (f *mysqlFrames) byID(id uint32) *frameConn {
	f.mu.Lock()
	defer f.mu.Unlock()
	for fc := range f.conns {
		if fc.id.Load() == id {
			return fc
		}
	}
	return nil
}

// rowBound finds c's frameConn by asking the server c's connection id (which
// watchCancel then uses too: no second round trip); a connection that is not plain
// (TLS) is not bounded.
func (m *mysqlDialect) rowBound(ctx context.Context, c *sql.Conn) (rowBound, error) {
	var id int64
	if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return rowBound{}, err
	}
	fc := m.frames.byID(uint32(id)) // the greeting carries its low 32 bits
	if fc == nil {
		return rowBound{set: func(int64) {}, slack: func([]string) int64 { return 0 }, over: func(error) bool { return false }, connID: id}, nil
	}
	fc.over.Store(false)
	return rowBound{
		set:    func(n int64) { fc.limit.Store(max(n, 0)) },
		slack:  func([]string) int64 { return mysqlRowSlack },
		over:   func(error) bool { return fc.over.Load() },
		connID: id,
	}, nil
}
