package engine

import "github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"

// singleStatement is the one statement an engine that splits as SQLite does will run:
// query's text checked (checkText), refused when a second statement follows
// (ErrMultipleStatements) or when there is none (ErrEmptyQuery). The split knows SQLite's
// quoting and comments, so a semicolon inside them does not split; Python's sqlite3 module,
// which the official BIRD and Spider scripts use, refuses a second statement (even an
// empty one, "SELECT 1;;"), and so do we.
func singleStatement(query string) (string, error) {
	if err := checkText(query); err != nil {
		return "", err
	}
	first, more := sqlscan.FirstStatement(query)
	if more {
		return "", ErrMultipleStatements
	}
	if sqlscan.OnlyTrivia(first) {
		return "", ErrEmptyQuery
	}
	return first, nil
}
