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

// rowBound bounds the rows the connection c reads; nothing is sent to the server: the
// maximum is a field of the connection's protocol reader.
func (d pgDialect) rowBound(_ context.Context, c *sql.Conn) (rowBound, error) {
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
		return rowBound{}, err
	}
	set := func(n int64) {
		switch {
		case n <= 0:
			f.SetMaxBodyLen(pgDefaultMaxBody)
		case n > math.MaxInt32:
			f.SetMaxBodyLen(math.MaxInt32)
		default:
			f.SetMaxBodyLen(int(n))
		}
	}
	over := func(err error) bool {
		var e *pgproto3.ExceededMaxBodyLenErr
		return errors.As(err, &e)
	}
	return rowBound{set: set, slack: d.rowSlack, over: over}, nil
}
