package engine

import (
	"errors"
	"net"
	"testing"
)

// endlessConn is a socket that always has n more bytes to read.
type endlessConn struct {
	net.Conn
	n int
}

func (c endlessConn) Read(b []byte) (int, error) { return min(len(b), c.n), nil }

// TestRawPacketBound: over TLS the bound counts the socket's bytes since it was set; it
// lets the bound plus rawSlack through, refuses the next byte and every read after it,
// and setting it again starts the count again (mysql_rowbound.go).
func TestRawPacketBound(t *testing.T) {
	const limit = 1 << 20
	allowed := int64(limit + rawSlack(limit))
	p := &packetBound{Conn: endlessConn{n: 4096}, raw: true}
	p.limit.Store(limit)
	buf := make([]byte, 4096)
	var read int64
	for read+4096 <= allowed {
		n, err := p.Read(buf)
		if err != nil {
			t.Fatalf("after %d of %d allowed bytes: %v", read, allowed, err)
		}
		read += int64(n)
	}
	p.read.Store(0) // as rowBound's set does before the next row
	if _, err := p.Read(buf); err != nil {
		t.Fatalf("after the bound was set again: %v", err)
	}
	p.read.Store(allowed - 1)
	if n, err := p.Read(buf); !errors.Is(err, errPacketBound) || n != 0 || !p.tripped.Load() {
		t.Fatalf("past the bound: %d bytes, %v, tripped %v; want errPacketBound", n, err, p.tripped.Load())
	}
	if _, err := p.Read(buf); !errors.Is(err, errPacketBound) {
		t.Errorf("the read after a refusal: %v; want errPacketBound again", err)
	}
	// No bound (0): nothing is counted or refused.
	q := &packetBound{Conn: endlessConn{n: 4096}, raw: true}
	for range 1000 {
		if _, err := q.Read(buf); err != nil {
			t.Fatalf("no bound: %v", err)
		}
	}
}
