package judge

import (
	"context"
	"errors"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Categorize maps an execution error to the NL2SQLBench error category: the engine
// classifies database errors (engine.DBError.Class) whatever engine ran the query.
func Categorize(err error) record.ErrorCategory {
	switch {
	case err == nil:
		return record.NoError
	case errors.Is(err, engine.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return record.Timeout
	case errors.Is(err, engine.ErrRowLimit):
		return record.RowLimit
	case errors.Is(err, engine.ErrNULByte):
		return record.SyntaxError // Python's sqlite3 refuses such a query: see engine/prepare.go
	}
	var dbe *engine.DBError
	if !errors.As(err, &dbe) {
		return record.Other
	}
	switch dbe.Class {
	case engine.ClassNoTable:
		return record.NoSuchTable
	case engine.ClassNoColumn:
		return record.NoSuchColumn
	case engine.ClassNoFunction:
		return record.NoSuchFunction
	case engine.ClassSyntax:
		return record.SyntaxError
	}
	return record.Other
}
