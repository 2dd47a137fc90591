package match

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/sqlc-dev/meyer/ast"
)

// lowerer turns the parser's tree into the ETM normal form. The preprocessing rules
// of Table 5 are applied here, as part of reading the query:
//
//	P0 identifiers compare case-insensitively (names are lower-cased; literals are not)
//	P1 a column is qualified by the table it resolves to ("c1" = "t1.c1")
//	P3 a table alias is replaced by its table ("t.c1 FROM t1 AS t" = "t1.c1 FROM t1")
//	P6 a result alias is dropped and references to it replaced by its expression
//	P7 parentheses only group: the tree keeps the grouping and drops the parentheses
//	P8 quoting is only spelling ("t1"."c1" = t1.c1); a double-quoted word that names no
//	   column is a string literal, as SQLite reads it
//
// P2, P4 and P5 (select-list order, join order, commutative operands) are orderings,
// applied by canon (rules_pre.go) once the other rules have run. Aliases are scoped to
// their own SELECT, so the same alias in a subquery names its own table.
type lowerer struct {
	s     *dbschema.Schema
	fired *firedRules
	ctes  []cteDef // visible CTEs, innermost last
	// quirks: how the ETM script's name resolution to reproduce (see scriptName).
	quirks quirk
}

type cteDef struct {
	name string
	body *ast.SelectStmt
	cols []string
}

// lscope is one SELECT's name space.
type lscope struct {
	parent  *lscope
	srcs    []*lsrc
	aliases map[string]*enode // result aliases (lower) -> their expressions
}

// lsrc is one FROM item as seen by name lookup.
type lsrc struct {
	name  string // alias or table name, lower
	id    string // canonical qualifier: the table name, or "sub<k>"
	table *dbschema.Table
	cols  []string // a subquery's output names, lower
}

func (s *lsrc) has(col string) bool {
	if s.table != nil {
		return s.table.Column(col) != nil
	}
	for _, c := range s.cols {
		if c == col {
			return true
		}
	}
	return false
}

// lower lower-cases an identifier (P0: names compare case-insensitively), noting P0
// when that changed its spelling.
func (l *lowerer) lower(name string) string {
	low := strings.ToLower(name)
	if low != name {
		l.fire("P0")
	}
	return low
}

func (l *lowerer) fire(id string) {
	if l.fired != nil {
		l.fired.add(id)
	}
}

// errUnsupported: a syntax form ETM does not model (VALUES, window functions, ...); such
// a query matches nothing.
var errUnsupported = fmt.Errorf("etm: unsupported syntax")

func (l *lowerer) query(st *ast.SelectStmt, outer *lscope) (*equery, error) {
	if st == nil {
		return nil, errUnsupported
	}
	saved := len(l.ctes)
	defer func() { l.ctes = l.ctes[:saved] }()
	if st.With != nil {
		if st.With.Recursive {
			return nil, errUnsupported
		}
		for _, c := range st.With.CTEs {
			if c == nil || c.Name == nil {
				return nil, errUnsupported
			}
			d := cteDef{name: strings.ToLower(c.Name.Name), body: c.Select}
			for _, id := range c.Columns {
				d.cols = append(d.cols, strings.ToLower(id.Name))
			}
			l.ctes = append(l.ctes, d)
		}
	}
	q := &equery{}
	for i, c := range st.Cores {
		sq, ok := c.(*ast.SelectQuery)
		if !ok {
			return nil, errUnsupported
		}
		core, sc, err := l.core(sq, outer)
		if err != nil {
			return nil, err
		}
		q.cores = append(q.cores, core)
		if i > 0 {
			op := strings.ToLower(st.Ops[i-1].Op)
			if st.Ops[i-1].All {
				op += " all"
			}
			q.ops = append(q.ops, op)
		}
		// ORDER BY and LIMIT written on the last core belong to the whole query.
		if i == len(st.Cores)-1 {
			for _, t := range sq.OrderBy {
				if t == nil {
					continue
				}
				x, err := l.orderExpr(t.Expr, sc)
				if err != nil {
					return nil, err
				}
				if len(st.Cores) > 1 && l.quirks.has(quirkSetOrder) {
					x = asWritten(t.Expr, x)
				}
				q.order = append(q.order, &eorder{x: x, desc: t.Order == ast.SortDesc})
			}
			if sq.Limit != nil {
				if q.limit, err = l.expr(sq.Limit.Count, sc); err != nil {
					return nil, err
				}
				if q.offset, err = l.expr(sq.Limit.Offset, sc); err != nil {
					return nil, err
				}
			}
		} else if len(sq.OrderBy) > 0 || sq.Limit != nil {
			return nil, errUnsupported
		}
	}
	return q, nil
}

