package spidersql

import (
	"errors"
	"fmt"
)

// ErrParse is returned (wrapped) for every input process_sql would reject. The more
// specific sentinels below wrap it, so errors.Is(err, ErrParse) holds for all of them.
var ErrParse = errors.New("spider sql parse error")

var (
	// ErrEmpty: the query has no tokens.
	ErrEmpty = fmt.Errorf("%w: empty query", ErrParse)
	// ErrQuote: an odd number of quote characters (process_sql: "Unexpected quote").
	ErrQuote = fmt.Errorf("%w: unbalanced quotes", ErrParse)
	// ErrUnknownTable: a table name or alias that is not in the schema.
	ErrUnknownTable = fmt.Errorf("%w: unknown table", ErrParse)
	// ErrUnknownColumn: a column that is not in the schema (or not in any FROM table).
	ErrUnknownColumn = fmt.Errorf("%w: unknown column", ErrParse)
	// ErrSyntax: a token where process_sql expects another one, or the query ends early.
	ErrSyntax = fmt.Errorf("%w: syntax", ErrParse)
	// ErrTooDeep: subqueries nested deeper than maxDepth (Python would hit its recursion limit).
	ErrTooDeep = fmt.Errorf("%w: subqueries nested too deeply", ErrParse)
)
