package sqlast

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// Features are the SQL characteristics of one query that results are sliced by
// (internal/slicing): what NL2SQL360 and similar studies split accuracy on. Counted
// over the whole statement, subqueries included.
type Features struct {
	Joins       int  // FROM items after the first (JOIN or comma), in every SELECT
	Nested      bool // a subquery anywhere (FROM, WHERE, SELECT, HAVING) or a CTE
	Aggregation bool // count/sum/avg/min/max/total/group_concat, not as a window
	GroupBy     bool
	Having      bool
	OrderLimit  bool // ORDER BY together with LIMIT in one SELECT (a top-k question)
	SetOp       bool // UNION, INTERSECT or EXCEPT
	Window      bool // a window function (OVER)
	Case        bool
	Like        bool // LIKE or GLOB
	DateTime    bool // SQLite's date and time functions or CURRENT_DATE/TIME/TIMESTAMP
	Arithmetic  bool // + - * / % in a SELECT's result columns
	Distinct    bool // SELECT DISTINCT or an aggregate over DISTINCT
}

var aggregates = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true, "total": true, "group_concat": true}

var dateTimeFuncs = map[string]bool{"date": true, "time": true, "datetime": true, "julianday": true,
	"strftime": true, "unixepoch": true, "timediff": true}

// Features reads the query's characteristics from its syntax tree.
func (q *Query) Features() Features {
	var f Features
	depth := 0 // SELECT statements seen: a second one is a subquery, a CTE or a set operand
	ast.Walk(q.stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			depth++
			if depth > 1 {
				f.Nested = true
			}
			if len(n.Ops) > 0 {
				f.SetOp = true
			}
			if n.With != nil {
				f.Nested = true
			}
		case *ast.SelectQuery:
			f.selectQuery(n)
		case *ast.FuncCall:
			name := strings.ToLower(n.Name.Name)
			switch {
			case n.Over != nil:
				f.Window = true
			case aggregates[name] && (len(n.Args) <= 1 || name == "group_concat"):
				f.Aggregation = true
			}
			if dateTimeFuncs[name] {
				f.DateTime = true
			}
			if n.Distinct {
				f.Distinct = true
			}
		case *ast.Literal:
			if n.Kind == ast.LitCurrentDate || n.Kind == ast.LitCurrentTime || n.Kind == ast.LitCurrentTimestamp {
				f.DateTime = true
			}
		case *ast.CaseExpr:
			f.Case = true
		case *ast.LikeExpr:
			if op := strings.ToLower(n.Op.Name); op == "like" || op == "glob" {
				f.Like = true
			}
		}
		return true
	})
	return f
}

func (f *Features) selectQuery(s *ast.SelectQuery) {
	f.Joins += joins(s.From)
	f.GroupBy = f.GroupBy || len(s.GroupBy) > 0
	f.Having = f.Having || s.Having != nil
	f.OrderLimit = f.OrderLimit || (len(s.OrderBy) > 0 && s.Limit != nil)
	f.Distinct = f.Distinct || s.Distinct == ast.DistinctDistinct
	f.Window = f.Window || len(s.Windows) > 0
	for _, c := range s.Columns {
		if c.Expr != nil && hasArithmetic(c.Expr) {
			f.Arithmetic = true
		}
	}
}

// joins counts the FROM items after the first, parenthesised lists included.
func joins(items []*ast.TableRef) int {
	n := 0
	for i, it := range items {
		if i > 0 {
			n++
		}
		n += joins(it.List)
	}
	return n
}

// hasArithmetic reports a binary + - * / % in e outside its subqueries.
func hasArithmetic(e ast.Expr) bool {
	found := false
	ast.Walk(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case ast.OpAdd, ast.OpSub, ast.OpMul, ast.OpDiv, ast.OpMod:
				found = true
			}
		}
		return !found
	})
	return found
}