func (l *lowerer) core(sq *ast.SelectQuery, outer *lscope) (*ecore, *lscope, error) {
	if len(sq.Windows) > 0 {
		return nil, nil, errUnsupported
	}
	sc := &lscope{parent: outer} // aliases: made at the first select-list alias (most have none)
	c := &ecore{distinct: sq.Distinct == ast.DistinctDistinct}
	var items []*ast.TableRef
	flattenFrom(sq.From, &items)
	for _, it := range items {
		f, src, err := l.fromItem(it, sc, outer)
		if err != nil {
			return nil, nil, err
		}
		c.from = append(c.from, f)
		sc.srcs = append(sc.srcs, src)
	}
	// ON and USING see every item (SQLite allows forward references in inner joins).
	for i, it := range items {
		if it.On != nil {
			on, err := l.expr(it.On, sc)
			if err != nil {
				return nil, nil, err
			}
			c.from[i].on = on
		}
		for _, id := range it.Using {
			c.from[i].using = append(c.from[i].using, strings.ToLower(id.Name))
		}
	}
	for _, rc := range sq.Columns {
		if rc == nil {
			continue
		}
		var e *enode
		if st, ok := rc.Expr.(*ast.Star); ok {
			e = &enode{op: eopStar}
			if st.Table != nil {
				e.val = sc.qualifier(strings.ToLower(st.Table.Name))
			}
		} else {
			var err error
			if e, err = l.expr(rc.Expr, sc); err != nil {
				return nil, nil, err
			}
		}
		if rc.Alias != nil {
			if sc.aliases == nil {
				sc.aliases = map[string]*enode{}
			}
			sc.aliases[strings.ToLower(rc.Alias.Name)] = e
			l.fire("P6")
		}
		c.cols = append(c.cols, e)
	}
	var err error
	if c.where, err = l.expr(sq.Where, sc); err != nil {
		return nil, nil, err
	}
	for _, g := range sq.GroupBy {
		x, err := l.expr(g, sc)
		if err != nil {
			return nil, nil, err
		}
		c.group = append(c.group, x)
	}
	if c.having, err = l.expr(sq.Having, sc); err != nil {
		return nil, nil, err
	}
	return c, sc, nil
}

// flattenFrom makes a parenthesised join list part of the enclosing FROM.
func flattenFrom(items []*ast.TableRef, out *[]*ast.TableRef) {
	for _, it := range items {
		if it == nil {
			continue
		}
		if len(it.List) > 0 && it.Select == nil && it.Name == nil {
			flattenFrom(it.List, out)
			continue
		}
		*out = append(*out, it)
	}
}

func joinKind(j *ast.JoinOperator) string {
	if j == nil {
		return ""
	}
	var k string
	switch {
	case j.Type&ast.JoinLeft != 0 && j.Type&ast.JoinRight != 0:
		k = "full"
	case j.Type&ast.JoinLeft != 0:
		k = "left"
	case j.Type&ast.JoinRight != 0:
		k = "right"
	}
	if j.Type&ast.JoinNatural != 0 {
		k = strings.TrimSpace("natural " + k)
	}
	return k
}

func (l *lowerer) fromItem(it *ast.TableRef, sc, outer *lscope) (*efrom, *lsrc, error) {
	f := &efrom{join: joinKind(it.Join)}
	src := &lsrc{}
	switch {
	case it.Select != nil:
		sub, err := l.query(it.Select, outer)
		if err != nil {
			return nil, nil, err
		}
		f.sub = sub
		src.cols = outputNames(it.Select)
		src.id = fmt.Sprintf("sub%d", len(sc.srcs)+1)
	case it.Name != nil && it.Name.Name != nil && !it.HasArgs:
		name := l.lower(it.Name.Name.Name)
		src.name = name
		if d, ok := l.cte(name); ok && it.Name.Schema == nil {
			// Rule 26: WITH q AS (q1) SELECT _ FROM q = SELECT _ FROM (q1).
			l.fire("26")
			body, err := l.cteBody(d, outer)
			if err != nil {
				return nil, nil, err
			}
			f.sub = body
			src.cols = d.cols
			if len(src.cols) == 0 {
				src.cols = outputNames(d.body)
			}
			src.id = fmt.Sprintf("sub%d", len(sc.srcs)+1)
			break
		}
		f.table = name
		src.id = name
		src.table = l.s.Table(name)
	default:
		return nil, nil, errUnsupported
	}
	if it.Alias != nil {
		src.name = l.lower(it.Alias.Name)
		if f.table != "" {
			l.fire("P3")
		}
	}
	return f, src, nil
}

