package prove

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// value evaluates an expression to an SQL value.
func (en *encoder) value(x ast.Expr, e *env) (value, error) {
	switch t := x.(type) {
	case *ast.ParenExpr:
		return en.value(t.X, e)
	case *ast.Literal:
		switch t.Kind {
		case ast.LitNull:
			return nullValue, nil
		case ast.LitInteger, ast.LitFloat:
			if strings.ContainsAny(t.Value, "xX") {
				return value{}, unsupported("hex literal")
			}
			v, err := realLit(t.Value)
			out := value{v: v, null: "false", k: KindNum, aff: affNone}
			if txt, ok := numberText(t.Value, t.Kind); ok {
				out.tsym = en.texts[txt]
			}
			return out, err
		case ast.LitString:
			return value{v: en.texts[t.Value], null: "false", k: KindText, aff: affNone}, nil
		}
		return value{}, unsupported("literal %s", t.Raw)
	case *ast.Ident:
		v, ok, err := e.lookup("", t.Name)
		if err != nil || ok {
			return v, err
		}
		if a, ok := e.alias(t.Name); ok {
			if hasAggregate(a.e) && e.grp == nil {
				return value{}, unsupported("alias of an aggregate outside a group")
			}
			return en.value(a.e, e.withoutAlias(t.Name))
		}
		if t.Quote == ast.QuoteDouble { // SQLite: an unknown "name" is a string
			return value{v: en.texts[t.Name], null: "false", k: KindText, aff: affNone}, nil
		}
		return value{}, unsupported("no column %s", t.Name)
	case *ast.QualifiedRef:
		if len(t.Parts) != 2 {
			return value{}, unsupported("column name %d parts", len(t.Parts))
		}
		v, ok, err := e.lookup(t.Parts[0].Name, t.Parts[1].Name)
		if err == nil && !ok {
			err = unsupported("no column %s.%s", t.Parts[0].Name, t.Parts[1].Name)
		}
		return v, err
	case *ast.UnaryExpr:
		switch t.Op {
		case ast.OpPlus, ast.OpMinus:
			a, err := en.value(t.X, e)
			if err != nil {
				return a, err
			}
			if a.k == KindText && t.Op == ast.OpMinus {
				return value{}, unsupported("sign of text")
			}
			if t.Op == ast.OpMinus && a.k == KindNum {
				a.v = en.e.def("Real", "(- "+a.v+")")
			}
			a.aff, a.tsym = affNone, "" // +x and -x have no affinity
			return a, nil
		}
	case *ast.BinaryExpr:
		var op string
		switch t.Op {
		case ast.OpAdd:
			op = "+"
		case ast.OpSub:
			op = "-"
		case ast.OpMul:
			op = "*"
		}
		if op == "" {
			break
		}
		a, err := en.value(t.X, e)
		if err != nil {
			return a, err
		}
		b, err := en.value(t.Y, e)
		if err != nil {
			return b, err
		}
		if a.k == KindText || b.k == KindText {
			return value{}, unsupported("arithmetic on text")
		}
		if a.k == kindNull || b.k == kindNull {
			return nullValue, nil
		}
		return value{v: en.e.def("Real", "("+op+" "+a.v+" "+b.v+")"), null: en.e.def("Bool", or(a.null, b.null)), k: KindNum, aff: affNone}, nil
	case *ast.CaseExpr:
		return en.caseValue(t, e)
	case *ast.FuncCall:
		if isAggregate(t) {
			if e.grp == nil {
				return value{}, unsupported("aggregate outside a group")
			}
			return e.grp.aggregate(t)
		}
		return value{}, unsupported("function %s", t.Name.Name)
	case *ast.SubqueryExpr:
		return en.scalar(t.Select, e)
	}
	return value{}, unsupported("expression %T", x)
}

