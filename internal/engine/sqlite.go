package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/mattn/go-sqlite3"
)

// driverName is a go-sqlite3 driver whose every connection is also set to query_only,
// a second lock on top of opening files with mode=ro, and carries readOnlyAuthorizer.
const driverName = "sqlite3_nl2sqlbench_readonly"

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			if _, err := c.Exec("PRAGMA query_only = 1", nil); err != nil {
				return err
			}
			c.RegisterAuthorizer(readOnlyAuthorizer)
			return nil
		},
	})
}

// readOnlyAuthorizer refuses, when a statement is prepared, what sqlite3_stmt_readonly lets
// through because it writes no database file yet changes the pooled connection or the disk:
// ATTACH (which creates a missing file, opened read-write) and DETACH, transaction control
// (BEGIN would leave a transaction open for the next query) and PRAGMAs that set a value
// (PRAGMA query_only = 0, writable_schema = 1). A PRAGMA whose argument names a table or
// index only reads, and stays allowed.
func readOnlyAuthorizer(op int, arg1, arg2, _ string) int {
	switch op {
	case sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH, sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT:
		return sqlite3.SQLITE_DENY
	case sqlite3.SQLITE_PRAGMA:
		if arg2 != "" && !namePragmas[strings.ToLower(arg1)] {
			return sqlite3.SQLITE_DENY
		}
	}
	return sqlite3.SQLITE_OK
}

// namePragmas take a table or index name (or a row count) as argument and change nothing.
var namePragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_info": true, "index_xinfo": true,
	"index_list": true, "foreign_key_list": true, "foreign_key_check": true, "integrity_check": true,
	"quick_check": true,
}

// SQLite runs queries on SQLite database files, opened read-only. It keeps one pool of
// connections per file, so a run that executes thousands of queries opens each database
// once. It is safe for concurrent use.
type SQLite struct {
	// MaxConnsPerDB caps the open connections per database file (default 4).
	MaxConnsPerDB int

	mu  sync.Mutex
	dbs map[string]*sql.DB
	ran ranSet // texts Query ran without error (Ran)
}

var _ Engine = (*SQLite)(nil)

// NewSQLite returns an SQLite engine.
func NewSQLite() *SQLite { return &SQLite{dbs: map[string]*sql.DB{}} }

// Close closes every database the engine opened.
func (s *SQLite) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for p, db := range s.dbs {
		if err := db.Close(); err != nil && first == nil {
			first = fmt.Errorf("close database %s: %w", p, err)
		}
		delete(s.dbs, p)
	}
	return first
}

