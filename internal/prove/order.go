package prove

import (
	"github.com/sqlc-dev/meyer/ast"
)

// orderLimit applies ORDER BY and LIMIT/OFFSET. Each present row gets a rank (how many
// present rows sort strictly before it); rows tied on the keys may come out in any
// order, so LIMIT picks any of them: every present row gets a free position within its
// tie range, positions distinct, and LIMIT keeps the positions in [offset,
// offset+count). A proof thus holds for every tie-break SQLite could make.
func (en *encoder) orderLimit(rel *relation, keys [][]value, order []*ast.OrderingTerm, limit *ast.Limit, outer *env) (*result, error) {
	if len(order) == 0 && limit == nil {
		return &result{rel: rel}, nil
	}
	for _, o := range order {
		if o.Nulls != ast.NullsDefault {
			return nil, unsupported("NULLS FIRST/LAST")
		}
	}
	n := len(rel.rows)
	out := &relation{cols: rel.cols, kinds: rel.kinds}
	ranks := make([]string, n)
	ties := make([]string, n)
	for i := range rel.rows {
		var before, tied []string
		for j, s := range rel.rows {
			if j == i {
				continue
			}
			b, t := "false", "true"
			if len(order) > 0 {
				b, t = en.before(keys[j], keys[i], order), en.rowEq(keys[j], keys[i])
			}
			before = append(before, ite(and(s.ex, b), "1", "0"))
			tied = append(tied, ite(and(s.ex, t), "1", "0"))
		}
		ranks[i] = en.e.def("Int", isum(before))
		ties[i] = en.e.def("Int", isum(tied))
	}
	if limit == nil {
		for i, r := range rel.rows {
			out.rows = append(out.rows, tuple{ex: r.ex, vals: r.vals, rank: ranks[i], first: en.e.def("Bool", and(r.ex, "(= "+ranks[i]+" 0)"))})
		}
		return &result{rel: out, ordered: len(order) > 0}, nil
	}
	count, err := constInt(limit.Count)
	if err != nil {
		return nil, err
	}
	off := 0
	if limit.Offset != nil {
		if off, err = constInt(limit.Offset); err != nil {
			return nil, err
		}
		if limit.Comma { // LIMIT off, count
			off, count = count, off
		}
	}
	if count < 0 {
		count = n + off
	}
	if off < 0 {
		off = 0
	}
	pos := make([]string, n)
	for i, r := range rel.rows {
		pos[i] = en.e.declare("Int")
		en.e.assert("(=> " + r.ex + " (and (<= " + ranks[i] + " " + pos[i] + ") (<= " + pos[i] + " (+ " + ranks[i] + " " + ties[i] + "))))")
		for j := 0; j < i; j++ {
			en.e.assert("(=> (and " + rel.rows[j].ex + " " + r.ex + ") (not (= " + pos[j] + " " + pos[i] + ")))")
		}
	}
	for i, r := range rel.rows {
		sel := en.e.def("Bool", and(r.ex, "(<= "+intLit(off)+" "+pos[i]+")", "(< "+pos[i]+" "+intLit(off+count)+")"))
		rank := en.e.def("Int", "(ite (< "+ranks[i]+" "+intLit(off)+") 0 (- "+ranks[i]+" "+intLit(off)+"))")
		out.rows = append(out.rows, tuple{ex: sel, vals: r.vals, rank: rank, first: en.e.def("Bool", and(sel, "(= "+pos[i]+" "+intLit(off)+")"))})
	}
	return &result{rel: out, ordered: len(order) > 0}, nil
}

func isum(xs []string) string {
	var keep []string
	for _, x := range xs {
		if x != "0" {
			keep = append(keep, x)
		}
	}
	switch len(keep) {
	case 0:
		return "0"
	case 1:
		return keep[0]
	}
	return "(+ " + joinSp(keep) + ")"
}

func joinSp(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

// before says row a sorts strictly before row b: SQLite puts NULLs first ascending and
// last descending.
func (en *encoder) before(a, b []value, order []*ast.OrderingTerm) string {
	var alts []string
	prefix := "true"
	for t, o := range order {
		x, y := a[t], b[t]
		if o.Order == ast.SortDesc {
			x, y = y, x
		}
		less := "false"
		switch {
		case x.k == kindNull && y.k == kindNull:
		case x.k == kindNull:
			less = not(y.null)
		case y.k == kindNull:
		default:
			less = or(and(x.null, not(y.null)), and(not(x.null), not(y.null), "(< "+x.v+" "+y.v+")"))
		}
		alts = append(alts, and(prefix, less))
		prefix = and(prefix, en.same(a[t], b[t]))
	}
	return en.e.def("Bool", or(alts...))
}

// constInt is a LIMIT or OFFSET that is an integer literal (possibly negative).
func constInt(x ast.Expr) (int, error) {
	neg := false
	for {
		switch t := x.(type) {
		case *ast.ParenExpr:
			x = t.X
			continue
		case *ast.UnaryExpr:
			if t.Op == ast.OpMinus {
				neg = !neg
				x = t.X
				continue
			}
		case *ast.Literal:
			if t.Kind == ast.LitInteger {
				n := atoi(t.Value)
				if n >= 0 {
					if neg {
						return -n, nil
					}
					return n, nil
				}
			}
		}
		return 0, unsupported("LIMIT that is not a constant")
	}
}
