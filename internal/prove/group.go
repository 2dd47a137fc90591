package prove

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// group is one possible output row of an aggregate query: the input rows that belong
// to it and the row SQLite reads bare columns from.
type group struct {
	en      *encoder
	leader  string   // Bool: the group exists (before HAVING)
	rows    []tuple  // the input rows
	member  []string // Bool per input row
	keyCols map[int]bool
	lead    []value // the leader row's values (GROUP BY queries)
	inEnv   func([]value) *env
	chosen  []value // the bare-column row's values, built on first use
	pin     *ast.FuncCall
	aggs    map[*ast.FuncCall]value
}

var aggNames = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true, "total": true, "group_concat": true}

func isAggregate(f *ast.FuncCall) bool {
	n := strings.ToLower(f.Name.Name)
	if (n == "min" || n == "max") && len(f.Args) != 1 {
		return false
	}
	return aggNames[n] || f.Over != nil
}

// aggregates lists the aggregate calls of x, not looking into subqueries.
func aggregates(x ast.Node, out []*ast.FuncCall) []*ast.FuncCall {
	if x == nil {
		return out
	}
	switch t := x.(type) {
	case *ast.SubqueryExpr, *ast.ExistsExpr, *ast.SelectStmt:
		return out
	case *ast.InExpr:
		out = aggregates(t.X, out)
		for _, y := range t.List {
			out = aggregates(y, out)
		}
		return out
	case *ast.FuncCall:
		if isAggregate(t) {
			return append(out, t)
		}
	}
	for _, c := range x.Children() {
		if c != nil {
			out = aggregates(c, out)
		}
	}
	return out
}

func hasAggregate(x ast.Expr) bool { return x != nil && len(aggregates(x, nil)) > 0 }

// groups builds the groups of an aggregate query over its filtered input rows.
func (en *encoder) groups(q *ast.SelectQuery, cols []colName, rows []tuple, outer *env, aliases map[string]aliasDef) ([]*group, error) {
	inEnv := func(vals []value) *env { return &env{cols: cols, vals: vals, outer: outer, aliases: aliases} }
	// SQLite uses the row of the one min() or max() for bare columns.
	var all []*ast.FuncCall
	for _, c := range q.Columns {
		all = aggregates(c.Expr, all)
	}
	all = aggregates(q.Having, all)
	for _, o := range q.OrderBy {
		all = aggregates(o.Expr, all)
	}
	var pin *ast.FuncCall
	if len(all) == 1 {
		if n := strings.ToLower(all[0].Name.Name); n == "min" || n == "max" {
			pin = all[0]
		}
	}
	if len(q.GroupBy) == 0 {
		var member []string
		for _, r := range rows {
			member = append(member, r.ex)
		}
		return []*group{{en: en, leader: "true", rows: rows, member: member, inEnv: inEnv, pin: pin, aggs: map[*ast.FuncCall]value{}}}, nil
	}
	keyCols := map[int]bool{}
	keys := make([][]value, len(rows))
	for _, g := range q.GroupBy {
		if l, ok := g.(*ast.Literal); ok && l.Kind == ast.LitInteger {
			n := atoi(l.Value)
			if n < 1 || n > len(q.Columns) {
				return nil, unsupported("GROUP BY position")
			}
			g = q.Columns[n-1].Expr
		}
		if hasAggregate(g) {
			return nil, unsupported("aggregate in GROUP BY")
		}
		if i := columnIndex(g, cols); i >= 0 {
			keyCols[i] = true
		}
		for j, r := range rows {
			v, err := en.value(g, inEnv(r.vals))
			if err != nil {
				return nil, err
			}
			keys[j] = append(keys[j], v)
		}
	}
	var out []*group
	for i, r := range rows {
		var earlier, member []string
		for j, s := range rows {
			same := en.rowEq(keys[i], keys[j])
			if j < i {
				earlier = append(earlier, and(s.ex, same))
			}
			member = append(member, en.e.def("Bool", and(s.ex, same)))
		}
		out = append(out, &group{en: en, leader: en.e.def("Bool", and(r.ex, not(or(earlier...)))), rows: rows, member: member,
			keyCols: keyCols, lead: r.vals, inEnv: inEnv, pin: pin, aggs: map[*ast.FuncCall]value{}})
	}
	return out, nil
}