func (s *SQLite) open(path string) (*sql.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dbs == nil {
		s.dbs = map[string]*sql.DB{}
	}
	if db, ok := s.dbs[path]; ok {
		return db, nil
	}
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		// A fault, not a query error: callers locate the file before they query it, so
		// it went away (or became unreadable) since.
		return nil, &FaultError{Op: "cannot open sqlite database", Err: fmt.Errorf("%w: %s", ErrNoDatabase, path)}
	}
	db, err := sql.Open(driverName, ReadOnlyDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	n := s.MaxConnsPerDB
	if n <= 0 {
		n = 4
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	s.dbs[path] = db
	return db, nil
}

// SQLiteURI names the SQLite file at path as a URI with the given query parameters
// (e.g. "mode=ro"), escaping the characters URIs reserve so that any file name works.
func SQLiteURI(path, params string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?" + params
}

// ReadOnlyDSN is the URI every read-only opening of a benchmark database uses: mode=ro and
// query_only, plus immutable=1 when the file is at rest (settled).
//
// immutable=1 tells SQLite that nothing will change the file while it is open, so it takes
// no file locks and does not re-check the file (stat for a hot journal, read of the change
// counter) at the start of every read transaction: on a Spider run that is about 24,000
// system calls fewer and 5-10% less time. The answers are the same as with mode=ro as long
// as the file does not change during the run, which a benchmark database must not do (the
// manifest's --hash-dbs checks it). A database with a -wal or -journal file beside it may be
// mid-write, or hold committed rows in the WAL that immutable=1 would not read: it is
// opened without immutable, as before.
func ReadOnlyDSN(path string) string {
	if settled(path) {
		return SQLiteURI(path, "mode=ro&immutable=1&_query_only=1")
	}
	return SQLiteURI(path, "mode=ro&_query_only=1")
}

// settled reports whether no write-ahead log or rollback journal sits beside the database
// file at path (either means another connection may be writing it, or has written rows the
// main file does not hold yet).
func settled(path string) bool {
	for _, suffix := range []string{"-wal", "-journal"} {
		if _, err := os.Lstat(path + suffix); !errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	return true
}

// Query executes one read-only statement on the database file at path. The statement
// is prepared first and refused unless SQLite says it cannot write (sqlite3_stmt_readonly);
// the connection is also read-only twice over, so a database file is never modified.
// The timeout interrupts SQLite itself (sqlite3_interrupt), so a runaway query stops
// using CPU as soon as it expires.
func (s *SQLite) Query(ctx context.Context, path, query string, lim Limits) (*Result, error) {
	first, err := singleStatement(query)
	if err != nil {
		return nil, err
	}
	db, err := s.open(path)
	if err != nil {
		return nil, err
	}
	qctx, cancel := withTimeout(ctx, lim.Timeout)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		// Opening runs SQLite's first read: a file that is not a database fails here.
		return nil, fmt.Errorf("connect %s: %w", path, openError(path, dbError(err)))
	}
	defer conn.Close()
	if err := ensureHeapLimit(lim.byteCap()); err != nil {
		return nil, err
	}
	var res *Result
	err = gated(qctx, func() error {
		return conn.Raw(func(dc any) (rerr error) {
			c, ok := dc.(*sqlite3.SQLiteConn)
			if !ok {
				return fmt.Errorf("unexpected driver connection %T", dc)
			}
			if lim.ReverseUnordered {
				if err := setReverseUnordered(c, true); err != nil {
					return err
				}
				defer func() {
					if err := setReverseUnordered(c, false); err != nil {
						rerr = driver.ErrBadConn // database/sql drops the connection
					}
				}()
			}
			var qerr error
			res, qerr = runRaw(qctx, c, first, lim.MaxRows, lim.byteCap())
			return qerr
		})
	})
	if err != nil {
		return nil, queryError(ctx, qctx, err)
	}
	s.ran.add(path, query)
	return res, nil
}

// setReverseUnordered sets PRAGMA reverse_unordered_selects on a connection the caller
// holds exclusively. The read-only authorizer refuses every PRAGMA that sets a value (so
// that no user query changes a pooled connection); it is lifted for this one statement
// of ours and put back at once.
func setReverseUnordered(c *sqlite3.SQLiteConn, on bool) error {
	v := "0"
	if on {
		v = "1"
	}
	c.RegisterAuthorizer(nil)
	defer c.RegisterAuthorizer(readOnlyAuthorizer)
	if _, err := c.Exec("PRAGMA reverse_unordered_selects = "+v, nil); err != nil {
		return fmt.Errorf("set reverse_unordered_selects: %w", err)
	}
	return nil
}

// runRaw prepares and steps the statement on the raw driver connection. Going below
// database/sql lets us (1) ask SQLite whether the statement is read-only before running it
// and (2) switch off go-sqlite3's conversion of DATE/DATETIME/TIMESTAMP and BOOLEAN columns
// into time.Time and bool: the reference tools see the stored text and integers, and so
// must we (a text that fails to parse as a date would otherwise become the zero time).
//
// maxBytes (0: none) bounds the result while it is read, twice: SQLite's own length limit
// (SQLITE_LIMIT_LENGTH) stops a single value larger than the cap before SQLite allocates
// it (SELECT zeroblob(999000000) never reaches Go memory), and the values' bytes are
// added up row by row. The length limit also applies to values computed on the way
// (a group_concat over the cap fails even if only its length is selected).
func runRaw(ctx context.Context, c *sqlite3.SQLiteConn, query string, maxRows int, maxBytes int64) (*Result, error) {
	if err := checkText(query); err != nil {
		return nil, err
	}
	// SQLite's own cap on the text it prepares, as checkText's (the connection is pooled
	// with nothing looser).
	c.SetLimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MaxSQLBytes)
	ss, err := prepareSQLite(c, query) // never a NULL statement: see prepare.go
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	if !ss.Readonly() {
		return nil, ErrNotReadOnly
	}
	if maxBytes > 0 {
		prev := c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, int(min(maxBytes, math.MaxInt32)))
		defer c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, prev) // the connection is pooled
	}
	tooBig := func(err error) error {
		var se sqlite3.Error
		if errors.As(err, &se) && se.Code == sqlite3.ErrTooBig {
			return byteLimitError(maxBytes)
		}
		if errors.As(err, &se) && se.Code == sqlite3.ErrNomem {
			return errHeapLimit // sqlite_heap.go: run again alone before it is the statement's
		}
		return dbError(err)
	}
	drows, err := ss.QueryContext(ctx, nil)
	if err != nil {
		return nil, tooBig(err)
	}
	defer drows.Close()
	rows := drows.(*sqlite3.SQLiteRows)
	decl := rows.DeclTypes()
	for i := range decl {
		decl[i] = "" // no driver-side type conversion: see the doc comment above
	}
	b := NewResultBuilder(rows.Columns())
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(dest); err != nil {
			if errors.Is(err, io.EOF) {
				return b.Result(), nil
			}
			return nil, tooBig(err)
		}
		if maxRows > 0 && b.NumRows() >= maxRows {
			return nil, fmt.Errorf("%w (%d rows)", ErrRowLimit, maxRows)
		}
		for _, v := range dest {
			b.AppendValue(v) // copied: the driver reuses its buffers; an empty BLOB stays a blob
			if maxBytes > 0 && b.Bytes() > maxBytes {
				return nil, byteLimitError(maxBytes) // before the row's other values are copied
			}
		}
		if err := b.EndRow(); err != nil {
			return nil, err
		}
	}
}

