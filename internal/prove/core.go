package prove

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// from evaluates a FROM clause into one relation (cross product, filtered by ON).
func (en *encoder) from(items []*ast.TableRef, outer *env) (*relation, error) {
	if len(items) == 0 { // SELECT without FROM: one row
		return &relation{rows: []tuple{{ex: "true"}}}, nil
	}
	var acc *relation
	for i, it := range items {
		r, err := en.item(it)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			if it.On != nil || len(it.Using) > 0 {
				return nil, unsupported("ON on the first table")
			}
			acc = r
			continue
		}
		jt := ast.JoinType(0)
		if it.Join != nil {
			jt = it.Join.Type
		}
		if jt&(ast.JoinNatural|ast.JoinRight) != 0 || len(it.Using) > 0 {
			return nil, unsupported("NATURAL, RIGHT or USING join")
		}
		if acc, err = en.join(acc, r, it.On, jt&ast.JoinLeft != 0, outer); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// item is one FROM item: a table, a WITH table or a subquery, named by its alias.
func (en *encoder) item(it *ast.TableRef) (*relation, error) {
	if it.HasArgs || len(it.List) > 0 {
		return nil, unsupported("table function or parenthesised join")
	}
	var r *relation
	var qual string
	switch {
	case it.Select != nil:
		res, err := en.stmt(it.Select, nil)
		if err != nil {
			return nil, err
		}
		r = res.rel
	case it.Name != nil:
		if it.Name.Schema != nil {
			return nil, unsupported("schema-qualified table")
		}
		qual = strings.ToLower(it.Name.Name.Name)
		if c, ok := en.ctes[qual]; ok {
			r = c
		} else if ti := en.s.table(qual); ti >= 0 {
			r = en.base[ti]
		} else {
			return nil, unsupported("table %s not in the schema", it.Name.Name.Name)
		}
	default:
		return nil, unsupported("FROM item")
	}
	if it.Alias != nil {
		qual = strings.ToLower(it.Alias.Name)
	}
	out := &relation{kinds: r.kinds, rows: r.rows}
	for _, c := range r.cols {
		out.cols = append(out.cols, colName{qual: qual, name: c.name})
	}
	return out, nil
}

// join is the product of a and b filtered by on; left keeps each a row without a match
// once, with NULLs for b's columns.
func (en *encoder) join(a, b *relation, on ast.Expr, left bool, outer *env) (*relation, error) {
	out := &relation{cols: append(append([]colName(nil), a.cols...), b.cols...), kinds: append(append([]Kind(nil), a.kinds...), b.kinds...)}
	for _, l := range a.rows {
		var matched []string
		for _, r := range b.rows {
			vals := append(append([]value(nil), l.vals...), r.vals...)
			cond := "true"
			if on != nil {
				t, err := en.truth(on, &env{cols: out.cols, vals: vals, outer: outer})
				if err != nil {
					return nil, err
				}
				cond = t.tr
			}
			m := en.e.def("Bool", and(l.ex, r.ex, cond))
			matched = append(matched, m)
			out.rows = append(out.rows, tuple{ex: m, vals: vals})
		}
		if left {
			vals := append([]value(nil), l.vals...)
			for _, k := range b.kinds {
				vals = append(vals, coerce(nullValue, k))
			}
			out.rows = append(out.rows, tuple{ex: en.e.def("Bool", and(l.ex, not(or(matched...)))), vals: vals})
		}
	}
	return out, nil
}

// core evaluates one SELECT core: its rows and, per row, the values of the ORDER BY
// terms (computed in the core's own scope, so they may name unselected columns or
// aggregates).
func (en *encoder) core(q *ast.SelectQuery, outer *env, order []*ast.OrderingTerm) (*relation, [][]value, error) {
	if len(q.Windows) > 0 {
		return nil, nil, unsupported("WINDOW")
	}
	in, err := en.from(q.From, outer)
	if err != nil {
		return nil, nil, err
	}
	aliases := map[string]aliasDef{}
	rowEnv := func(vals []value) *env {
		return &env{cols: in.cols, vals: vals, outer: outer, aliases: aliases}
	}
	// WHERE filters the input rows.
	rows := in.rows
	if q.Where != nil {
		rows = nil
		for _, t := range in.rows {
			w, err := en.truth(q.Where, rowEnv(t.vals))
			if err != nil {
				return nil, nil, err
			}
			rows = append(rows, tuple{ex: en.e.def("Bool", and(t.ex, w.tr)), vals: t.vals})
		}
	}
	agg := len(q.GroupBy) > 0 || q.Having != nil && hasAggregate(q.Having)
	for _, c := range q.Columns {
		agg = agg || hasAggregate(c.Expr)
	}
	for _, o := range order {
		agg = agg || hasAggregate(o.Expr)
	}
	if q.Having != nil && !agg {
		return nil, nil, unsupported("HAVING without aggregation")
	}
	// The output rows' environments: one per input row, or one per group.
	type outRow struct {
		ex string
		e  *env
	}
	var outs []outRow
	if !agg {
		for _, t := range rows {
			outs = append(outs, outRow{t.ex, rowEnv(t.vals)})
		}
	} else {
		groups, err := en.groups(q, in.cols, rows, outer, aliases)
		if err != nil {
			return nil, nil, err
		}
		for _, g := range groups {
			ge := &env{cols: in.cols, outer: outer, grp: g, aliases: aliases}
			ex := g.leader
			if q.Having != nil {
				h, err := en.truth(q.Having, ge)
				if err != nil {
					return nil, nil, err
				}
				ex = and(ex, h.tr)
			}
			outs = append(outs, outRow{en.e.def("Bool", ex), ge})
		}
	}
	// The SELECT list.
	out := &relation{}
	var exprs []ast.Expr
	var star []int // per output column: the input column a * expands to, or -1
	for _, c := range q.Columns {
		if st, ok := c.Expr.(*ast.Star); ok {
			for i, cn := range in.cols {
				if st.Table == nil || cn.qual == strings.ToLower(st.Table.Name) {
					out.cols = append(out.cols, colName{name: cn.name})
					out.kinds = append(out.kinds, in.kinds[i])
					exprs = append(exprs, nil)
					star = append(star, i)
				}
			}
			continue
		}
		name := exprName(c)
		out.cols = append(out.cols, colName{name: name})
		exprs = append(exprs, c.Expr)
		star = append(star, -1)
		if c.Alias != nil {
			aliases[name] = aliasDef{e: c.Expr}
		}
	}
	if len(exprs) == 0 {
		return nil, nil, unsupported("no output column")
	}
	var keys [][]value
	for ri, o := range outs {
		t := tuple{ex: o.ex}
		for i, x := range exprs {
			var v value
			var err error
			if star[i] >= 0 {
				v, err = o.e.at(star[i])
			} else {
				v, err = en.value(x, o.e)
			}
			if err != nil {
				return nil, nil, err
			}
			t.vals = append(t.vals, v)
			if ri == 0 {
				out.kinds = append(out.kinds, v.k)
			} else if k, err := compatible(value{k: out.kinds[i]}, v); err != nil {
				return nil, nil, err
			} else {
				out.kinds[i] = k
			}
		}
		out.rows = append(out.rows, t)
		if len(order) > 0 {
			var ks []value
			for _, ot := range order {
				v, err := en.orderValue(ot.Expr, o.e, t.vals, out)
				if err != nil {
					return nil, nil, err
				}
				ks = append(ks, v)
			}
			keys = append(keys, ks)
		}
	}
	if len(outs) == 0 { // kinds of an empty FROM product: from the expressions' syntax
		return nil, nil, unsupported("empty relation")
	}
	if q.Distinct == ast.DistinctDistinct {
		d := en.distinct(out)
		out = d
	}
	return out, keys, nil
}

// orderValue is an ORDER BY term's value for one output row: a position, an output
// alias, or an expression in the core's scope.
func (en *encoder) orderValue(x ast.Expr, e *env, vals []value, out *relation) (value, error) {
	if l, ok := x.(*ast.Literal); ok && l.Kind == ast.LitInteger {
		n := atoi(l.Value)
		if n < 1 || n > len(vals) {
			return value{}, unsupported("ORDER BY position")
		}
		return vals[n-1], nil
	}
	if id, ok := x.(*ast.Ident); ok {
		if v, found, err := e.lookup("", id.Name); err != nil || found {
			return v, err
		}
		for i, c := range out.cols {
			if c.name == strings.ToLower(id.Name) {
				return vals[i], nil
			}
		}
	}
	return en.value(x, e)
}

// exprName is the name SQLite gives an output column (only used to resolve names).
func exprName(c *ast.ResultColumn) string {
	if c.Alias != nil {
		return strings.ToLower(c.Alias.Name)
	}
	switch t := c.Expr.(type) {
	case *ast.Ident:
		return strings.ToLower(t.Name)
	case *ast.QualifiedRef:
		return strings.ToLower(t.Parts[len(t.Parts)-1].Name)
	}
	return ""
}