// columnIndex is the input column a plain column reference names, or -1.
func columnIndex(x ast.Expr, cols []colName) int {
	var qual, name string
	switch t := x.(type) {
	case *ast.Ident:
		name = t.Name
	case *ast.QualifiedRef:
		if len(t.Parts) != 2 {
			return -1
		}
		qual, name = t.Parts[0].Name, t.Parts[1].Name
	default:
		return -1
	}
	qual, name = strings.ToLower(qual), strings.ToLower(name)
	found := -1
	for i, c := range cols {
		if c.name == name && (qual == "" || c.qual == qual) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// column is the group's value of input column i: the leader's for a GROUP BY column
// (every member agrees), else the bare-column row's.
func (g *group) column(i int) (value, error) {
	if g.keyCols[i] && g.lead != nil {
		return g.lead[i], nil
	}
	if g.chosen == nil {
		if err := g.choose(); err != nil {
			return value{}, err
		}
	}
	return g.chosen[i], nil
}

// choose picks the bare-column row: any member (the one min or max's when there is one).
func (g *group) choose() error {
	en := g.en
	conds := append([]string(nil), g.member...)
	if g.pin != nil {
		agg, err := g.aggregate(g.pin)
		if err != nil {
			return err
		}
		for j, r := range g.rows {
			a, err := en.value(g.pin.Args[0], g.inEnv(r.vals))
			if err != nil {
				return err
			}
			hit := and(not(a.null), "(= "+a.v+" "+agg.v+")")
			conds[j] = en.e.def("Bool", and(conds[j], or(agg.null, hit)))
		}
	}
	if len(g.rows) == 0 {
		return unsupported("group of no rows")
	}
	width := len(g.rows[0].vals)
	g.chosen = make([]value, width)
	c := en.e.declare("Int")
	var pick []string
	for j, cd := range conds {
		pick = append(pick, and("(= "+c+" "+intLit(j)+")", cd))
	}
	none := en.e.def("Bool", not(or(g.member...)))
	en.e.assert("(or " + none + " " + or(pick...) + ")")
	for i := 0; i < width; i++ {
		k := kindNull
		for _, r := range g.rows {
			if r.vals[i].k != kindNull {
				k = r.vals[i].k
			}
		}
		out := coerce(nullValue, k)
		for j := len(g.rows) - 1; j >= 0; j-- {
			v := coerce(g.rows[j].vals[i], k)
			sel := "(= " + c + " " + intLit(j) + ")"
			out = value{v: en.e.def(sortOf(k), ite(sel, v.v, out.v)), null: en.e.def("Bool", ite(sel, v.null, out.null)), k: k}
		}
		out.null = en.e.def("Bool", or(none, out.null))
		col := make([]value, len(g.rows))
		for j, r := range g.rows {
			col[j] = r.vals[i]
		}
		out.aff = commonAffinity(col) // a bare column keeps its column's affinity
		g.chosen[i] = out
	}
	return nil
}

// aggregate is an aggregate call's value over the group's members.
func (g *group) aggregate(f *ast.FuncCall) (value, error) {
	if v, ok := g.aggs[f]; ok {
		return v, nil
	}
	en := g.en
	name := strings.ToLower(f.Name.Name)
	if f.Filter != nil || f.Over != nil || len(f.OrderBy) > 0 || name == "total" || name == "group_concat" {
		return value{}, unsupported("aggregate %s", name)
	}
	if f.Star {
		if name != "count" {
			return value{}, unsupported("%s(*)", name)
		}
		var xs []string
		for _, m := range g.member {
			xs = append(xs, ite(m, "1.0", "0.0"))
		}
		v := value{v: en.e.def("Real", sum(xs)), null: "false", k: KindNum, aff: affNone}
		g.aggs[f] = v
		return v, nil
	}
	if len(f.Args) != 1 {
		return value{}, unsupported("aggregate of %d arguments", len(f.Args))
	}
	// valid[j]: member j counts (its argument not NULL, and first of its value under DISTINCT).
	var args []value
	var valid []string
	k := kindNull
	for j, r := range g.rows {
		a, err := en.value(f.Args[0], g.inEnv(r.vals))
		if err != nil {
			return value{}, err
		}
		if hasAggregate(f.Args[0]) {
			return value{}, unsupported("nested aggregate")
		}
		if a.k != kindNull {
			k = a.k
		}
		ok := and(g.member[j], not(a.null))
		if f.Distinct {
			var dup []string
			for i := 0; i < j; i++ {
				if a.k != kindNull && args[i].k != kindNull {
					dup = append(dup, and(g.member[i], not(args[i].null), "(= "+args[i].v+" "+a.v+")"))
				}
			}
			ok = and(ok, not(or(dup...)))
		}
		args, valid = append(args, a), append(valid, en.e.def("Bool", ok))
	}
	if k == kindNull {
		return value{}, unsupported("aggregate of NULL")
	}
	var out value
	switch name {
	case "count":
		var xs []string
		for _, v := range valid {
			xs = append(xs, ite(v, "1.0", "0.0"))
		}
		out = value{v: en.e.def("Real", sum(xs)), null: "false", k: KindNum}
	case "sum", "avg":
		if k != KindNum {
			return value{}, unsupported("%s of text", name)
		}
		var xs, cs []string
		for j, v := range valid {
			xs = append(xs, ite(v, args[j].v, "0.0"))
			cs = append(cs, ite(v, "1.0", "0.0"))
		}
		s := en.e.def("Real", sum(xs))
		if name == "avg" {
			s = en.e.def("Real", "(/ "+s+" "+en.e.def("Real", sum(cs))+")")
		}
		out = value{v: s, null: en.e.def("Bool", not(or(valid...))), k: KindNum}
	case "min", "max":
		cmp := "<"
		if name == "max" {
			cmp = ">"
		}
		acc := coerce(nullValue, k)
		for j, v := range valid {
			a := coerce(args[j], k)
			take := en.e.def("Bool", and(v, or(acc.null, "("+cmp+" "+a.v+" "+acc.v+")")))
			acc = value{v: en.e.def(sortOf(k), ite(take, a.v, acc.v)), null: en.e.def("Bool", and(acc.null, not(v))), k: k}
		}
		out = acc
	default:
		return value{}, unsupported("aggregate %s", name)
	}
	out.aff, out.tsym = affNone, "" // an aggregate has no affinity
	g.aggs[f] = out
	return out, nil
}
