package sqlast

import "github.com/sqlc-dev/meyer/ast"

// Syntax returns the parser's syntax tree of the statement, for packages that compare
// query structure (internal/match's ETM) and need more than the schema use this package
// extracts. It is the one place the parser's types leak out: callers that use it accept
// that swapping the parser means changing them too. The tree must not be modified.
func (q *Query) Syntax() ast.Stmt { return q.stmt }
