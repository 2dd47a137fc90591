package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/go-sql-driver/mysql"
)

// go-sql-driver reads a whole row before any of its values is seen, and a row longer
// than a packet (16 MiB) is appended part by part: a 900 MB row of four values took
// 3.33 GB before the byte cap could say no. The driver has no bound on what it reads, so
// the engine reads the socket for it: each connection the pool dials is a packetBound,
// which follows the packet headers as the bytes pass and refuses a packet (a row: its
// parts added up) longer than the bound as soon as its header arrives, before the
// driver allocates for it. The bound is set before every row, as PostgreSQL's is
// (postgres_rowbound.go): what is left of the cap plus what the wire form may exceed
// the counted form by (rowSlack). The refused connection is closed (the server stops
// writing the row when its socket closes) and the query fails with ErrByteLimit naming
// the cap. Nothing goes to the server, so the KILL path (watchCancel, which takes the
// id from SELECT CONNECTION_ID() on the statement's own connection) is untouched.
//
// With TLS the socket carries records, not packets: there the bound counts the raw bytes
// read since it was set (a row's wire bytes plus what TLS adds and what the driver and
// TLS read ahead, at most a record or two: rawSlack). Compression is switched off (open,
// mysql.go): a compressed row of one repeated letter is a few KB on the socket and as
// large as it is once inflated, so nothing on the socket bounds it, and the results are
// the same without it.

// mysqlMaxPacket is the largest part of a packet; a packet of this length continues.
const mysqlMaxPacket = 1<<24 - 1

// mysqlMaxColumns is MySQL's and MariaDB's limit on a table's (and a result's) columns.
const mysqlMaxColumns = 4096

// mysqlValueSlack is how many more bytes a value may take on the wire (text protocol)
// than it counts against the byte cap: a text or blob costs its bytes and a length of at
// most 9 there and its bytes plus cellOverhead (16) here; any other value counts
// cellOverhead, and its text on the wire is at most 67 bytes (a DECIMAL of 65 digits with
// sign and point) plus a 1-byte length.
const mysqlValueSlack = 80

// mysqlPacketSlack lets a packet that is no row through whatever is left of the cap: an
// error (its message is at most 512 bytes), the end of a result, an OK.
const mysqlPacketSlack = 1 << 16

// rawSlack is what a TLS connection's bound adds to the row bound: TLS's own bytes (a
// record's header, nonce and tag, under 2% of its up to 16 KiB), what TLS and the driver
// read ahead of the row (a record or two), and the result's column definitions, which
// the first bound also counts (at most 4096 of about 1.6 KB). Memory stays bounded by the
// cap plus this.
func rawSlack(limit int64) int64 { return limit/32 + 8<<20 }

// errPacketBound is what the socket returns for a packet over the bound; the driver
// reports it as ErrInvalidConn and closes the connection.
var errPacketBound = errors.New("mysql packet over the row bound")

// packetBound is a MySQL connection's socket, following the packet headers the driver
// reads (see above). Read runs on the driver's goroutine; the bound is set from the
// engine's.
type packetBound struct {
	net.Conn
	limit   atomic.Int64 // the largest packet let through; 0: no bound
	tripped atomic.Bool  // a packet was refused
	key     any          // the driver connection, in packetBounds
	raw     bool         // TLS: count bytes since the bound was set, not packets
	read    atomic.Int64 // raw: bytes read since the bound was set

	hdr     [3]byte // the length of the header being read
	hdrN    int     // bytes of the header read so far (of 4)
	body    int64   // bytes of the current part's body still to pass
	logical int64   // length of the packet so far, its parts added up
	held    error   // returned by every Read once a packet was refused
}

