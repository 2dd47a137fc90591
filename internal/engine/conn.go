package engine

import (
	"context"

	"github.com/mattn/go-sqlite3"
)

// QueryConn runs one read-only statement on a go-sqlite3 connection the caller opened
// itself (an in-memory scratch database, as the counterexample search builds), with the
// same checks, limits and value types as SQLite.Query: a result from here compares with
// one from a database file exactly as two file results do.
func QueryConn(ctx context.Context, c *sqlite3.SQLiteConn, query string, lim Limits) (*Result, error) {
	first, err := singleStatement(query)
	if err != nil {
		return nil, err
	}
	qctx, cancel := withTimeout(ctx, lim.Timeout)
	defer cancel()
	res, err := runRaw(qctx, c, first, lim.MaxRows, lim.byteCap())
	if err != nil {
		return nil, queryError(ctx, qctx, err)
	}
	return res, nil
}
