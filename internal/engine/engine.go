package engine

import (
	"context"
	"errors"
	"time"
)

// Limits bound one query's execution.
type Limits struct {
	Timeout time.Duration // 0 means no timeout beyond ctx
	MaxRows int           // 0 means no cap; reading more rows than this fails with ErrRowLimit
	// MaxBytes caps the bytes a result holds (see resultBytes); a larger one fails with
	// ErrByteLimit while it is read. Unlike the others, 0 means DefaultMaxBytes, so that
	// no caller is unbounded by forgetting it; a negative value means no cap.
	MaxBytes int64
	// ReverseUnordered runs the query with SQLite's PRAGMA reverse_unordered_selects = 1
	// (every scan without an ORDER BY goes backwards), for the gold audit's
	// order-dependence check; the pragma is reset before the connection is reused. SQLite
	// only: other engines ignore it.
	ReverseUnordered bool
}

// DefaultTimeout is the per-query timeout when the user names none: every command's
// --timeout default, a matrix cell's evaluation and the pipelines' exec_timeout.
// It is a variable only so that a test binary can shorten it (the demo data has
// questions that run until the timeout, 30 s each at the default); nothing else
// assigns it.
var DefaultTimeout = 30 * time.Second

// DefaultMaxRows is the row cap of a query's result when the user names none: every
// command's --max-rows default for judging, a matrix cell's and two-pass's evaluation.
// A variable for the same reason as DefaultTimeout (a test binary may lower it to the
// demo's own cap); nothing else assigns it.
var DefaultMaxRows = 1_000_000

// DefaultMaxBytes is the byte cap of a result when Limits.MaxBytes is 0: 256 MiB.
const DefaultMaxBytes int64 = 256 << 20

// ByteCap is the cap MaxBytes stands for; 0 when there is none.
func (l Limits) ByteCap() int64 { return l.byteCap() }

func (l Limits) byteCap() int64 {
	switch {
	case l.MaxBytes == 0:
		return DefaultMaxBytes
	case l.MaxBytes < 0:
		return 0
	}
	return l.MaxBytes
}

// Engine runs one read-only query against a database named by db (a file path for SQLite).
type Engine interface {
	Query(ctx context.Context, db, query string, lim Limits) (*Result, error)
	Close() error
}

// withTimeout bounds ctx by d; d <= 0 means no bound beyond ctx's own.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// Sentinel errors. Errors reported by the database itself are returned wrapped in
// *DBError, with the engine's own message.
var (
	ErrTimeout  = errors.New("query timed out")
	ErrRowLimit = errors.New("result exceeds the row limit")
	// ErrByteLimit: the result's values exceed Limits.MaxBytes. It matches ErrRowLimit
	// too (errors.Is), so a result too large in bytes is handled, and categorised
	// (row_limit), like one with too many rows; its message says bytes.
	ErrByteLimit          error = &limitError{msg: "result exceeds the byte limit"}
	ErrNotReadOnly              = errors.New("statement would modify the database; refused")
	ErrMultipleStatements       = errors.New("several statements in one query; only one may be executed")
	ErrEmptyQuery               = errors.New("empty query")
	// ErrNULByte: the query holds a NUL byte; refused before it reaches any engine (see
	// prepare.go for why this is a syntax error and not an empty query).
	ErrNULByte = errors.New("query contains a NUL byte")
	// ErrSQLTooLong: the query's text is over MaxSQLBytes (prepare.go); refused before
	// any engine prepares it.
	ErrSQLTooLong = errors.New("query text is too long")
	ErrNoDatabase = errors.New("database file not found")
)

// DBError is an error the database engine reported for a query (syntax errors, unknown
// tables, and so on). Message is the engine's own text, e.g. "no such column: x" or
// "relation \"x\" does not exist (SQLSTATE 42P01)"; Class is what kind of error it is,
// read from the engine's error code (servers) or message (SQLite), so callers never
// parse an engine's wording.
type DBError struct {
	Message string
	Class   ErrorClass
}

// ErrorClass is the kind of a DBError; ClassOther when none of the others applies.
type ErrorClass string

// Error classes. They mirror the NL2SQLBench paper's error types that a database tells
// apart; timeouts and row caps are the sentinel errors ErrTimeout and ErrRowLimit.
const (
	ClassOther      ErrorClass = ""
	ClassNoTable    ErrorClass = "no_such_table"
	ClassNoColumn   ErrorClass = "no_such_column"
	ClassNoFunction ErrorClass = "no_such_function"
	ClassSyntax     ErrorClass = "syntax_error"
)

func (e *DBError) Error() string { return e.Message }
