package judge

import (
	"context"
	"errors"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Categorize maps an execution error to the NL2SQLBench error category. SQLite's own
// messages decide the schema and syntax categories ("no such table: t", "near \"FROM\":
// syntax error", "incomplete input", "unrecognized token").
func Categorize(err error) record.ErrorCategory {
	switch {
	case err == nil:
		return record.NoError
	case errors.Is(err, engine.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return record.Timeout
	case errors.Is(err, engine.ErrRowLimit):
		return record.RowLimit
	}
	var dbe *engine.DBError
	if !errors.As(err, &dbe) {
		return record.Other
	}
	m := strings.ToLower(dbe.Message)
	switch {
	case strings.Contains(m, "no such table"):
		return record.NoSuchTable
	case strings.Contains(m, "no such column"):
		return record.NoSuchColumn
	case strings.Contains(m, "no such function"):
		return record.NoSuchFunction
	case strings.Contains(m, "syntax error"), strings.Contains(m, "incomplete input"),
		strings.Contains(m, "unrecognized token"):
		return record.SyntaxError
	}
	return record.Other
}