func (p *packetBound) Read(b []byte) (int, error) {
	if p.held != nil {
		return 0, p.held
	}
	n, err := p.Conn.Read(b)
	if p.raw {
		if lim := p.limit.Load(); lim > 0 && p.read.Add(int64(n)) > lim+rawSlack(lim) {
			p.tripped.Store(true)
			p.held = errPacketBound
			return 0, errPacketBound
		}
		return n, err
	}
	for i := 0; i < n; {
		if p.body > 0 {
			k := int(min(int64(n-i), p.body))
			p.body -= int64(k)
			i += k
			continue
		}
		start := i - p.hdrN // where the header began in b (< 0: in an earlier Read)
		if p.hdrN < 3 {
			p.hdr[p.hdrN] = b[i]
		}
		p.hdrN++
		i++
		if p.hdrN < 4 {
			continue
		}
		p.hdrN = 0
		part := int64(p.hdr[0]) | int64(p.hdr[1])<<8 | int64(p.hdr[2])<<16
		p.logical += part
		if lim := p.limit.Load(); lim > 0 && p.logical > lim {
			p.tripped.Store(true)
			p.held = errPacketBound
			return max(start, 0), nil // the packets before it, not its header
		}
		p.body = part
		if part < mysqlMaxPacket {
			p.logical = 0
		}
	}
	return n, err
}

func (p *packetBound) Close() error {
	if p.key != nil {
		packetBounds.Delete(p.key)
	}
	return p.Conn.Close()
}

// SyscallConn keeps the driver's check of a pooled connection's liveness (conncheck.go).
func (p *packetBound) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := p.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.New("not a syscall.Conn")
}

// packetBounds maps each driver connection the engine opened to its socket.
var packetBounds sync.Map

// dialSlot is the context key through which the dial hands the socket to Connect.
type dialSlot struct{}

// boundConnector is the driver's connector with each connection's socket a
// packetBound, found again from the connection (rowBound).
type boundConnector struct{ driver.Connector }

func (b boundConnector) Connect(ctx context.Context) (driver.Conn, error) {
	var slot *packetBound
	c, err := b.Connector.Connect(context.WithValue(ctx, dialSlot{}, &slot))
	if err != nil {
		return nil, err
	}
	if slot != nil {
		slot.key = c
		packetBounds.Store(c, slot)
	}
	return c, nil
}

// usesTLS reports whether cfg's connections carry TLS records rather than packets.
func usesTLS(cfg *mysql.Config) bool {
	return cfg.TLS != nil || (cfg.TLSConfig != "" && cfg.TLSConfig != "false")
}

// compressed reports whether cfg asks for the compressed protocol (the driver keeps the
// flag unexported; its DSN form says it).
func compressed(cfg *mysql.Config) bool {
	return strings.Contains(cfg.FormatDSN(), "compress=true")
}

// dialBounded returns a dial that dials as the driver does and wraps the socket in a
// packetBound (raw: one that counts bytes, for TLS).
func dialBounded(raw bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetKeepAlive(true) //nolint:errcheck // as the driver: best effort
		}
		p := &packetBound{Conn: c, raw: raw}
		if slot, ok := ctx.Value(dialSlot{}).(**packetBound); ok {
			*slot = p
		}
		return p, nil
	}
}

// rowBound returns what sets the largest packet c will read (n <= 0: none) and what
// tells an error caused by it. A connection without a packetBound (one the DSN's own
// dialer makes) is not bounded.
func (*mysqlDialect) rowBound(c *sql.Conn) (func(n int64), func(error) bool, error) {
	var p *packetBound
	err := c.Raw(func(dc any) error {
		if v, ok := packetBounds.Load(dc); ok {
			p = v.(*packetBound)
		}
		return nil
	})
	if err != nil || p == nil {
		return func(int64) {}, func(error) bool { return false }, err
	}
	p.tripped.Store(false)
	set := func(n int64) {
		p.read.Store(0)
		p.limit.Store(max(n, 0))
	}
	return set, func(error) bool { return p.tripped.Load() }, nil
}

// rowSlack is how many bytes a row of these columns (nil: not known yet) may take on the
// wire beyond what it counts against the byte cap.
func (*mysqlDialect) rowSlack(types []string) int64 {
	n := int64(len(types))
	if types == nil {
		n = mysqlMaxColumns
	}
	return mysqlPacketSlack + n*mysqlValueSlack
}