func (l *lowerer) cte(name string) (cteDef, bool) {
	for i := len(l.ctes) - 1; i >= 0; i-- {
		if l.ctes[i].name == name {
			return l.ctes[i], true
		}
	}
	return cteDef{}, false
}

// cteBody lowers a CTE's body where it is used, seeing only the CTEs defined before it.
func (l *lowerer) cteBody(d cteDef, outer *lscope) (*equery, error) {
	saved := l.ctes
	for i := range l.ctes {
		if l.ctes[i].name == d.name && l.ctes[i].body == d.body {
			l.ctes = l.ctes[:i:i]
			break
		}
	}
	defer func() { l.ctes = saved }()
	return l.query(d.body, nil)
}

// outputNames are a SELECT's result column names (lower), from its first core.
func outputNames(st *ast.SelectStmt) []string {
	if st == nil || len(st.Cores) == 0 {
		return nil
	}
	sq, ok := st.Cores[0].(*ast.SelectQuery)
	if !ok {
		return nil
	}
	var out []string
	for _, rc := range sq.Columns {
		if rc == nil {
			continue
		}
		switch {
		case rc.Alias != nil:
			out = append(out, strings.ToLower(rc.Alias.Name))
		default:
			switch e := rc.Expr.(type) {
			case *ast.Ident:
				out = append(out, strings.ToLower(e.Name))
			case *ast.QualifiedRef:
				out = append(out, strings.ToLower(e.Parts[len(e.Parts)-1].Name))
			default:
				out = append(out, "")
			}
		}
	}
	return out
}

// qualifier maps a table name or alias to its canonical qualifier, innermost first.
func (sc *lscope) qualifier(name string) string {
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.srcs {
			if src.name == name {
				return src.id
			}
		}
	}
	return name
}

// column resolves an unqualified column name: this SELECT's FROM items, then its result
// aliases, then the enclosing SELECTs.
func (sc *lscope) column(name string, aliasFirst bool) (*enode, bool) {
	for s := sc; s != nil; s = s.parent {
		if aliasFirst && s == sc {
			if a, ok := s.aliases[name]; ok {
				return clone(a), true
			}
		}
		var hit *lsrc
		n := 0
		for _, src := range s.srcs {
			if src.has(name) {
				hit = src
				n++
			}
		}
		if n == 1 {
			return &enode{op: eopCol, val: hit.id + "." + name}, true
		}
		if n > 1 {
			return &enode{op: eopCol, val: "?." + name}, true
		}
		if a, ok := s.aliases[name]; ok {
			return clone(a), true
		}
	}
	return nil, false
}

func clone(n *enode) *enode {
	if n == nil {
		return nil
	}
	c := *n
	c.kids = make([]*enode, len(n.kids))
	for i, k := range n.kids {
		c.kids[i] = clone(k)
	}
	c.sub = cloneQuery(n.sub)
	return &c
}

func cloneQuery(q *equery) *equery {
	if q == nil {
		return nil
	}
	c := &equery{ops: append([]string(nil), q.ops...), limit: clone(q.limit), offset: clone(q.offset)}
	for _, o := range q.order {
		c.order = append(c.order, &eorder{x: clone(o.x), desc: o.desc})
	}
	for _, k := range q.cores {
		c.cores = append(c.cores, cloneCore(k))
	}
	return c
}

func cloneCore(k *ecore) *ecore {
	c := &ecore{distinct: k.distinct, where: clone(k.where), having: clone(k.having), joinsKey: k.joinsKey}
	for _, e := range k.cols {
		c.cols = append(c.cols, clone(e))
	}
	for _, e := range k.group {
		c.group = append(c.group, clone(e))
	}
	for _, f := range k.from {
		c.from = append(c.from, &efrom{join: f.join, table: f.table, sub: cloneQuery(f.sub), on: clone(f.on), using: append([]string(nil), f.using...)})
	}
	return c
}

