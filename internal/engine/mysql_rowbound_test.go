package engine

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
)

// chunkConn is a net.Conn whose reads return at most n bytes of r.
type chunkConn struct {
	net.Conn
	r io.Reader
	n int
}

func (c *chunkConn) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

func mysqlPacket(size int, seq byte) []byte {
	return append([]byte{byte(size), byte(size >> 8), byte(size >> 16), seq}, make([]byte, size)...)
}

// TestFrameConn: the greeting's connection id is read; a logical packet (physical
// packets of 0xffffff bytes continued by the next) over the limit fails the read at the
// header that passes it, in whatever chunks the bytes arrive; packets under it pass.
func TestFrameConn(t *testing.T) {
	greeting := append([]byte{10}, "10.11.19-MariaDB\x00"...)
	greeting = append(greeting, 0x39, 0x30, 0, 0, 'x', 'y') // id 12345
	stream := append([]byte{byte(len(greeting)), 0, 0, 0}, greeting...)
	stream = append(stream, mysqlPacket(100, 1)...)
	big := append(mysqlPacket(0xffffff, 2), mysqlPacket(10, 3)...) // one logical packet of 16 MiB + 10
	for _, tc := range []struct {
		name  string
		limit int64
		over  bool
	}{
		{"no limit", 0, false},
		{"limit above the row", 0xffffff + 10, false},
		{"limit below the row's second packet", 0xffffff + 9, true},
		{"limit below the row's first packet", 1000, true},
	} {
		for _, chunk := range []int{1, 3, 4096, 1 << 20} {
			fc := &frameConn{Conn: &chunkConn{r: bytes.NewReader(append(append([]byte{}, stream...), big...)), n: chunk}, first: true}
			fc.limit.Store(tc.limit)
			_, err := io.Copy(io.Discard, struct{ io.Reader }{fc})
			if got := errors.Is(err, errRowOverBound); got != tc.over || fc.over.Load() != tc.over {
				t.Errorf("%s, chunks of %d: error %v, over %v; want over %v", tc.name, chunk, err, fc.over.Load(), tc.over)
			}
			if fc.id.Load() != 12345 {
				t.Errorf("%s, chunks of %d: connection id %d, want 12345", tc.name, chunk, fc.id.Load())
			}
		}
	}
}