// dbError turns go-sqlite3's error into a DBError carrying SQLite's own message, or
// passes context errors through.
func dbError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrInterrupt:
			return context.DeadlineExceeded
		case sqlite3.ErrCantOpen, sqlite3.ErrIoErr:
			// The file vanished or became unreadable while the run used it.
			return &FaultError{Op: "cannot read sqlite database", Err: err}
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			// The file is damaged or is not a database (overwritten during the run, or
			// never one): no query's verdict, gold or predicted, means anything on it.
			return &FaultError{Op: "sqlite database file is damaged or not a database", Err: err,
				Hint: "restore the database file (a benchmark database must not change during a run)"}
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			// Another process holds a write lock past the busy timeout (go-sqlite3's
			// default, 5 s, each try): says nothing about the query, so never a verdict.
			return &FaultError{Op: "sqlite database is locked by another process", Err: err,
				Hint: "end or commit the process writing the database (a benchmark database must not change during a run)"}
		}
		return &DBError{Message: err.Error(), Class: sqliteClass(err.Error())}
	}
	return &DBError{Message: err.Error(), Class: sqliteClass(err.Error())}
}

// sqliteClass reads the class of an error from SQLite's message: SQLite reports these
// errors all as SQLITE_ERROR, so its wording is the only thing that tells them apart
// ("no such table: t", "near \"FROM\": syntax error", "incomplete input",
// "unrecognized token").
func sqliteClass(msg string) ErrorClass {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "no such table"):
		return ClassNoTable
	case strings.Contains(m, "no such column"):
		return ClassNoColumn
	case strings.Contains(m, "no such function"):
		return ClassNoFunction
	case strings.Contains(m, "syntax error"), strings.Contains(m, "incomplete input"),
		strings.Contains(m, "unrecognized token"):
		return ClassSyntax
	}
	return ClassOther
}

// queryError says why a statement run under qctx (a child of ctx bounded by the
// timeout) failed: its own timeout, the caller's cancellation, or the database's error.
func queryError(ctx, qctx context.Context, err error) error {
	if qctx.Err() != nil && ctx.Err() == nil {
		return ErrTimeout
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
