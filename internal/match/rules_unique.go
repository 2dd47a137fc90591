package match

import "strings"

// Rules that hold when a column is UNIQUE (Table 5, rules 1-5): a column alone forming
// the primary key or a unique index of its table, as the database declares it.

// soleTable returns the only FROM item's table of a core ("" when there are several
// items, or a subquery).
func soleTable(c *ecore) string {
	if len(c.from) != 1 || c.from[0].sub != nil {
		return ""
	}
	return c.from[0].table
}

func colTable(n *enode) string {
	t, _, _ := splitCol(n)
	return t
}

// rule1MinMaxSubquery is rule 1: SELECT _ FROM t1 WHERE c1 = (SELECT MIN/MAX(c1) FROM
// t1) equals SELECT _ FROM t1 ORDER BY c1 ASC/DESC LIMIT 1 when c1 is UNIQUE (one row
// holds the extreme value). Both become the ORDER BY form.
func rule1MinMaxSubquery(rc *ruleCtx, q *equery) {
	c := q.single()
	if c == nil || c.where == nil || len(q.order) > 0 || q.limit != nil || len(c.group) > 0 || c.having != nil {
		return
	}
	t := soleTable(c)
	w := c.where
	if t == "" || !w.is(eopBin) || w.val != "=" {
		return
	}
	col, sub := w.kids[0], w.kids[1]
	if !sub.is(eopSubq) {
		col, sub = sub, col
	}
	if !sub.is(eopSubq) || !col.is(eopCol) || colTable(col) != t || !rc.unique(col) {
		return
	}
	inner := sub.sub.single()
	if inner == nil || soleTable(inner) != t || inner.where != nil || len(inner.group) > 0 || len(inner.cols) != 1 {
		return
	}
	// The subquery is MIN/MAX(c1), or already its rule-10 form ORDER BY c1 LIMIT 1.
	var desc bool
	switch agg := inner.cols[0]; {
	case len(sub.sub.order) == 0 && sub.sub.limit == nil && agg.is(eopFunc) && (agg.val == "min" || agg.val == "max") &&
		len(agg.kids) == 1 && agg.kids[0].key() == col.key():
		desc = agg.val == "max"
	case len(sub.sub.order) == 1 && sub.sub.limit.is(eopNum) && sub.sub.limit.val == "1" && sub.sub.offset == nil &&
		agg.key() == col.key() && sub.sub.order[0].x.key() == col.key():
		desc = sub.sub.order[0].desc
	default:
		return
	}
	c.where = nil
	q.order = []*eorder{{x: clone(col), desc: desc}}
	q.limit = &enode{op: eopNum, val: "1"}
	rc.fire("1")
}

// rule2DistinctUnique is rule 2: SELECT DISTINCT c1 FROM t1 equals SELECT c1 FROM t1
// when c1 is UNIQUE (any selected column being unique keeps the rows distinct). The
// same holds inside an aggregate over t1 alone: COUNT(DISTINCT c1) equals COUNT(c1).
// GROUP BY does not prevent it (every row is in one group, so groups selecting a unique
// column select distinct values), as in the script.
func rule2DistinctUnique(rc *ruleCtx, q *equery) {
	in := func(c *ecore) func(*enode) *enode {
		return func(n *enode) *enode {
			if n.is(eopFunc) && strings.HasSuffix(n.val, "+distinct") && len(n.kids) == 1 &&
				(rc.unique(n.kids[0]) || rc.uniqueInGroup(c, n.kids[0])) {
				n.val = strings.TrimSuffix(n.val, "+distinct")
				rc.fire("2")
			}
			return n
		}
	}
	skip := func(c *ecore) bool { return soleTable(c) == "" || (rc.quirks.has(quirkJoinsKey) && c.joinsKey) }
	for _, c := range q.cores {
		if !skip(c) {
			c.mapExprs(in(c))
		}
	}
	if c := q.single(); c != nil && !skip(c) {
		f := in(c)
		for _, o := range q.order {
			o.x = mapExpr(o.x, f)
		}
	}
	for _, c := range q.cores {
		if !c.distinct || skip(c) {
			continue
		}
		t := soleTable(c)
		if t == "" {
			continue
		}
		for _, e := range c.cols {
			if colTable(e) == t && rc.unique(e) {
				c.distinct = false
				rc.fire("2")
				break
			}
		}
	}
}

