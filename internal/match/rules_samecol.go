package match

import "strings"

// Rules that read a condition or a column as another one it equals (Table 5, rules 19
// and 20).

// rule19JoinedColumn is rule 19: SELECT t1.c1 FROM t1 JOIN t2 ON t1.c1 = t2.c2 equals
// SELECT t2.c2 ...: columns an inner join makes equal are interchangeable in the select
// list, WHERE, GROUP BY, HAVING and ORDER BY. Each is replaced by the smallest (by key) of its class.
// In a compound query each branch uses its own joins, as the script (which runs its
// rules on each branch of a UNION / INTERSECT / EXCEPT); the compound's ORDER BY names
// result columns, which no branch's join renames.
func rule19JoinedColumn(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		f := rule19Map(rc, c)
		if f == nil {
			continue
		}
		for i, e := range c.cols {
			c.cols[i] = mapExpr(e, f)
		}
		for i, e := range c.group {
			c.group[i] = mapExpr(e, f)
		}
		c.where = mapExpr(c.where, f)
		c.having = mapExpr(c.having, f)
		if len(q.cores) == 1 {
			for _, o := range q.order {
				o.x = mapExpr(o.x, f)
			}
		}
	}
}

// rule19Map returns the replacement rule 19 makes in core c (nil when its joins make no
// columns equal).
func rule19Map(rc *ruleCtx, c *ecore) func(*enode) *enode {
	if len(c.from) < 2 || !innerJoins(c) {
		return nil
	}
	rep := map[string]*enode{}
	for _, d := range joinConds(c) {
		if !d.is(eopBin) || d.val != "=" || !d.kids[0].is(eopCol) || !d.kids[1].is(eopCol) {
			continue
		}
		a, b := d.kids[0], d.kids[1]
		if b.val < a.val {
			a, b = b, a
		}
		if r, ok := rep[a.val]; ok {
			a = r
		}
		if cur, ok := rep[b.val]; !ok || a.val < cur.val {
			rep[b.val] = a
		}
	}
	if len(rep) == 0 {
		return nil
	}
	return func(n *enode) *enode {
		if n.is(eopCol) {
			if r, ok := rep[n.val]; ok {
				rc.fire("19")
				return clone(r)
			}
		}
		return n
	}
}

// rule20SelfIn is rule 20: SELECT _ FROM t1 WHERE c1 IN (SELECT c1 FROM t1 WHERE d1)
// equals SELECT _ FROM t1 WHERE d1. Corrected mode: when the IN is one conjunct of the
// WHERE of t1 alone, the subquery reads t1 alone (no GROUP BY, no LIMIT), c1 is NOT NULL
// (a NULL c1 is never IN), and either c1 is UNIQUE (the row the subquery finds is the
// outer row itself) or the core selects c1 alone into a set (DISTINCT, or a branch of
// UNION / INTERSECT / EXCEPT): the set of c1 values is then the same.
func rule20SelfIn(rc *ruleCtx, q *equery) {
	if rc.quirks.has(quirkRule20) {
		rule20Script(rc, q)
		return
	}
	for _, c := range q.cores {
		t := soleTable(c)
		if t == "" {
			continue
		}
		ds := conjuncts(c.where)
		for i, d := range ds {
			if !d.is(eopInSub) || !rc.notNull(d.kids[0]) || !(rc.unique(d.kids[0]) || selectsSetOf(q, c, d.kids[0])) {
				continue
			}
			inner := d.sub.single()
			if inner == nil || soleTable(inner) != t || len(inner.cols) != 1 || inner.cols[0].key() != d.kids[0].key() ||
				len(inner.group) > 0 || d.sub.limit != nil {
				continue
			}
			rest := append(append([]*enode(nil), ds[:i]...), ds[i+1:]...)
			c.where = andOf(append(rest, conjuncts(inner.where)...)...)
			rc.fire("20")
			break
		}
	}
}

// rule20Script is rule 20 as the script applies it. Quirk (official) rule20: wherever
// t1.c1 [NOT] IN (SELECT t1.c1 FROM t1 ... WHERE d1) stands in WHERE (under AND, OR or
// NOT, whatever the outer FROM), it becomes d1 (NOT d1), when the subquery's first FROM
// table is t1: the subquery's joins, GROUP BY, HAVING and LIMIT are ignored, and c1 need
// not be UNIQUE. So NOT IN (a subquery over a join) becomes a plain (negated) predicate
// on the joined table. A subquery without WHERE stays.
func rule20Script(rc *ruleCtx, q *equery) {
	f := func(n *enode) *enode {
		if !(n.is(eopInSub) || n.is(eopNotIn2)) || !n.kids[0].is(eopCol) {
			return n
		}
		inner := n.sub.single()
		if inner == nil || len(inner.cols) != 1 || inner.cols[0].key() != n.kids[0].key() || inner.where == nil ||
			scriptFirstTable(inner) != colTable(n.kids[0]) {
			return n
		}
		rc.fire("20")
		w := clone(inner.where)
		if n.is(eopNotIn2) {
			return negate(rc.fire, w)
		}
		return w
	}
	for _, c := range q.cores {
		c.where = mapExpr(c.where, f)
	}
}

// scriptFirstTable is the table the script sees first in a core's FROM: its rule 104
// sorts inner joins by table name (a derived table first), so the first is the least
// name; an outer join keeps the order written. "" for a derived table.
func scriptFirstTable(c *ecore) string {
	if len(c.from) == 0 {
		return ""
	}
	if !innerJoins(c) {
		return c.from[0].table
	}
	first := ""
	for _, f := range c.from {
		if f.sub != nil {
			return ""
		}
		if first == "" || f.table < first {
			first = f.table
		}
	}
	return first
}

// selectsSetOf reports whether core c of q selects column x alone (every item is x) into
// a set: DISTINCT, or a branch of a compound query none of whose operators keeps
// duplicates (ALL).
func selectsSetOf(q *equery, c *ecore, x *enode) bool {
	for _, e := range c.cols {
		if e.key() != x.key() {
			return false
		}
	}
	if c.distinct {
		return true
	}
	if len(q.cores) < 2 {
		return false
	}
	for _, op := range q.ops {
		if strings.HasSuffix(op, " all") {
			return false
		}
	}
	return true
}