// caseValue is CASE [operand] WHEN ... THEN ... [ELSE ...] END.
func (en *encoder) caseValue(t *ast.CaseExpr, e *env) (value, error) {
	var conds []string
	var vals []value
	kind := kindNull
	for _, w := range t.Whens {
		var c truth
		var err error
		if t.Operand != nil {
			c, err = en.compare(ast.OpEq, t.Operand, w.When, e)
		} else {
			c, err = en.truth(w.When, e)
		}
		if err != nil {
			return value{}, err
		}
		v, err := en.value(w.Then, e)
		if err != nil {
			return value{}, err
		}
		if kind, err = compatible(value{k: kind}, v); err != nil {
			return value{}, err
		}
		conds, vals = append(conds, c.tr), append(vals, v)
	}
	out := nullValue
	if t.Else != nil {
		v, err := en.value(t.Else, e)
		if err != nil {
			return value{}, err
		}
		if kind, err = compatible(value{k: kind}, v); err != nil {
			return value{}, err
		}
		out = v
	}
	out = coerce(out, kind)
	for i := len(conds) - 1; i >= 0; i-- {
		v := coerce(vals[i], kind)
		out = value{v: en.e.def(sortOf(kind), ite(conds[i], v.v, out.v)), null: en.e.def("Bool", ite(conds[i], v.null, out.null)), k: kind}
	}
	out.aff, out.tsym = affNone, "" // CASE has no affinity
	return out, nil
}

// truth evaluates a condition in three-valued logic.
func (en *encoder) truth(x ast.Expr, e *env) (truth, error) {
	switch t := x.(type) {
	case *ast.ParenExpr:
		return en.truth(t.X, e)
	case *ast.BinaryExpr:
		switch t.Op {
		case ast.OpAnd, ast.OpOr:
			a, err := en.truth(t.X, e)
			if err != nil {
				return a, err
			}
			b, err := en.truth(t.Y, e)
			if err != nil {
				return b, err
			}
			r := a.and(b)
			if t.Op == ast.OpOr {
				r = a.or(b)
			}
			return truth{en.e.def("Bool", r.tr), en.e.def("Bool", r.fa)}, nil
		case ast.OpEq, ast.OpNe, ast.OpLt, ast.OpLe, ast.OpGt, ast.OpGe:
			return en.compare(t.Op, t.X, t.Y, e)
		}
	case *ast.UnaryExpr:
		if t.Op == ast.OpNot {
			a, err := en.truth(t.X, e)
			return a.not(), err
		}
	case *ast.IsExpr:
		a, err := en.value(t.X, e)
		if err != nil {
			return truth{}, err
		}
		b, err := en.value(t.Y, e)
		if err != nil {
			return truth{}, err
		}
		if _, err := compatible(a, b); err != nil {
			return truth{}, err
		}
		s := en.same(a, b)
		r := truth{s, not(s)}
		if t.Not != t.Distinct {
			r = r.not()
		}
		return r, nil
	case *ast.NullCheckExpr:
		a, err := en.value(t.X, e)
		if err != nil {
			return truth{}, err
		}
		r := truth{a.null, not(a.null)}
		if t.Test != ast.TestIsNull {
			r = r.not()
		}
		return r, nil
	case *ast.BetweenExpr:
		lo, err := en.compare(ast.OpGe, t.X, t.Lo, e)
		if err != nil {
			return lo, err
		}
		hi, err := en.compare(ast.OpLe, t.X, t.Hi, e)
		if err != nil {
			return hi, err
		}
		r := lo.and(hi)
		if t.Not {
			r = r.not()
		}
		return r, nil
	case *ast.InExpr:
		r, err := en.in(t, e)
		if t.Not {
			r = r.not()
		}
		return r, err
	case *ast.ExistsExpr:
		res, err := en.stmt(t.Select, e)
		if err != nil {
			return truth{}, err
		}
		var xs []string
		for _, r := range res.rel.rows {
			xs = append(xs, r.ex)
		}
		ex := en.e.def("Bool", or(xs...))
		return truth{ex, not(ex)}, nil
	case *ast.LikeExpr:
		return en.like(t, e)
	case *ast.CollateExpr, *ast.CastExpr:
		return truth{}, unsupported("%T", x)
	}
	// A number as a condition: true when not zero.
	a, err := en.value(x, e)
	if err != nil {
		return truth{}, err
	}
	if a.k == KindText {
		return truth{}, unsupported("text as a condition")
	}
	if a.k == kindNull {
		return truth{"false", "false"}, nil
	}
	z := "(= " + a.v + " 0.0)"
	return truth{and(not(a.null), not(z)), and(not(a.null), z)}, nil
}

// compare is a comparison in three-valued logic (NULL when either side is NULL).
func (en *encoder) compare(op ast.Operator, x, y ast.Expr, e *env) (truth, error) {
	a, err := en.value(x, e)
	if err != nil {
		return truth{}, err
	}
	b, err := en.value(y, e)
	if err != nil {
		return truth{}, err
	}
	return en.compareValues(op, a, b)
}

