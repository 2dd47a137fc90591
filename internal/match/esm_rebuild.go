package match

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// This file is the normalisation evaluation.py applies before comparing (rebuild_sql_val,
// rebuild_sql_col, build_valid_col_units), producing a normSQL whose parts compare with
// plain string equality the way the Python tuples and dicts compare with ==.
//
// Where the reference normalises, and where it does not, matters for conformance:
//   - the top-level query and its INTERSECT / UNION / EXCEPT chain are "rebuilt": column
//     units lose DISTINCT and columns of the FROM tables are mapped through the
//     foreign-key map (with the top-level query's FROM tables, also for the chain);
//   - subqueries used as condition values are compared as whole dicts, not rebuilt: their
//     columns keep DISTINCT and are not mapped, but their literal values are dropped
//     (rebuild_sql_val recurses into them);
//   - subqueries in FROM are compared as whole dicts that nothing touched: values kept.

// Key bytes: every part of a key is self-delimiting (strings are length-prefixed), so two
// different structures never give the same key.

// Keyword bits (get_keywords).
const (
	kwWhere = 1 << iota
	kwGroup
	kwHaving
	kwOrder
	kwAsc
	kwDesc
	kwLimit
	kwExcept
	kwUnion
	kwIntersect
	kwOr
	kwNot
	kwIn
	kwLike
)

// Conjunction bits (the set of "and"/"or" in a WHERE).
const (
	conjAnd = 1 << iota
	conjOr
	conjOther
)

// Operator indexes in spidersql.WhereOps.
var (
	opIn   = slices.Index(spidersql.WhereOps, "in")
	opLike = slices.Index(spidersql.WhereOps, "like")
)

// normSQL is one query after the reference's rebuild, in comparable form.
type normSQL struct {
	sel      []string // select items (agg, val_unit)
	selVal   []string // the select items' val_units alone (select(no AGG))
	where    []string // WHERE condition units
	whereVal []string // the WHERE units' val_units alone (where(no OP))
	conjs    uint8    // set of WHERE conjunctions
	group    []string // GROUP BY column ids, in order
	having   string   // the HAVING condition, in order
	order    string   // ORDER BY direction and units; "" when absent
	hasOrder bool
	hasLimit bool
	keywords uint16
	tables   []string    // FROM table units, sorted
	sets     [3]*normSQL // intersect, except, union (eval_IUEN's order)
}

// rebuilder normalises one side (prediction or gold): the FROM tables of its top-level
// query decide which columns the foreign-key map applies to.
type rebuilder struct {
	opt    Options
	fk     FKMap
	tables []string // lowercased names of the top-level FROM table units
	buf    []byte   // the keys of the query being rebuilt (norm)
	ends   []int    // where each of them ends in buf
}

// rebuilders are rebuilders reused across queries (rebuild): a query's keys all go into
// buf, and growing a fresh buffer to hold them would cost more than the keys themselves.
// Keys are copied out of buf (norm) and tables holds substrings of the parsed query, so
// nothing keeps a rebuilder's buffers once rebuild returns.
var rebuilders = sync.Pool{New: func() any {
	return &rebuilder{buf: make([]byte, 0, 1024), ends: make([]int, 0, 64)}
}}

// rebuild normalises q (norm) with a rebuilder taken from, and given back to, rebuilders.
func rebuild(q *spidersql.SQL, fk FKMap, opt Options) *normSQL {
	r := rebuilders.Get().(*rebuilder)
	r.reset(q, fk, opt)
	n := r.norm(q)
	clear(r.tables) // keep no map or query alive from the pool
	r.fk, r.tables = nil, r.tables[:0]
	rebuilders.Put(r)
	return n
}

// reset readies r for q, keeping its buffers: it takes the top-level query's FROM tables
// (build_valid_col_units).
func (r *rebuilder) reset(q *spidersql.SQL, fk FKMap, opt Options) {
	r.opt, r.fk = opt, fk
	r.tables, r.buf, r.ends = r.tables[:0], r.buf[:0], r.ends[:0]
	for _, tu := range q.From.Tables {
		if tu.Type == spidersql.TableUnitTable {
			r.tables = append(r.tables, strings.TrimSuffix(strings.TrimPrefix(tu.Table, "__"), "__"))
		}
	}
}

// mapCol is rebuild_col_unit_col's column part: a column of one of the FROM tables that
// is in the foreign-key map becomes its group's representative.
func (r *rebuilder) mapCol(id string) string {
	to, ok := r.fk[id]
	if !ok {
		return id
	}
	dot := strings.IndexByte(id, '.')
	if dot < 2 || !slices.Contains(r.tables, id[2:dot]) {
		return id
	}
	return to
}