// asWritten is quirk (official) setorder: the script runs its rules on each SELECT of a
// compound query, never on the compound's ORDER BY, which it compares as written: names
// in their written case, qualifiers as written (an alias stays an alias). x keeps the
// lowered term; the names as written go beside it.
func asWritten(e ast.Expr, x *enode) *enode {
	var names []string
	var fn *ast.Ident // a function's name: the script's parser reads it in any case
	ast.Walk(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncCall:
			fn = n.Name
		case *ast.Ident:
			if n != fn {
				names = append(names, n.Name)
			}
		}
		return true
	})
	if len(names) == 0 {
		return x
	}
	return &enode{op: eopRaw, val: "written:" + strings.Join(names, "."), kids: []*enode{x}}
}

func (l *lowerer) orderExpr(e ast.Expr, sc *lscope) (*enode, error) {
	if id, ok := e.(*ast.Ident); ok && !l.quirks.has(quirkAlias) {
		if n, ok := sc.column(strings.ToLower(id.Name), true); ok {
			return n, nil
		}
	}
	return l.expr(e, sc)
}

var binOps = map[ast.Operator]string{
	ast.OpEq: "=", ast.OpNe: "<>", ast.OpLt: "<", ast.OpLe: "<=", ast.OpGt: ">", ast.OpGe: ">=",
	ast.OpBitAnd: "&", ast.OpBitOr: "|", ast.OpLShift: "<<", ast.OpRShift: ">>", ast.OpAdd: "+",
	ast.OpSub: "-", ast.OpMul: "*", ast.OpDiv: "/", ast.OpMod: "%", ast.OpConcat: "||",
	ast.OpPtr: "->", ast.OpPtr2: "->>",
}

