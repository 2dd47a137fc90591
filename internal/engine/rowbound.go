package engine

import (
	"context"
	"database/sql"
)

// rowBound is how a server dialect refuses a row too large for the byte cap before its
// driver reads it (postgres_rowbound.go, mysql_rowbound.go): set gives the largest row
// the connection will read next (0: no bound), slack how many bytes a row of columns of
// these types (nil: not known yet) may take on the wire beyond what it counts against
// the cap, over whether a query's error is a row refused so; connID is the server's id
// of the connection when finding it needed one (MySQL), else 0.
type rowBound struct {
	set    func(n int64)
	slack  func(types []string) int64
	over   func(err error) bool
	connID int64
}

// rowBounder is a dialect that can bound its rows.
type rowBounder interface {
	rowBound(ctx context.Context, c *sql.Conn) (rowBound, error)
}

// boundedConn takes a connection from p and, when the dialect can and there is a byte
// cap, bounds its first row by the cap plus the dialect's slack; set bounds the next
// row by what is left of the cap, over tells a refused row, done lifts the bound and
// returns the connection to the pool; connID is the server's id of the connection, when
// bounding it asked for it (0: not known).
func boundedConn(ctx context.Context, d serverDialect, p *sql.DB, maxBytes int64) (c *sql.Conn, set func(types []string, left int64), over func(error) bool, done func(), connID int64, err error) {
	c, err = p.Conn(ctx)
	if err != nil {
		return nil, nil, nil, nil, 0, err
	}
	set, over = func([]string, int64) {}, func(error) bool { return false }
	done = func() { c.Close() }
	rb, ok := d.(rowBounder)
	if !ok || maxBytes <= 0 {
		return c, set, over, done, 0, nil
	}
	b, err := rb.rowBound(ctx, c)
	if err != nil {
		c.Close()
		return nil, nil, nil, nil, 0, err
	}
	set = func(types []string, left int64) { b.set(max(left, 0) + b.slack(types)) }
	set(nil, maxBytes)
	return c, set, b.over, func() { b.set(0); c.Close() }, b.connID, nil
}