// norm rebuilds q (a top-level query or one of its set-operation operands).
func (r *rebuilder) norm(q *spidersql.SQL) *normSQL {
	drop := !r.opt.Values
	n := &normSQL{}
	// Every key is written into one buffer, then the keys are cut from a single string:
	// one allocation per query instead of one per key. The cuts below take them in the
	// order they are written here.
	r.buf, r.ends = r.buf[:0], r.ends[:0]
	units := q.Where.Units()
	for _, it := range q.Select.Items {
		r.selItem(it, true)
		r.cut()
		r.valUnit(it.Val, true)
		r.cut()
	}
	for _, cu := range units {
		r.condUnit(cu, true, drop)
		r.cut()
		r.valUnit(cu.Val, true)
		r.cut()
	}
	r.condition(q.Having, true, drop)
	r.cut()
	if q.OrderBy != nil {
		r.orderBy(q.OrderBy, true)
		r.cut()
	}
	for _, tu := range q.From.Tables {
		r.tableUnit(tu)
		r.cut()
	}
	all, ends, start := string(r.buf), r.ends, 0
	next := func() string {
		k := all[start:ends[0]]
		start, ends = ends[0], ends[1:]
		return k
	}
	if k := len(q.Select.Items); k > 0 {
		n.sel, n.selVal = make([]string, 0, k), make([]string, 0, k)
		for range k {
			n.sel = append(n.sel, next())
			n.selVal = append(n.selVal, next())
		}
	}
	if k := len(units); k > 0 {
		n.where, n.whereVal = make([]string, 0, k), make([]string, 0, k)
		for range k {
			n.where = append(n.where, next())
			n.whereVal = append(n.whereVal, next())
		}
	}
	n.having = next()
	if q.OrderBy != nil {
		n.hasOrder = true
		n.order = next()
	}
	if k := len(q.From.Tables); k > 0 {
		n.tables = make([]string, 0, k)
		for range k {
			n.tables = append(n.tables, next())
		}
	}
	slices.Sort(n.tables)
	for _, c := range q.Where.Conjs() {
		switch c {
		case "and":
			n.conjs |= conjAnd
		case "or":
			n.conjs |= conjOr
		default:
			n.conjs |= conjOther
		}
	}
	for _, cu := range q.GroupBy {
		n.group = append(n.group, r.mapCol(cu.ColID))
	}
	n.hasLimit = q.Limit != nil
	n.keywords = keywords(q)
	for i, sub := range []*spidersql.SQL{q.Intersect, q.Except, q.Union} {
		if sub != nil {
			n.sets[i] = r.norm(sub)
		}
	}
	return n
}

// cut ends the key being written: it runs from the previous cut to here.
func (r *rebuilder) cut() { r.ends = append(r.ends, len(r.buf)) }

func (r *rebuilder) str(s string) {
	r.buf = strconv.AppendInt(r.buf, int64(len(s)), 10)
	r.buf = append(r.buf, ':')
	r.buf = append(r.buf, s...)
}

func (r *rebuilder) boolean(b bool) {
	if b {
		r.buf = append(r.buf, 'T')
	} else {
		r.buf = append(r.buf, 'F')
	}
}

// colUnit writes (agg, col, distinct); rebuilt units map the column and, unless
// Options.Distinct, lose DISTINCT (None in the reference).
func (r *rebuilder) colUnit(cu spidersql.ColUnit, rebuilt bool) {
	r.buf = append(r.buf, '(')
	r.buf = strconv.AppendInt(r.buf, int64(cu.Agg), 10)
	id := cu.ColID
	if rebuilt {
		id = r.mapCol(id)
	}
	r.str(id)
	if rebuilt && !r.opt.Distinct {
		r.buf = append(r.buf, 'N')
	} else {
		r.boolean(cu.Distinct)
	}
	r.buf = append(r.buf, ')')
}

func (r *rebuilder) valUnit(vu spidersql.ValUnit, rebuilt bool) {
	r.buf = append(r.buf, '<')
	r.buf = strconv.AppendInt(r.buf, int64(vu.Op), 10)
	r.colUnit(vu.Col1, rebuilt)
	if vu.Col2 != nil {
		r.colUnit(*vu.Col2, rebuilt)
	} else {
		r.buf = append(r.buf, '-')
	}
	r.buf = append(r.buf, '>')
}

func (r *rebuilder) selItem(it spidersql.SelectItem, rebuilt bool) {
	r.buf = strconv.AppendInt(r.buf, int64(it.Agg), 10)
	r.valUnit(it.Val, rebuilt)
}

// value writes a condition's right-hand side. With values dropped, everything but a
// subquery is None; a subquery is compared whole, with its own values dropped too.
func (r *rebuilder) value(v *spidersql.Value, drop bool) {
	switch {
	case v == nil:
		r.buf = append(r.buf, '-')
	case v.Kind == spidersql.ValueSQL:
		r.buf = append(r.buf, 'q')
		r.rawSQL(v.SQL, drop)
	case drop:
		r.buf = append(r.buf, '-')
	case v.Kind == spidersql.ValueNumber:
		x := v.Number
		if x == 0 {
			x = 0 // -0.0 == 0.0 in Python
		}
		r.buf = append(r.buf, 'n')
		if math.IsNaN(x) {
			r.buf = append(r.buf, "nan"...) // Python: nan != nan; too rare to model
		}
		r.buf = strconv.AppendFloat(r.buf, x, 'g', -1, 64)
	case v.Kind == spidersql.ValueString:
		r.buf = append(r.buf, 's')
		r.str(v.Str)
	default: // a column: never rebuilt (rebuild_cond_unit_col only touches val_unit)
		r.buf = append(r.buf, 'c')
		r.colUnit(v.Col, false)
	}
}

