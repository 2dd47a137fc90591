package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// Every SQLite statement this tool runs or checks is prepared by prepareSQLite, because
// go-sqlite3 crashes the process (a segmentation fault in _sqlite3_bind_step_columns)
// when it steps what SQLite prepared from SQL holding no statement: sqlite3_prepare_v2
// then returns SQLITE_OK with a NULL statement handle, and go-sqlite3 uses it anyway.
// SQLite's idea of "no statement" is wider than ours: its tokenizer reads C strings, so a
// NUL byte ends the SQL ("\x00SELECT 1" is empty to it), and a run of white space that
// starts with a space, tab, newline, form feed or carriage return goes on over vertical
// tabs ("\r\r\v\r", "-- c\n\v"). So the guard is not a copy of SQLite's tokenizer: it asks
// SQLite, by looking at the handle it returned.
//
// What such SQL becomes, and why:
//   - a NUL byte anywhere is ErrNULByte, judged a syntax_error. Python's sqlite3, which
//     the official BIRD and Spider scripts use, refuses such a query ("the query contains
//     a null character"), and both scripts score that exception as a failed prediction.
//     Passing the text on would also silently run only the part before the NUL.
//   - SQL that SQLite prepares to nothing is ErrEmptyQuery, exactly like "" or a
//     comment: Python's sqlite3 executes it and fetches no rows, so the judge treats it
//     as an empty prediction (an empty result), as it always treated "".

// MaxSQLBytes caps a statement's text, for every engine (SQLite's own
// SQLITE_LIMIT_SQL_LENGTH is set to it too): preparing costs about a hundred times the
// text (a 2 MB IN list took 220-260 MB in SQLite), and no real query comes near it
// (Spider's and BIRD's longest golds are a few kilobytes).
const MaxSQLBytes = 1 << 20

// checkText refuses query text no engine should be given: a NUL byte, or more than
// MaxSQLBytes.
func checkText(query string) error {
	if len(query) > MaxSQLBytes {
		return fmt.Errorf("%w: %d bytes, the cap is %d", ErrSQLTooLong, len(query), MaxSQLBytes)
	}
	return checkNUL(query)
}

// checkNUL refuses text holding a NUL byte (a counterexample script, which has its own
// caps, is checked only for that).
func checkNUL(query string) error {
	if strings.IndexByte(query, 0) >= 0 {
		return ErrNULByte
	}
	return nil
}

// prepareSQLite prepares query on c. Beyond SQLite's own errors it returns ErrNULByte,
// ErrEmptyQuery (SQLite prepared no statement) and ErrNotReadOnly (refused by
// readOnlyAuthorizer). The caller closes the statement.
func prepareSQLite(c *sqlite3.SQLiteConn, query string) (*sqlite3.SQLiteStmt, error) {
	if err := checkNUL(query); err != nil {
		return nil, err
	}
	st, err := c.Prepare(query)
	if err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && se.Code == sqlite3.ErrAuth {
			return nil, ErrNotReadOnly // denied by readOnlyAuthorizer
		}
		return nil, dbError(err)
	}
	ss, ok := st.(*sqlite3.SQLiteStmt)
	if !ok {
		st.Close()
		return nil, fmt.Errorf("unexpected driver statement %T", st)
	}
	if nullHandle(ss) {
		ss.Close()
		return nil, ErrEmptyQuery
	}
	return ss, nil
}

// nullHandle reports whether SQLite returned no statement handle for ss. go-sqlite3 keeps
// the handle in the unexported field s and offers no way to ask; reflection may read (not
// use) it. TestNullHandleField fails if a go-sqlite3 upgrade renames the field.
func nullHandle(ss *sqlite3.SQLiteStmt) bool {
	f := reflect.ValueOf(ss).Elem().FieldByName(stmtHandleField)
	return f.IsValid() && f.Kind() == reflect.Pointer && f.IsNil()
}

// stmtHandleField is the name of go-sqlite3's *C.sqlite3_stmt field in SQLiteStmt.
const stmtHandleField = "s"

// CheckPrepares prepares query on one of db's connections (opened with a go-sqlite3
// driver) and closes it without running it: nil when SQLite can prepare it, else the
// error Query would give (ErrNULByte, ErrEmptyQuery, a *DBError, ...). For callers that
// keep their own connection, e.g. ETM's check that a query prepares.
func CheckPrepares(ctx context.Context, db *sql.DB, query string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", dbError(err))
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		if err := checkText(query); err != nil {
			return err
		}
		ss, err := prepareSQLite(c, query)
		if err != nil {
			return err
		}
		return ss.Close()
	})
}
