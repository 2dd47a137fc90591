package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/stdlib"
)

// A result's byte cap is checked value by value as rows are scanned, but pgx reads one
// whole DataRow message before any of its values is seen: three 250 MB values of one row
// took 1.98 GB of our memory before the cap could say no (the server itself refuses a
// row over 1 GB). pgproto3's Frontend refuses a message longer than its maximum body
// length right after reading the message's header, before allocating for the body, so
// the engine sets that maximum before every row to what is left of the cap plus what
// the wire form may exceed the counted form by (rowSlack): a row that cannot fit fails
// with ErrByteLimit before it is in memory, and a row that fits is never refused.

// pgMaxColumns is PostgreSQL's limit on a result's columns (MaxTupleAttributeNumber).
const pgMaxColumns = 1664

// pgNumericSlack is how many more bytes a NUMERIC value may take on the wire (text
// format) than in a Result: trailing fractional zeros (at most 16383, PostgreSQL's
// largest display scale) are dropped, "1.000" becomes the float 1. Every other value
// costs a Result at least what it costs on the wire: texts and byteas the same bytes
// plus cellOverhead (16) against a 4-byte length; binary numbers, dates and timestamps
// at most 8 bytes.
const pgNumericSlack = 16384 + 16

// pgDefaultMaxBody is pgx's own maximum body length (PostgreSQL's 1 GB message limit),
// restored once a query is done.
const pgDefaultMaxBody = 0x3fffffff - 1

// rowSlack is how many bytes a DataRow may exceed what its values count against the
// byte cap by: its 2-byte field count, plus pgNumericSlack per NUMERIC column. Before
// the columns are known (the first row may be read with them) every column may be one.
func (pgDialect) rowSlack(types []string) int64 {
	if types == nil {
		return 2 + pgMaxColumns*pgNumericSlack
	}
	n := int64(2)
	for _, t := range types {
		if t == "NUMERIC" {
			n += pgNumericSlack
		}
	}
	return n
}

// rowBound returns what sets the largest DataRow the connection c will read (n <= 0:
// pgx's default again). Nothing is sent to the server: it is a field of the connection's
// protocol reader.
func (d pgDialect) rowBound(c *sql.Conn) (func(n int64), func(error) bool, error) {
	var f *pgproto3.Frontend
	err := c.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres connection is a %T, not pgx's", dc)
		}
		f = sc.Conn().PgConn().Frontend()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return func(n int64) {
		switch {
		case n <= 0:
			f.SetMaxBodyLen(pgDefaultMaxBody)
		case n > math.MaxInt32:
			f.SetMaxBodyLen(math.MaxInt32)
		default:
			f.SetMaxBodyLen(int(n))
		}
	}, d.overRowBound, nil
}

// overRowBound reports whether err is a row refused by rowBound's maximum.
func (pgDialect) overRowBound(err error) bool {
	var e *pgproto3.ExceededMaxBodyLenErr
	return errors.As(err, &e)
}

// rowBounder is a dialect that can refuse a row too large for the byte cap before it
// reads it (PostgreSQL, see above; MySQL, mysql_rowbound.go). rowBound returns what
// sets c's bound and what tells an error caused by it.
type rowBounder interface {
	rowBound(c *sql.Conn) (bound func(n int64), over func(error) bool, err error)
	// rowSlack is how many bytes a row of columns of these types (nil: not known yet)
	// may take on the wire beyond what it counts against the byte cap.
	rowSlack(types []string) int64
}

// boundedConn takes a connection from p and, when the dialect can and there is a byte
// cap, bounds its first row by the cap (plus the dialect's rowSlack); set bounds the next row,
// over tells a refused row, done restores the connection and returns it to the pool.
func boundedConn(ctx context.Context, d serverDialect, p *sql.DB, maxBytes int64) (c *sql.Conn, set func(types []string, left int64), over func(error) bool, done func(), err error) {
	c, err = p.Conn(ctx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	set, over = func([]string, int64) {}, func(error) bool { return false }
	done = func() { c.Close() }
	rb, ok := d.(rowBounder)
	if !ok || maxBytes <= 0 {
		return c, set, over, done, nil
	}
	bound, over, err := rb.rowBound(c)
	if err != nil {
		c.Close()
		return nil, nil, nil, nil, err
	}
	set = func(types []string, left int64) { bound(max(left, 0) + rb.rowSlack(types)) }
	set(nil, maxBytes)
	return c, set, over, func() { bound(0); c.Close() }, nil
}