func (r *rebuilder) condUnit(cu *spidersql.CondUnit, rebuilt, drop bool) {
	r.buf = append(r.buf, '[')
	r.boolean(cu.Not)
	r.buf = strconv.AppendInt(r.buf, int64(cu.Op), 10)
	r.valUnit(cu.Val, rebuilt)
	r.value(cu.Val1, drop)
	r.value(cu.Val2, drop)
	r.buf = append(r.buf, ']')
}

// condition writes a condition list in order, conjunctions included.
func (r *rebuilder) condition(c spidersql.Condition, rebuilt, drop bool) {
	r.buf = append(r.buf, '{')
	for _, it := range c {
		if it.Unit != nil {
			r.condUnit(it.Unit, rebuilt, drop)
		} else {
			r.buf = append(r.buf, '&')
			r.str(it.Conj)
		}
	}
	r.buf = append(r.buf, '}')
}

func (r *rebuilder) orderBy(o *spidersql.OrderBy, rebuilt bool) {
	if o == nil {
		r.buf = append(r.buf, '-')
		return
	}
	r.str(o.Dir)
	for _, vu := range o.Units {
		r.valUnit(vu, rebuilt)
	}
	r.buf = append(r.buf, ';')
}

// tableUnit writes a FROM table unit; a subquery there is compared whole, values kept
// (rebuild_sql_val never reaches it).
func (r *rebuilder) tableUnit(tu spidersql.TableUnit) {
	if tu.Type == spidersql.TableUnitSQL && tu.SQL != nil {
		r.buf = append(r.buf, 'q')
		r.rawSQL(tu.SQL, false)
		return
	}
	r.buf = append(r.buf, 't')
	r.str(tu.Table)
}

// rawSQL writes a whole query the way Python's dict equality sees it: every clause, no
// column rebuilt, values dropped when drop is set.
func (r *rebuilder) rawSQL(q *spidersql.SQL, drop bool) {
	if q == nil {
		r.buf = append(r.buf, '-')
		return
	}
	r.buf = append(r.buf, "{S"...)
	r.boolean(q.Select.Distinct)
	for _, it := range q.Select.Items {
		r.selItem(it, false)
	}
	r.buf = append(r.buf, 'F')
	for _, tu := range q.From.Tables {
		r.tableUnit(tu)
	}
	r.condition(q.From.Conds, false, drop)
	r.buf = append(r.buf, 'W')
	r.condition(q.Where, false, drop)
	r.buf = append(r.buf, 'G')
	for _, cu := range q.GroupBy {
		r.colUnit(cu, false)
	}
	r.buf = append(r.buf, 'H')
	r.condition(q.Having, false, drop)
	r.buf = append(r.buf, 'O')
	r.orderBy(q.OrderBy, false)
	r.buf = append(r.buf, 'L')
	if q.Limit != nil {
		r.buf = strconv.AppendInt(r.buf, *q.Limit, 10)
	} else {
		r.buf = append(r.buf, '-')
	}
	for _, sub := range []*spidersql.SQL{q.Intersect, q.Except, q.Union} {
		r.buf = append(r.buf, '|')
		r.rawSQL(sub, drop)
	}
	r.buf = append(r.buf, '}')
}

// keywords is get_keywords as a bit set.
func keywords(q *spidersql.SQL) uint16 {
	var k uint16
	if len(q.Where) > 0 {
		k |= kwWhere
	}
	if len(q.GroupBy) > 0 {
		k |= kwGroup
	}
	if len(q.Having) > 0 {
		k |= kwHaving
	}
	if q.OrderBy != nil {
		k |= kwOrder
		if q.OrderBy.Dir == "desc" {
			k |= kwDesc
		} else {
			k |= kwAsc
		}
	}
	if q.Limit != nil {
		k |= kwLimit
	}
	if q.Except != nil {
		k |= kwExcept
	}
	if q.Union != nil {
		k |= kwUnion
	}
	if q.Intersect != nil {
		k |= kwIntersect
	}
	for _, c := range []spidersql.Condition{q.From.Conds, q.Where, q.Having} {
		if slices.Contains(c.Conjs(), "or") {
			k |= kwOr
		}
		for _, cu := range c.Units() {
			if cu.Not {
				k |= kwNot
			}
			switch cu.Op {
			case opIn:
				k |= kwIn
			case opLike:
				k |= kwLike
			}
		}
	}
	return k
}
