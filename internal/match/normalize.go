package match

import (
	"bytes"
	"slices"
	"strings"
)

// The ETM normal form. A parsed query is lowered (normalize_lower.go) into this small
// tree, in which the preprocessing rules P0-P8 already hold by construction (names
// lower-cased, columns qualified by their table, table and column aliases gone, quoting
// only spelling, parentheses only grouping); the equivalence rules (rules_*.go) then
// rewrite it, and two queries match when their trees print to the same key.

// equery is a whole query: one SELECT core, or several joined by set operators.
type equery struct {
	cores []*ecore
	ops   []string // between cores: "union", "union all", "intersect", "except"
	// order and limit of the whole query (for a compound, they apply to its result).
	order  []*eorder
	limit  *enode
	offset *enode
}

// ecore is one SELECT.
type ecore struct {
	distinct bool
	cols     []*enode
	from     []*efrom
	where    *enode
	group    []*enode
	having   *enode
	// joinsKey: rule 14 removed every join of this core. Quirk (official) joinskey: the
	// script then still sees a (empty) join list, which keeps rules 2 and 13 from firing.
	joinsKey bool
}

// efrom is one FROM item: a table or a subquery, with the join that brings it in.
type efrom struct {
	join  string // "" for the first item and for inner / cross / comma joins; "left", ...
	table string // lower-cased table name, or "" for a subquery
	sub   *equery
	on    *enode
	using []string
}

type eorder struct {
	x    *enode
	desc bool
}

// enode is an expression. op says what it is; val carries the name, operator or
// literal text; kids are operands in order (for "and"/"or", a flattened list).
type enode struct {
	op   string
	val  string
	kids []*enode
	sub  *equery // "subq", "exists", "insub"
}

// Expression ops.
const (
	eopCol     = "col"  // val "table.column" (lower case); "?.name" when unresolved
	eopStar    = "star" // val "" or a table
	eopNum     = "num"
	eopStr     = "str"
	eopNull    = "null"
	eopBin     = "bin" // val operator: = <> < <= > >= + - * / % || ...
	eopAnd     = "and"
	eopOr      = "or"
	eopNot     = "not"
	eopNeg     = "neg"
	eopFunc    = "func" // val lower-cased name, "+distinct" suffix for DISTINCT arguments
	eopIn      = "in"   // kids: x, list...
	eopNotIn   = "notin"
	eopInSub   = "insub" // kids: x; sub
	eopNotIn2  = "notinsub"
	eopLike    = "like" // val "like"/"glob"..., kids x, pattern
	eopNotLike = "notlike"
	eopBetween = "between"
	eopNotBtw  = "notbetween"
	eopIsNull  = "isnull"
	eopNotNull = "notnull"
	eopIs      = "is"
	eopIsNot   = "isnot"
	eopCase    = "case" // kids: operand (or null marker), when, then, ..., else (or null marker)
	eopCast    = "cast" // val lower-cased type
	eopSubq    = "subq"
	eopExists  = "exists"
	eopCollate = "collate"
	eopRaw     = "raw" // anything else, compared by its text
	// eopAliasRef wraps the expression of a result alias read elsewhere in official mode
	// (quirk alias): it never equals the expression itself.
	eopAliasRef = "aliasref"
	// eopOver is a window function call: kids the function, a "partition" node and a
	// "worder" node; val the frame, "" for the default one.
	eopOver = "over"
)

func (n *enode) is(op string) bool { return n != nil && n.op == op }

// key prints a query in a canonical, unambiguous text: equal keys mean equal trees.
func (q *equery) key() string {
	b := getKeyBuf()
	defer putKeyBuf(b)
	q.write(b)
	return string(*b)
}

func (q *equery) write(b *keyBuf) {
	if q == nil {
		b.WriteString("<nil>")
		return
	}
	b.WriteString("Q(")
	for i, c := range q.cores {
		if i > 0 {
			b.WriteByte(' ')
			b.WriteString(q.ops[i-1])
			b.WriteByte(' ')
		}
		c.write(b)
	}
	if len(q.order) > 0 {
		b.WriteString(" ORDER")
		for _, o := range q.order {
			b.WriteByte(' ')
			o.x.write(b)
			if o.desc {
				b.WriteString(" desc")
			}
		}
	}
	writeClause(b, " LIMIT ", q.limit)
	writeClause(b, " OFFSET ", q.offset)
	b.WriteByte(')')
}

func (c *ecore) write(b *keyBuf) {
	b.WriteString("SELECT")
	if c.distinct {
		b.WriteString(" distinct")
	}
	writeEach(b, c.cols)
	if len(c.from) > 0 {
		b.WriteString(" FROM")
		for _, f := range c.from {
			b.WriteString(" [")
			b.WriteString(f.join)
			b.WriteByte(' ')
			if f.sub != nil {
				f.sub.write(b)
			} else {
				b.WriteString(f.table)
			}
			if f.on != nil {
				b.WriteString(" on ")
				f.on.write(b)
			}
			if len(f.using) > 0 {
				b.WriteString(" using ")
				for i, u := range f.using {
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteString(u)
				}
			}
			b.WriteByte(']')
		}
	}
	writeClause(b, " WHERE ", c.where)
	if len(c.group) > 0 {
		b.WriteString(" GROUP")
		writeEach(b, c.group)
	}
	writeClause(b, " HAVING ", c.having)
}

// writeClause writes an optional clause of a key: kw then n, when n is set.
func writeClause(b *keyBuf, kw string, n *enode) {
	if n != nil {
		b.WriteString(kw)
		n.write(b)
	}
}