func (l *lowerer) exprs(es []ast.Expr, sc *lscope) ([]*enode, error) {
	out := make([]*enode, 0, len(es))
	for _, e := range es {
		x, err := l.expr(e, sc)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// pair lowers the two operands of a binary form.
func (l *lowerer) pair(a, b ast.Expr, sc *lscope) (x, y *enode, err error) {
	if x, err = l.expr(a, sc); err != nil {
		return nil, nil, err
	}
	if y, err = l.expr(b, sc); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func (l *lowerer) expr(e ast.Expr, sc *lscope) (*enode, error) {
	switch n := e.(type) {
	case nil:
		return nil, nil
	case *ast.Ident:
		if n == nil {
			return nil, nil
		}
		return l.ident(n, sc), nil
	case *ast.QualifiedRef:
		if len(n.Parts) < 2 {
			return nil, errUnsupported
		}
		col := l.lower(n.Parts[len(n.Parts)-1].Name)
		tab := l.lower(n.Parts[len(n.Parts)-2].Name)
		if l.quirks.has(quirkAlias) {
			if a, ok := sc.aliasRef(col); ok {
				return a, nil
			}
		}
		q := sc.qualifier(tab)
		if q != tab {
			l.fire("P3")
		}
		return &enode{op: eopCol, val: q + "." + col}, nil
	case *ast.Literal:
		return literal(n), nil
	case *ast.Star:
		return &enode{op: eopStar}, nil
	case *ast.ParenExpr:
		l.fire("P7") // the tree keeps the grouping; the parentheses themselves go
		return l.expr(n.X, sc)
	case *ast.BinaryExpr:
		x, y, err := l.pair(n.X, n.Y, sc)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case ast.OpAnd:
			return flat(eopAnd, x, y), nil
		case ast.OpOr:
			return flat(eopOr, x, y), nil
		}
		op, ok := binOps[n.Op]
		if !ok {
			return nil, errUnsupported
		}
		return &enode{op: eopBin, val: op, kids: []*enode{x, y}}, nil
	case *ast.UnaryExpr:
		x, err := l.expr(n.X, sc)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case ast.OpNot:
			return l.not(x), nil
		case ast.OpMinus:
			if x.is(eopNum) {
				if strings.HasPrefix(x.val, "-") {
					x.val = x.val[1:]
				} else {
					x.val = "-" + x.val
				}
				return x, nil
			}
			return &enode{op: eopNeg, kids: []*enode{x}}, nil
		case ast.OpPlus:
			return x, nil
		}
		return &enode{op: eopRaw, val: "unary" + strconv.Itoa(int(n.Op)), kids: []*enode{x}}, nil
	case *ast.LikeExpr:
		if n.Escape != nil {
			return nil, errUnsupported
		}
		x, y, err := l.pair(n.X, n.Y, sc)
		if err != nil {
			return nil, err
		}
		op := eopLike
		if n.Not {
			op = eopNotLike
		}
		return &enode{op: op, val: strings.ToLower(n.Op.Name), kids: []*enode{x, y}}, nil
	case *ast.IsExpr:
		x, y, err := l.pair(n.X, n.Y, sc)
		if err != nil {
			return nil, err
		}
		if y.is(eopNull) {
			if n.Not {
				return &enode{op: eopNotNull, kids: []*enode{x}}, nil
			}
			return &enode{op: eopIsNull, kids: []*enode{x}}, nil
		}
		op := eopIs
		if n.Not != n.Distinct {
			op = eopIsNot
		}
		return &enode{op: op, kids: []*enode{x, y}}, nil
	case *ast.NullCheckExpr:
		x, err := l.expr(n.X, sc)
		if err != nil {
			return nil, err
		}
		if n.Test == ast.TestIsNull {
			return &enode{op: eopIsNull, kids: []*enode{x}}, nil
		}
		return &enode{op: eopNotNull, kids: []*enode{x}}, nil
	case *ast.BetweenExpr:
		ks, err := l.exprs([]ast.Expr{n.X, n.Lo, n.Hi}, sc)
		if err != nil {
			return nil, err
		}
		op := eopBetween
		if n.Not {
			op = eopNotBtw
		}
		return &enode{op: op, kids: ks}, nil
	case *ast.InExpr:
		x, err := l.expr(n.X, sc)
		if err != nil {
			return nil, err
		}
		switch {
		case n.Select != nil:
			sub, err := l.query(n.Select, sc)
			if err != nil {
				return nil, err
			}
			op := eopInSub
			if n.Not {
				op = eopNotIn2
			}
			return &enode{op: op, kids: []*enode{x}, sub: sub}, nil
		case n.Table != nil:
			return nil, errUnsupported
		}
		list, err := l.exprs(n.List, sc)
		if err != nil {
			return nil, err
		}
		op := eopIn
		if n.Not {
			op = eopNotIn
		}
		return &enode{op: op, kids: append([]*enode{x}, list...)}, nil
	case *ast.CaseExpr:
		out := &enode{op: eopCase}
		op, err := l.expr(n.Operand, sc)
		if err != nil {
			return nil, err
		}
		out.kids = append(out.kids, orNull(op))
		for _, w := range n.Whens {
			ks, err := l.exprs([]ast.Expr{w.When, w.Then}, sc)
			if err != nil {
				return nil, err
			}
			out.kids = append(out.kids, ks...)
		}
		el, err := l.expr(n.Else, sc)
		if err != nil {
			return nil, err
		}
		out.kids = append(out.kids, orNull(el))
		return out, nil
	case *ast.CastExpr:
		x, err := l.expr(n.X, sc)
		if err != nil {
			return nil, err
		}
		t := ""
		if n.Type != nil {
			t = strings.ToLower(n.Type.Name)
		}
		return &enode{op: eopCast, val: t, kids: []*enode{x}}, nil
	case *ast.CollateExpr:
		x, err := l.expr(n.X, sc)
		if err != nil {
			return nil, err
		}
		return &enode{op: eopCollate, val: strings.ToLower(n.Name.Name), kids: []*enode{x}}, nil
	case *ast.FuncCall:
		if n.Filter != nil || len(n.OrderBy) > 0 {
			return nil, errUnsupported
		}
		name := strings.ToLower(n.Name.Name)
		if n.Distinct {
			name += "+distinct"
		}
		out := &enode{op: eopFunc, val: name}
		if n.Star {
			out.kids = []*enode{{op: eopStar}}
		} else {
			ks, err := l.exprs(n.Args, sc)
			if err != nil {
				return nil, err
			}
			out.kids = ks
			out = l.funcRules(out)
		}
		if n.Over != nil {
			return l.window(n.Over, out, sc)
		}
		return out, nil
	case *ast.ExistsExpr:
		sub, err := l.query(n.Select, sc)
		if err != nil {
			return nil, err
		}
		return &enode{op: eopExists, sub: sub}, nil
	case *ast.SubqueryExpr:
		sub, err := l.query(n.Select, sc)
		if err != nil {
			return nil, err
		}
		return &enode{op: eopSubq, sub: sub}, nil
	case *ast.VectorExpr:
		ks, err := l.exprs(n.List, sc)
		if err != nil {
			return nil, err
		}
		return &enode{op: eopRaw, val: "row", kids: ks}, nil
	}
	return nil, errUnsupported
}

func orNull(n *enode) *enode {
	if n == nil {
		return &enode{op: eopNull}
	}
	return n
}

// flat builds an n-ary AND / OR, merging operands that are the same operator.
func flat(op string, xs ...*enode) *enode {
	out := &enode{op: op}
	for _, x := range xs {
		if x.is(op) {
			out.kids = append(out.kids, x.kids...)
		} else {
			out.kids = append(out.kids, x)
		}
	}
	return out
}

func literal(n *ast.Literal) *enode {
	switch n.Kind {
	case ast.LitNull:
		return &enode{op: eopNull}
	case ast.LitInteger, ast.LitFloat:
		return &enode{op: eopNum, val: n.Value}
	case ast.LitString:
		return &enode{op: eopStr, val: n.Value}
	}
	return &enode{op: eopRaw, val: strings.ToLower(n.Raw)}
}

// ident resolves a bare name: a column, a result alias, TRUE / FALSE, or (double-quoted,
// naming nothing) a string literal.
func (l *lowerer) ident(id *ast.Ident, sc *lscope) *enode {
	name := l.lower(id.Name)
	if n := l.scriptName(id, name, sc); n != nil {
		return n
	} else if n, ok := sc.column(name, false); ok {
		if id.Quote != ast.QuoteNone {
			l.fire("P8")
		}
		if n.op == eopCol {
			l.fire("P1")
		}
		return n
	}
	if id.Quote == ast.QuoteDouble || id.Quote == ast.QuoteSingle {
		l.fire("P8")
		return &enode{op: eopStr, val: id.Name}
	}
	switch name {
	case "true":
		return &enode{op: eopNum, val: "1"}
	case "false":
		return &enode{op: eopNum, val: "0"}
	}
	return &enode{op: eopCol, val: "?." + name}
}

// aliasRef is quirk (official) alias: a name equal to a result alias of this SELECT or
// an enclosing one, wherever it is read (qualified or not, even when a column has that
// name), becomes a reference wrapping the alias's expression, which never equals the
// expression itself. The script's rule 106 puts the expression inside the column node.
func (sc *lscope) aliasRef(name string) (*enode, bool) {
	for s := sc; s != nil; s = s.parent {
		if a, ok := s.aliases[name]; ok {
			return &enode{op: eopAliasRef, kids: []*enode{clone(a)}}, true
		}
	}
	return nil, false
}

// scriptName resolves a bare name as the ETM script does, for the quirks in force (nil:
// resolve it as SQLite does). A quoted name that no table of the database has as a
// column or table name is a string (its preprocessing); TRUE / FALSE are booleans; a
// result alias is an aliasRef (quirk alias). Quirk (official) resolve: any other name
// takes the table of this SELECT's own FROM, the only table there, or the only joined
// table with that column (script rule 101), never an enclosing query's: a correlated
// column resolves to the inner table.
func (l *lowerer) scriptName(id *ast.Ident, name string, sc *lscope) *enode {
	if l.quirks&(quirkAlias|quirkResolve) == 0 {
		return nil
	}
	if id.Quote != ast.QuoteNone && !l.schemaHasName(name) {
		return nil
	}
	if id.Quote == ast.QuoteNone && (name == "true" || name == "false") {
		return nil
	}
	if a, ok := sc.aliasRef(name); ok {
		if l.quirks.has(quirkAlias) {
			return a
		}
		return nil // an alias, read as SQLite reads it
	}
	if !l.quirks.has(quirkResolve) || len(sc.srcs) == 0 {
		return nil
	}
	if id.Quote != ast.QuoteNone {
		l.fire("P8")
	}
	l.fire("P1")
	if len(sc.srcs) == 1 {
		if src := sc.srcs[0]; src.table != nil {
			return &enode{op: eopCol, val: src.id + "." + name}
		}
		return &enode{op: eopCol, val: "?." + name}
	}
	var hit *lsrc
	for _, src := range sc.srcs {
		if src.table == nil || !src.has(name) {
			continue
		}
		if hit != nil {
			return &enode{op: eopCol, val: "?." + name}
		}
		hit = src
	}
	if hit == nil {
		return &enode{op: eopCol, val: "?." + name}
	}
	return &enode{op: eopCol, val: hit.id + "." + name}
}

// schemaHasName reports whether some table is called name or has a column called name.
func (l *lowerer) schemaHasName(name string) bool {
	if l.s == nil {
		return false
	}
	for _, t := range l.s.Tables {
		if strings.EqualFold(t.Name, name) || t.Column(name) != nil {
			return true
		}
	}
	return false
}