// uniqueInGroup reports whether column n is unique within each group of core c (corrected
// mode): c reads one table t, and n with c's GROUP BY columns of t covers a key of t. A
// composite key (A, B) makes A unique within each group of GROUP BY B, so COUNT(DISTINCT
// A) there equals COUNT(A). The script does not know this.
func (rc *ruleCtx) uniqueInGroup(c *ecore, n *enode) bool {
	if rc.quirks.has(quirkCompositeKey) || c == nil || len(c.group) == 0 {
		return false
	}
	t, col, ok := splitCol(n)
	if !ok || t != soleTable(c) {
		return false
	}
	cols := []string{col}
	for _, g := range c.group {
		if gt, gc, ok := splitCol(g); ok && gt == t {
			cols = append(cols, gc)
		}
	}
	return len(cols) > 1 && rc.table(t).IsUnique(cols...)
}

// rule3SetOpToCondition is rule 3: SELECT c1 FROM t1 WHERE d1 INTERSECT / UNION SELECT
// c1 FROM t1 WHERE d2 equals SELECT c1 FROM t1 WHERE d1 AND / OR d2 when c1 is UNIQUE.
func rule3SetOpToCondition(rc *ruleCtx, q *equery) {
	if len(q.cores) != 2 || (q.ops[0] != "intersect" && q.ops[0] != "union") {
		return
	}
	a, b := q.cores[0], q.cores[1]
	t := soleTable(a)
	if t == "" || soleTable(b) != t || len(a.cols) != 1 || len(b.cols) != 1 || a.where == nil || b.where == nil ||
		len(a.group)+len(b.group) > 0 || a.having != nil || b.having != nil {
		return
	}
	if a.cols[0].key() != b.cols[0].key() || colTable(a.cols[0]) != t || !rc.unique(a.cols[0]) {
		return
	}
	if q.ops[0] == "intersect" {
		a.where = andOf(a.where, b.where)
	} else {
		a.where = &enode{op: eopOr, kids: []*enode{a.where, b.where}}
	}
	a.distinct = false
	q.cores, q.ops = []*ecore{a}, nil
	rc.fire("3")
}

// rule4GroupByUnique is rule 4: GROUP BY c1, c2, ... equals GROUP BY c1 when c1 is
// UNIQUE: every other column of c1's table is determined by c1 (columns of other
// tables stay). Like the ETM script, not applied under an ORDER BY.
func rule4GroupByUnique(rc *ruleCtx, q *equery) {
	// Quirk (official) rule10: an ORDER BY c1 LIMIT 1 with c1 selected is MAX/MIN(c1) to
	// the script, so no ORDER BY for its rule 4.
	if len(q.order) > 0 && !(rc.quirks.has(quirkRule10) && rule10Shape(q)) {
		return
	}
	for _, c := range q.cores {
		if len(c.group) < 2 {
			continue
		}
		var key *enode
		for _, g := range c.group {
			if rc.unique(g) {
				key = g
				break
			}
		}
		if key == nil {
			continue
		}
		if rc.quirks.has(quirkRule4) {
			// Quirk (official) rule4: the script keeps the unique column alone, dropping
			// GROUP BY columns of other tables too (which changes the groups).
			if len(c.group) > 1 {
				c.group = []*enode{key}
				rc.fire("4")
			}
			continue
		}
		t := colTable(key)
		out := []*enode{key}
		for _, g := range c.group {
			if g != key && colTable(g) != t {
				out = append(out, g)
			}
		}
		if len(out) != len(c.group) {
			c.group = out
			rc.fire("4")
		}
	}
}

// rule10Shape reports whether q is ORDER BY x LIMIT 1 with x selected: the script's rule
// 10 makes it MIN/MAX(x) without ORDER BY.
func rule10Shape(q *equery) bool {
	c := q.single()
	if c == nil || len(q.order) != 1 || q.offset != nil || !q.limit.is(eopNum) || q.limit.val != "1" {
		return false
	}
	k := q.order[0].x.key()
	for _, e := range c.cols {
		if e.key() == k {
			return true
		}
	}
	return false
}

// rule5ExceptToNotIn is rule 5: SELECT c1 FROM t1 EXCEPT (q1) equals SELECT c1 FROM t1
// WHERE c1 NOT IN (q1) when c1 is UNIQUE and NOT NULL.
func rule5ExceptToNotIn(rc *ruleCtx, q *equery) {
	if len(q.cores) != 2 || q.ops[0] != "except" {
		return
	}
	a := q.cores[0]
	t := soleTable(a)
	if t == "" || len(a.cols) != 1 || len(a.group) > 0 || a.having != nil {
		return
	}
	col := a.cols[0]
	if colTable(col) != t || !rc.unique(col) || !rc.notNull(col) {
		return
	}
	inner := &equery{cores: []*ecore{q.cores[1]}}
	a.where = andOf(a.where, &enode{op: eopNotIn2, kids: []*enode{clone(col)}, sub: inner})
	a.distinct = false
	q.cores, q.ops = []*ecore{a}, nil
	rc.fire("5")
}