// writeEach writes each of ns after a space.
func writeEach(b *keyBuf, ns []*enode) {
	for _, n := range ns {
		b.WriteByte(' ')
		n.write(b)
	}
}

func (n *enode) write(b *keyBuf) {
	if n == nil {
		b.WriteString("_")
		return
	}
	b.WriteString(n.op)
	if n.val != "" {
		b.WriteByte(':')
		writeQuotedKey(b, n.val)
	}
	if len(n.kids) > 0 || n.sub != nil {
		b.WriteByte('(')
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			k.write(b)
		}
		if n.sub != nil {
			b.WriteByte(';')
			n.sub.write(b)
		}
		b.WriteByte(')')
	}
}

// writeQuotedKey writes s so that literal text cannot collide with the key's
// punctuation: quoted, with quotes doubled, when it holds any of it.
func writeQuotedKey(b *keyBuf, s string) {
	if !needsQuote(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b.WriteString(s[:i+1])
		b.WriteByte('"')
		s = s[i+1:]
	}
	b.WriteString(s)
	b.WriteByte('"')
}

// keyPunct marks the bytes of the key's punctuation: "(),;:[] ".
var keyPunct = [256]bool{'(': true, ')': true, ',': true, ';': true, ':': true, '[': true, ']': true, ' ': true}

func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if keyPunct[s[i]] {
			return true
		}
	}
	return false
}

func (n *enode) key() string {
	b := getKeyBuf()
	defer putKeyBuf(b)
	n.write(b)
	return string(*b)
}

// sortNodes orders nodes by their keys (for commutative operands and unordered lists)
// and reports whether that changed the order of the keys. Each key is printed once, so a
// list of n operands costs n keys and n log n comparisons (an IN list of 180,000 values
// becomes an OR of as many comparisons under rule 18).
func sortNodes(ns []*enode) bool {
	// Every key is printed into one pooled buffer: no string per operand.
	buf := getKeyBuf()
	defer putKeyBuf(buf)
	type keyed struct {
		n      *enode
		lo, hi int
	}
	ks := make([]keyed, len(ns))
	for i, n := range ns {
		lo := len(*buf)
		n.write(buf)
		ks[i] = keyed{n, lo, len(*buf)}
	}
	keys := *buf
	cmp := func(a, b keyed) int { return bytes.Compare(keys[a.lo:a.hi], keys[b.lo:b.hi]) }
	if slices.IsSortedFunc(ks, cmp) {
		return false
	}
	slices.SortStableFunc(ks, cmp)
	for i, k := range ks {
		ns[i] = k.n
	}
	return true
}

// walkQuery calls f on every SELECT core of q and of its subqueries, innermost first,
// with the query the core belongs to.
func walkQuery(q *equery, f func(q *equery)) {
	if q == nil {
		return
	}
	for _, c := range q.cores {
		for _, fr := range c.from {
			walkQuery(fr.sub, f)
			walkExprQueries(fr.on, f)
		}
		coreExprQueries(c, f)
	}
	for _, o := range q.order {
		walkExprQueries(o.x, f)
	}
	f(q)
}

// coreExprQueries calls f for every subquery in c's select list, WHERE, GROUP BY and
// HAVING, in that order, at any depth (walkExprQueries).
func coreExprQueries(c *ecore, f func(sub *equery)) {
	for _, e := range c.cols {
		walkExprQueries(e, f)
	}
	walkExprQueries(c.where, f)
	for _, e := range c.group {
		walkExprQueries(e, f)
	}
	walkExprQueries(c.having, f)
}

func walkExprQueries(n *enode, f func(q *equery)) {
	if n == nil {
		return
	}
	for _, k := range n.kids {
		walkExprQueries(k, f)
	}
	walkQuery(n.sub, f)
}

// mapExprs replaces every expression of the core's clauses (not of subqueries) by f's
// result, bottom-up.
func (c *ecore) mapExprs(f func(*enode) *enode) {
	for i, e := range c.cols {
		c.cols[i] = mapExpr(e, f)
	}
	for _, fr := range c.from {
		fr.on = mapExpr(fr.on, f)
	}
	c.where = mapExpr(c.where, f)
	for i, e := range c.group {
		c.group[i] = mapExpr(e, f)
	}
	c.having = mapExpr(c.having, f)
}

func mapExpr(n *enode, f func(*enode) *enode) *enode {
	if n == nil {
		return nil
	}
	for i, k := range n.kids {
		// Most calls change nothing: skip the store (and its write barrier).
		if m := mapExpr(k, f); m != k {
			n.kids[i] = m
		}
	}
	return f(n)
}

// single reports whether q is one plain SELECT core.
func (q *equery) single() *ecore {
	if q == nil || len(q.cores) != 1 {
		return nil
	}
	return q.cores[0]
}

// conjuncts splits an AND chain.
func conjuncts(n *enode) []*enode {
	if n == nil {
		return nil
	}
	if n.op == eopAnd {
		return n.kids
	}
	return []*enode{n}
}

// andOf builds a flattened, sorted AND of ns (nil for none).
func andOf(ns ...*enode) *enode {
	var flat []*enode
	for _, n := range ns {
		if n == nil {
			continue
		}
		if n.op == eopAnd {
			flat = append(flat, n.kids...)
		} else {
			flat = append(flat, n)
		}
	}
	switch len(flat) {
	case 0:
		return nil
	case 1:
		return flat[0]
	}
	sortNodes(flat)
	return &enode{op: eopAnd, kids: flat}
}
