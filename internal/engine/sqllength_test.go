package engine

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// inList is `SELECT 1 WHERE 1 IN (1,1,...)` of about n bytes.
func inList(n int) string {
	return "SELECT 1 WHERE 1 IN (" + strings.Repeat("1,", n/2) + "1)"
}

// TestSQLLengthCap: a statement over MaxSQLBytes is refused before SQLite prepares it,
// through Query and CheckPrepares (a 2 MB IN list took 220-260 MB of SQLite's memory to
// prepare: issue 45); a long one under the cap still runs.
func TestSQLLengthCap(t *testing.T) {
	e := newEngine(t)
	db, err := sql.Open(driverName, ReadOnlyDSN(fixturePath))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	long := inList(2 << 20)
	if _, err := e.Query(ctx, fixturePath, long, Limits{}); !errors.Is(err, ErrSQLTooLong) {
		t.Errorf("Query(2 MB IN list) = %v, want ErrSQLTooLong", err)
	}
	if err := CheckPrepares(ctx, db, long); !errors.Is(err, ErrSQLTooLong) {
		t.Errorf("CheckPrepares(2 MB IN list) = %v, want ErrSQLTooLong", err)
	}
	under := inList(64 << 10) // a long real query (preparing one near the cap takes seconds)
	res, err := e.Query(ctx, fixturePath, under, Limits{})
	if err != nil || res.NumRows() != 1 {
		t.Errorf("Query(IN list under the cap) = %v, %v; want one row", res, err)
	}
}
