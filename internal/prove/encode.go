package prove

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

type exprNode = ast.Expr

// encoder evaluates queries symbolically over the bounded base tables.
type encoder struct {
	e       *emitter
	s       *Schema
	k       int
	base    []*relation          // per schema table: k symbolic rows
	texts   map[string]string    // text literal -> its symbol (Int term)
	ctes    map[string]*relation // WITH tables in scope (lowercased names)
	likes   map[string]string    // canonical LIKE pattern -> its predicate (like.go)
	numeric bool                 // isnum and numval are declared (affinity.go)
}

// result is a query's output: its rows and whether their order is defined (ORDER BY).
type result struct {
	rel     *relation
	ordered bool
}

// stmt evaluates a SELECT statement (compound or not) in the environment outer.
func (en *encoder) stmt(st *ast.SelectStmt, outer *env) (*result, error) {
	if st == nil || len(st.Cores) == 0 {
		return nil, unsupported("empty select")
	}
	if st.With != nil {
		if st.With.Recursive {
			return nil, unsupported("WITH RECURSIVE")
		}
		saved := en.ctes
		en.ctes = map[string]*relation{}
		for k, v := range saved {
			en.ctes[k] = v
		}
		defer func() { en.ctes = saved }()
		for _, c := range st.With.CTEs {
			r, err := en.stmt(c.Select, outer)
			if err != nil {
				return nil, err
			}
			rel := r.rel
			if len(c.Columns) > 0 {
				if len(c.Columns) != len(rel.cols) {
					return nil, unsupported("CTE column count")
				}
				rel = &relation{cols: append([]colName(nil), rel.cols...), kinds: rel.kinds, rows: rel.rows}
				for i, id := range c.Columns {
					rel.cols[i] = colName{name: strings.ToLower(id.Name)}
				}
			}
			en.ctes[strings.ToLower(c.Name.Name)] = rel
		}
	}
	last := len(st.Cores) - 1
	var order []*ast.OrderingTerm
	var limit *ast.Limit
	cores := make([]*ast.SelectQuery, len(st.Cores))
	for i, c := range st.Cores {
		q, ok := c.(*ast.SelectQuery)
		if !ok {
			return nil, unsupported("VALUES")
		}
		if i < last && (q.OrderBy != nil || q.Limit != nil) {
			return nil, unsupported("ORDER BY inside a compound")
		}
		cores[i] = q
	}
	order, limit = cores[last].OrderBy, cores[last].Limit
	if len(st.Cores) == 1 {
		rel, keys, err := en.core(cores[0], outer, order)
		if err != nil {
			return nil, err
		}
		return en.orderLimit(rel, keys, order, limit, outer)
	}
	rel, _, err := en.core(cores[0], outer, nil)
	if err != nil {
		return nil, err
	}
	for i, op := range st.Ops {
		r, _, err := en.core(cores[i+1], outer, nil)
		if err != nil {
			return nil, err
		}
		if rel, err = en.compound(op, rel, r); err != nil {
			return nil, err
		}
	}
	// ORDER BY of a compound names output columns (by position or name).
	var keys [][]value
	if len(order) > 0 {
		for _, row := range rel.rows {
			var ks []value
			for _, o := range order {
				i, err := outputIndex(o.Expr, rel)
				if err != nil {
					return nil, err
				}
				ks = append(ks, row.vals[i])
			}
			keys = append(keys, ks)
		}
	}
	return en.orderLimit(rel, keys, order, limit, outer)
}

// outputIndex resolves an ORDER BY term of a compound: a 1-based position or an output
// column's name.
func outputIndex(x ast.Expr, rel *relation) (int, error) {
	switch t := x.(type) {
	case *ast.Literal:
		if t.Kind == ast.LitInteger {
			n := atoi(t.Value)
			if n >= 1 && n <= len(rel.cols) {
				return n - 1, nil
			}
		}
	case *ast.Ident:
		for i, c := range rel.cols {
			if c.name == strings.ToLower(t.Name) {
				return i, nil
			}
		}
	}
	return 0, unsupported("compound ORDER BY term")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<20 {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// compound combines two relations as SQLite does: rows compared with NULLs equal.
func (en *encoder) compound(op ast.CompoundOp, a, b *relation) (*relation, error) {
	if len(a.cols) != len(b.cols) {
		return nil, unsupported("compound of different widths")
	}
	kinds := make([]Kind, len(a.kinds))
	for i := range kinds {
		k, err := compatible(value{k: a.kinds[i]}, value{k: b.kinds[i]})
		if err != nil {
			return nil, err
		}
		kinds[i] = k
	}
	// A compound's column has one affinity in SQLite, chosen among its arms' by rules
	// this encoding does not track: its values compare as affUnknown.
	a, b = untracked(a), untracked(b)
	out := &relation{cols: a.cols, kinds: kinds}
	switch strings.ToUpper(op.Op) {
	case "UNION":
		out.rows = append(append(out.rows, a.rows...), b.rows...)
		if !op.All {
			out = en.distinct(out)
		}
	case "INTERSECT", "EXCEPT":
		if op.All {
			return nil, unsupported("%s ALL", op.Op)
		}
		keep := op.Op == "INTERSECT" || strings.ToUpper(op.Op) == "INTERSECT"
		d := en.distinct(&relation{cols: a.cols, kinds: kinds, rows: a.rows})
		for _, r := range d.rows {
			var in []string
			for _, s := range b.rows {
				in = append(in, and(s.ex, en.rowEq(r.vals, s.vals)))
			}
			inB := en.e.def("Bool", or(in...))
			if !keep {
				inB = not(inB)
			}
			out.rows = append(out.rows, tuple{ex: en.e.def("Bool", and(r.ex, inB)), vals: r.vals})
		}
	default:
		return nil, unsupported("compound %s", op.Op)
	}
	return out, nil
}

// distinct keeps the first present row of each class of equal rows (NULLs equal).
func (en *encoder) distinct(r *relation) *relation {
	out := &relation{cols: r.cols, kinds: r.kinds}
	for i, t := range r.rows {
		var dup []string
		for j := 0; j < i; j++ {
			dup = append(dup, and(r.rows[j].ex, en.rowEq(r.rows[j].vals, t.vals)))
		}
		out.rows = append(out.rows, tuple{ex: en.e.def("Bool", and(t.ex, not(or(dup...)))), vals: t.vals, rank: t.rank})
	}
	return out
}

// same is null-safe equality of two values (IS): both NULL, or both not and equal.
func (en *encoder) same(a, b value) string {
	if a.null == "true" && b.null == "true" {
		return "true"
	}
	eq := "(= " + a.v + " " + b.v + ")"
	if a.k == kindNull || b.k == kindNull {
		eq = "true"
	}
	return en.e.def("Bool", or(and(a.null, b.null), and(not(a.null), not(b.null), eq)))
}

func (en *encoder) rowEq(a, b []value) string {
	var xs []string
	for i := range a {
		xs = append(xs, en.same(a[i], b[i]))
	}
	return en.e.def("Bool", and(xs...))
}

// untracked is r with every value's affinity (and literal text) forgotten.
func untracked(r *relation) *relation {
	out := &relation{cols: r.cols, kinds: r.kinds}
	for _, t := range r.rows {
		vals := make([]value, len(t.vals))
		for i, v := range t.vals {
			v.aff, v.tsym = affUnknown, ""
			vals[i] = v
		}
		t.vals = vals
		out.rows = append(out.rows, t)
	}
	return out
}
