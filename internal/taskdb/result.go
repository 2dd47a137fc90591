package taskdb

import (
	"errors"
	"time"
)

// Result is what the last statement of one Exec returned.
type Result struct {
	// HasRows: the statement returns rows (a SELECT, or INSERT ... RETURNING), even none.
	// A statement without (UPDATE, CREATE TABLE) has HasRows false and no Columns, which
	// is what psycopg2's fetch raises ProgrammingError for.
	HasRows bool
	Columns []Column
	// Rows holds at most ExecLimits.KeepRows rows. A PostgreSQL cell is the server's text
	// form (nil for NULL, a bytea in its hex text form); an SQLite cell is nil, int64,
	// float64, string or []byte, as SQLite stored it.
	Rows      [][]any
	TotalRows int    // rows the statement returned, kept or not
	Tag       string // PostgreSQL's command tag ("UPDATE 3"); empty for SQLite
}

// Column is a result column: its name and its type as the database names it
// (PostgreSQL's pg_type name such as "int4", "numeric", "_text"; SQLite's declared type).
type Column struct {
	Name string
	Type string
	OID  uint32 // PostgreSQL's type OID; 0 for SQLite
}

// ExecLimits bound one Exec.
type ExecLimits struct {
	Timeout  time.Duration // per statement on the server, and the whole Exec by context; 0: none
	KeepRows int           // rows kept of the last result; 0: all
	MaxBytes int64         // bytes of text read over all results; 0: DefaultMaxBytes
}

// DefaultMaxBytes is the byte cap of one Exec when ExecLimits.MaxBytes is 0: 256 MiB.
const DefaultMaxBytes int64 = 256 << 20

func (l ExecLimits) maxBytes() int64 {
	if l.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return l.MaxBytes
}

// Sentinel errors.
var (
	// ErrTimeout: the statement ran past ExecLimits.Timeout (statement_timeout, SQLSTATE
	// 57014, or the context's deadline). The official evaluator counts it apart.
	ErrTimeout = errors.New("statement timed out")
	// ErrTooLarge: the result read exceeds ExecLimits.MaxBytes.
	ErrTooLarge = errors.New("result exceeds the byte limit")
	// ErrConnection: the connection to the server failed; it says nothing about the SQL.
	ErrConnection = errors.New("database connection failed")
	// ErrNoCreateDB: the role may not create databases.
	ErrNoCreateDB = errors.New("role may not create databases (grant CREATEDB)")
	// ErrRoleChanged: a session on a copy starts with settings that the run did not begin
	// with: a role default (ALTER ROLE ... SET) or a default for the copy alone (ALTER
	// DATABASE / ALTER ROLE ... IN DATABASE), set by a statement that reached beyond its own
	// copy. Judging on goes on with other settings than the run's, so it stops instead.
	ErrRoleChanged = errors.New("the role's session settings changed during the run (ALTER ROLE or ALTER DATABASE ... SET): a statement reached beyond its copy")
)

// SQLError is an error the database reported for the SQL (a syntax error, a missing
// table, a constraint violation): what the official evaluator calls an execution error.
type SQLError struct {
	Code    string // SQLSTATE (PostgreSQL); SQLite's extended code as text
	Message string
}

func (e *SQLError) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return e.Message + " (SQLSTATE " + e.Code + ")"
}
