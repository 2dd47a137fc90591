package sqlast

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// expr resolves every column reference inside e.
func (r *resolver) expr(e ast.Expr, sc *scope, env *ctes) {
	switch n := e.(type) {
	case nil:
	case *ast.Ident:
		if n != nil {
			r.name(n, sc)
		}
	case *ast.QualifiedRef:
		if n != nil {
			r.qualified(n, sc)
		}
	case *ast.Literal, *ast.BindParam, *ast.Star:
	case *ast.BinaryExpr:
		r.expr(n.X, sc, env)
		r.expr(n.Y, sc, env)
	case *ast.UnaryExpr:
		r.expr(n.X, sc, env)
	case *ast.ParenExpr:
		r.expr(n.X, sc, env)
	case *ast.LikeExpr:
		r.expr(n.X, sc, env)
		r.expr(n.Y, sc, env)
		r.expr(n.Escape, sc, env)
	case *ast.IsExpr:
		r.expr(n.X, sc, env)
		r.expr(n.Y, sc, env)
	case *ast.NullCheckExpr:
		r.expr(n.X, sc, env)
	case *ast.BetweenExpr:
		r.expr(n.X, sc, env)
		r.expr(n.Lo, sc, env)
		r.expr(n.Hi, sc, env)
	case *ast.InExpr:
		r.expr(n.X, sc, env)
		for _, x := range n.List {
			r.expr(x, sc, env)
		}
		r.selectStmt(n.Select, sc, env)
		if n.Table != nil && n.Table.Name != nil {
			// "x IN t": t's single column is compared, so all of t is used.
			src := r.tableSource(n.Table.Name.Name, n.Table.Schema == nil, env)
			if !src.opaque {
				for _, a := range src.all() {
					r.use([]colKey{a})
				}
			}
		}
		for _, x := range n.Args {
			r.expr(x, sc, env)
		}
	case *ast.CaseExpr:
		r.expr(n.Operand, sc, env)
		for _, w := range n.Whens {
			if w != nil {
				r.expr(w.When, sc, env)
				r.expr(w.Then, sc, env)
			}
		}
		r.expr(n.Else, sc, env)
	case *ast.CastExpr:
		r.expr(n.X, sc, env)
	case *ast.CollateExpr:
		r.expr(n.X, sc, env)
	case *ast.FuncCall:
		// COUNT(*) has Star set and no arguments: it uses no column.
		for _, a := range n.Args {
			r.expr(a, sc, env)
		}
		for _, t := range n.OrderBy {
			if t != nil {
				r.expr(t.Expr, sc, env)
			}
		}
		r.expr(n.Filter, sc, env)
		r.window(n.Over, sc, env)
	case *ast.ExistsExpr:
		r.selectStmt(n.Select, sc, env)
	case *ast.SubqueryExpr:
		r.selectStmt(n.Select, sc, env)
	case *ast.VectorExpr:
		for _, x := range n.List {
			r.expr(x, sc, env)
		}
	case *ast.RaiseExpr:
		r.expr(n.Message, sc, env)
	default:
		// A syntax form added to the parser later: still visit what it holds.
		for _, c := range e.Children() {
			switch c := c.(type) {
			case *ast.SelectStmt:
				r.selectStmt(c, sc, env)
			case ast.Expr:
				r.expr(c, sc, env)
			}
		}
	}
}

// implicitRowid reports SQLite's implicit row-id names, which every ordinary table has
// without declaring them.
func implicitRowid(name string) bool {
	switch strings.ToLower(name) {
	case "rowid", "oid", "_rowid_":
		return true
	}
	return false
}

// name resolves an unqualified column name, innermost scope first: the FROM sources of
// a scope, then its result aliases, then the next scope out.
func (r *resolver) name(id *ast.Ident, sc *scope) {
	name := id.Name
	lower := strings.ToLower(name)
	functionSource := false // a table-valued function in scope may provide any column
	unknownSource := false
	for s := sc; s != nil; s = s.parent {
		var hit []colKey
		hits := 0
		for _, src := range s.sources {
			if src.opaque {
				functionSource = functionSource || !src.unknown
				unknownSource = unknownSource || src.unknown
				continue
			}
			if src.merged[lower] {
				continue
			}
			if l, ok := src.columns(name); ok {
				hits++
				hit = l
			}
		}
		switch {
		case hits == 1:
			r.use(hit)
			return
		case hits > 1:
			r.ambiguous[name] = true
			return
		}
		if a, ok := s.alias(name); ok {
			r.use(a.lineage)
			return
		}
		for _, c := range s.compound {
			if strings.EqualFold(c, name) {
				return
			}
		}
	}
	switch {
	case functionSource:
		return
	case id.Quote == ast.QuoteDouble || id.Quote == ast.QuoteSingle:
		// SQLite's fallback: a quoted word that names no column is a string.
		return
	case lower == "true" || lower == "false":
		return // SQLite reads them as 1 and 0 when no column has the name
	case implicitRowid(name) && sc != nil && len(sc.sources) > 0:
		return
	}
	_ = unknownSource // an unknown table may hold the column, but nothing says it does
	r.unresolved[name] = true
}

// qualified resolves t.c (or schema.t.c): t is the innermost FROM source of that name.
func (r *resolver) qualified(q *ast.QualifiedRef, sc *scope) {
	if len(q.Parts) < 2 {
		return
	}
	col := q.Parts[len(q.Parts)-1].Name
	tab := q.Parts[len(q.Parts)-2].Name
	ref := tab + "." + col
	src := sc.source(tab)
	switch {
	case src == nil:
		r.unresolved[ref] = true
		return
	case src.opaque:
		if src.unknown {
			r.unresolved[ref] = true
		}
		return
	}
	if l, ok := src.columns(col); ok {
		r.use(l)
		return
	}
	if src.table != nil && implicitRowid(col) {
		return
	}
	r.unresolved[ref] = true
}
