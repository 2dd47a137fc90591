package engine

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// TestPrepareEmptyOrNUL runs SQL that SQLite prepares to no statement (which crashed
// go-sqlite3 with a segmentation fault) and SQL holding a NUL byte, through Query and
// through CheckPrepares: each must come back as a clear error, never a crash.
func TestPrepareEmptyOrNUL(t *testing.T) {
	e := newEngine(t)
	db, err := sql.Open(driverName, ReadOnlyDSN(fixturePath))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tests := []struct {
		name  string
		query string
		want  error // nil: a *DBError of class syntax_error
	}{
		{"NUL alone", "\x00", ErrNULByte},
		{"NUL then newline", "\x00\n", ErrNULByte},
		{"NUL before a query", "\x00SELECT 1", ErrNULByte},
		{"NUL inside a query", "SELECT 1\x00junk", ErrNULByte},
		{"NUL hiding a second statement", "SELECT 1\x00; DROP TABLE t", ErrNULByte},
		// SQLite's white space run goes on over a vertical tab once it has started.
		{"CRs around a vertical tab", "\r\r\v\r", ErrEmptyQuery},
		{"comment then vertical tab", "-- c\n\v", ErrEmptyQuery},
		{"space then vertical tab", " \v", ErrEmptyQuery},
		{"empty", "", ErrEmptyQuery},
		// A vertical tab that starts the text is not white space to SQLite.
		{"vertical tab alone", "\v", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, qerr := e.Query(context.Background(), fixturePath, tc.query, Limits{})
			perr := CheckPrepares(context.Background(), db, tc.query)
			for _, err := range []error{qerr, perr} {
				if tc.want != nil {
					if !errors.Is(err, tc.want) {
						t.Errorf("err = %v, want %v", err, tc.want)
					}
					continue
				}
				var dbe *DBError
				if !errors.As(err, &dbe) || dbe.Class != ClassSyntax {
					t.Errorf("err = %v, want a syntax error", err)
				}
			}
		})
	}
	if err := CheckPrepares(context.Background(), db, "SELECT id FROM t"); err != nil {
		t.Errorf("CheckPrepares(valid query) = %v", err)
	}
}

// TestNullHandleField fails when go-sqlite3 no longer keeps its statement handle in the
// field nullHandle reads, which would silently disable the guard against its crash.
func TestNullHandleField(t *testing.T) {
	f, ok := reflect.TypeOf(sqlite3.SQLiteStmt{}).FieldByName(stmtHandleField)
	if !ok || f.Type.Kind() != reflect.Pointer {
		t.Fatalf("go-sqlite3's SQLiteStmt has no pointer field %q: update nullHandle", stmtHandleField)
	}
}
