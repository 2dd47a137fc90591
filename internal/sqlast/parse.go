package sqlast

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/sqlc-dev/meyer/ast"
	"github.com/sqlc-dev/meyer/parser"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// Sentinel errors.
var (
	// ErrParse: the text is not one SQLite statement.
	ErrParse = errors.New("sql parse error")
	// ErrNotSelect: the statement parses but is not a query (INSERT, CREATE, ...), so it
	// has no schema use to extract.
	ErrNotSelect = errors.New("not a SELECT statement")
)

// Query is one parsed SQL statement.
type Query struct {
	sql  string
	stmt ast.Stmt
}

// Parse parses exactly one SQLite statement (a trailing semicolon is allowed). Errors
// wrap ErrParse and carry the parser's message with its line:column. A text over
// sqlscan.MaxAnalysed bytes is not parsed: its error wraps ErrParse and sqlscan.ErrTooLong
// (the tree would cost hundreds of bytes of memory per byte of SQL).
func Parse(sql string) (q *Query, err error) {
	if err := sqlscan.TooLong(sql); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrParse, err)
	}
	if strings.TrimSpace(strings.Trim(strings.TrimSpace(sql), ";")) == "" {
		return nil, fmt.Errorf("%w: empty query", ErrParse)
	}
	// The parser reports bad input by its own panic/recover; anything else escaping it
	// is a parser bug, which must still not take the caller down.
	defer func() {
		if r := recover(); r != nil {
			q, err = nil, fmt.Errorf("%w: parser failed: %v", ErrParse, r)
		}
	}()
	stmts, perr := parser.ParseString(sql)
	if perr != nil {
		return nil, fmt.Errorf("%w: %s", ErrParse, perr.Error())
	}
	switch len(stmts) {
	case 0:
		return nil, fmt.Errorf("%w: empty query", ErrParse)
	case 1:
		if len(sql) > MaxDepth {
			if d := treeDepth(stmts[0], MaxDepth); d > MaxDepth {
				return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrParse, MaxDepth)
			}
		}
		return &Query{sql: sql, stmt: stmts[0]}, nil
	}
	return nil, fmt.Errorf("%w: %d statements, want exactly one", ErrParse, len(stmts))
}

// Kind names the statement: "select", "insert", "update", "delete", "createtable", ...
func (q *Query) Kind() string {
	t := reflect.TypeOf(q.stmt)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.ToLower(strings.TrimSuffix(t.Name(), "Stmt"))
}

// IsSelect reports whether the statement is a query (SELECT, VALUES, WITH ... SELECT).
func (q *Query) IsSelect() bool {
	_, ok := q.stmt.(*ast.SelectStmt)
	return ok
}