// compareValues compares two values, converting text and numbers by their affinities
// as SQLite does (affinity.go).
func (en *encoder) compareValues(op ast.Operator, a, b value) (truth, error) {
	if _, err := compatible(a, b); err != nil {
		return en.mixed(op, a, b)
	}
	if a.k == kindNull || b.k == kindNull {
		return truth{"false", "false"}, nil
	}
	c := en.e.def("Bool", cmpTerm(op, a.v, b.v))
	known := en.e.def("Bool", and(not(a.null), not(b.null)))
	return truth{en.e.def("Bool", and(known, c)), en.e.def("Bool", and(known, not(c)))}, nil
}

// in is x IN (list) or x IN (subquery), before NOT.
func (en *encoder) in(t *ast.InExpr, e *env) (truth, error) {
	if t.Table != nil || t.HasArgs {
		return truth{}, unsupported("IN table")
	}
	if t.Select == nil {
		// x IN (y, ...) is x = +y OR ...: the list's values have no affinity.
		x, err := en.value(t.X, e)
		if err != nil {
			return truth{}, err
		}
		r := truthFalse
		for _, y := range t.List {
			b, err := en.value(y, e)
			if err != nil {
				return r, err
			}
			b.aff = affNone
			c, err := en.compareValues(ast.OpEq, x, b)
			if err != nil {
				return r, err
			}
			r = r.or(c)
		}
		return truth{en.e.def("Bool", r.tr), en.e.def("Bool", r.fa)}, nil
	}
	if _, ok := t.X.(*ast.VectorExpr); ok {
		return truth{}, unsupported("row value IN")
	}
	x, err := en.value(t.X, e)
	if err != nil {
		return truth{}, err
	}
	res, err := en.stmt(t.Select, e)
	if err != nil {
		return truth{}, err
	}
	if len(res.rel.cols) != 1 {
		return truth{}, unsupported("IN subquery of %d columns", len(res.rel.cols))
	}
	// TRUE when some row equals x, FALSE when every row differs (or there is none),
	// else NULL; each comparison with the affinities of x and the subquery's column.
	var tr, fa []string
	for _, r := range res.rel.rows {
		c, err := en.compareValues(ast.OpEq, x, r.vals[0])
		if err != nil {
			return truth{}, err
		}
		tr = append(tr, and(r.ex, c.tr))
		fa = append(fa, or(not(r.ex), c.fa))
	}
	return truth{en.e.def("Bool", or(tr...)), en.e.def("Bool", and(fa...))}, nil
}

// scalar is a scalar subquery: its first row's value, NULL when it has none. Which row
// is first is any row that may come first (SQLite's choice), so a proof holds for all.
func (en *encoder) scalar(st *ast.SelectStmt, e *env) (value, error) {
	res, err := en.stmt(st, e)
	if err != nil {
		return value{}, err
	}
	if len(res.rel.cols) != 1 {
		return value{}, unsupported("scalar subquery of %d columns", len(res.rel.cols))
	}
	var firsts []string
	var vals []value
	for _, r := range res.rel.rows {
		f := r.first
		if f == "" {
			f = r.ex
		}
		firsts, vals = append(firsts, f), append(vals, r.vals[0])
	}
	out := en.choose(firsts, vals, res.rel.kinds[0])
	out.aff, out.tsym = commonAffinity(vals), "" // the selected expression's affinity
	return out, nil
}

// choose is the value of one row among those whose condition holds (NULL when none):
// a fresh choice the solver may make any way, so a proof holds for every choice.
func (en *encoder) choose(conds []string, vals []value, k Kind) value {
	if len(vals) == 1 {
		return value{v: coerce(vals[0], k).v, null: en.e.def("Bool", or(not(conds[0]), vals[0].null)), k: k}
	}
	c := en.e.declare("Int")
	var pick []string
	for i, cd := range conds {
		pick = append(pick, and("(= "+c+" "+intLit(i)+")", cd))
	}
	none := en.e.def("Bool", not(or(conds...)))
	en.e.assert("(or " + none + " " + or(pick...) + ")")
	out := coerce(nullValue, k)
	for i := len(vals) - 1; i >= 0; i-- {
		v := coerce(vals[i], k)
		sel := "(= " + c + " " + intLit(i) + ")"
		out = value{v: en.e.def(sortOf(k), ite(sel, v.v, out.v)), null: en.e.def("Bool", ite(sel, v.null, out.null)), k: k}
	}
	out.null = en.e.def("Bool", or(none, out.null))
	return out
}
