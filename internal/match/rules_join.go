package match

import (
	"slices"
	"strings"
)

// Rules on joins and the subqueries that can replace them (Table 5, rules 13, 14, 19,
// 20 and 25), using primary and foreign keys as the database declares them.

// innerJoins reports whether every join of the core is an inner / cross / comma join.
func innerJoins(c *ecore) bool {
	for _, f := range c.from {
		if f.join != "" || len(f.using) > 0 || f.sub != nil {
			return false
		}
	}
	return true
}

// joinConds are the core's ON conditions as one conjunction list (inner joins only).
func joinConds(c *ecore) []*enode {
	var out []*enode
	for _, f := range c.from {
		out = append(out, conjuncts(f.on)...)
	}
	return out
}

// isFK reports whether child ("t.c") is a single-column foreign key referencing parent
// ("t.c"), which is its table's whole (non-composite) primary key.
func (rc *ruleCtx) isFK(child, parent *enode) bool {
	ct, cc, ok1 := splitCol(child)
	pt, pc, ok2 := splitCol(parent)
	if !ok1 || !ok2 || ct == pt {
		return false
	}
	t := rc.table(ct)
	p := rc.table(pt)
	if t == nil || p == nil || len(p.PrimaryKey) != 1 || !strings.EqualFold(p.PrimaryKey[0], pc) {
		return false
	}
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 && strings.EqualFold(fk.Columns[0], cc) && strings.EqualFold(fk.RefTable, pt) &&
			len(fk.RefColumns) == 1 && strings.EqualFold(fk.RefColumns[0], pc) {
			return true
		}
	}
	return false
}

// mentions reports whether any column of table t appears in n (subqueries included,
// since a correlated subquery may name it).
func mentions(n *enode, t string) bool { return mentionsSub(n, t, true) }

// mentionsSub is mentions, looking into subqueries only when subs.
func mentionsSub(n *enode, t string, subs bool) bool {
	if n == nil {
		return false
	}
	if n.op == eopCol && colTable(n) == t {
		return true
	}
	for _, k := range n.kids {
		if mentionsSub(k, t, subs) {
			return true
		}
	}
	return subs && n.sub != nil && strings.Contains(n.sub.key(), "col:"+t+".")
}

// coreMentions reports whether table t is named anywhere in the core or the query's
// ORDER BY, except in the conditions listed in skip (in subqueries too when subs).
func coreMentions(q *equery, c *ecore, t string, skip map[*enode]bool, subs bool) bool {
	mentions := func(n *enode, t string) bool { return mentionsSub(n, t, subs) }
	for _, e := range c.cols {
		// A star in the select list takes every table's columns (COUNT(*) takes none).
		if mentions(e, t) || (e.op == eopStar && (e.val == t || e.val == "")) {
			return true
		}
	}
	for _, f := range c.from {
		for _, d := range conjuncts(f.on) {
			if !skip[d] && mentions(d, t) {
				return true
			}
		}
	}
	for _, d := range conjuncts(c.where) {
		if !skip[d] && mentions(d, t) {
			return true
		}
	}
	for _, g := range c.group {
		if mentions(g, t) {
			return true
		}
	}
	if mentions(c.having, t) {
		return true
	}
	for _, o := range q.order {
		if mentions(o.x, t) {
			return true
		}
	}
	return false
}

// coreMentionsSwapped is coreMentions(q, c, t, nil) on the copy of c rule 14 tries: every
// column aval read as another column (which names t when bNamesT), FROM conditions
// dropped. It reads c and q without changing or copying them.
func coreMentionsSwapped(q *equery, c *ecore, t, aval string, bNamesT, subs bool) bool {
	var m func(n *enode) bool
	m = func(n *enode) bool {
		if n == nil {
			return false
		}
		if n.op == eopCol && n.val == aval {
			return bNamesT
		}
		if n.op == eopCol && colTable(n) == t {
			return true
		}
		for _, k := range n.kids {
			if m(k) {
				return true
			}
		}
		return subs && n.sub != nil && strings.Contains(n.sub.key(), "col:"+t+".")
	}
	for _, e := range c.cols {
		if m(e) || (e.op == eopStar && (e.val == t || e.val == "")) {
			return true
		}
	}
	if m(c.where) || m(c.having) {
		return true
	}
	for _, g := range c.group {
		if m(g) {
			return true
		}
	}
	for _, o := range q.order {
		if m(o.x) {
			return true
		}
	}
	return false
}

// rule14UnneededJoin is rule 14: SELECT X FROM t1 JOIN t2 ON t1.c1 = t2.c2 equals
// SELECT X FROM t2 when X uses only t2, t1.c1 is t1's (non-composite) key and t2.c2 a
// foreign key to it: every t2 row meets exactly one t1 row, so the join changes nothing.
func rule14UnneededJoin(rc *ruleCtx, q *equery) {
	// Quirk (official) rule14sub: the script does not look into subqueries for columns of
	// the table it removes (a correlated one may name it), and then renames its key to
	// the foreign key there too (even a subquery's own table's key).
	quirk := rc.quirks.has(quirkRule14Sub)
	for _, c := range q.cores {
		if len(c.from) < 2 || !innerJoins(c) {
			continue
		}
		conds := joinConds(c)
		for i, f := range c.from {
			t := f.table
			// t must appear exactly once in FROM and be joined by one key equality.
			dup := false
			for j, g := range c.from {
				if j != i && g.table == t {
					dup = true
				}
			}
			if dup {
				continue
			}
			var link *enode
			n := 0
			for _, d := range conds {
				if mentions(d, t) {
					n++
					link = d
				}
			}
			if n != 1 || !link.is(eopBin) || link.val != "=" {
				continue
			}
			a, b := link.kids[0], link.kids[1]
			if colTable(b) == t {
				a, b = b, a
			}
			if colTable(a) != t || !b.is(eopCol) || !rc.isFK(b, a) {
				continue
			}
			// Elsewhere t.c1 may be read as t2.c2, which the join makes equal (rule 19).
			// Most candidates still name t elsewhere after that swap: found without
			// cloning anything.
			// Corrected: a subquery that names t only by its key (correlated: t is in no
			// subquery's FROM) reads the foreign key instead, as rule 19 allows.
			subs, inSubs := !quirk, false
			if !quirk && !subqueryReadsTable(q, c, t) {
				subs, inSubs = false, true
			}
			if coreMentionsSwapped(q, c, t, a.val, mentions(b, t), subs) ||
				(inSubs && subqueriesMentionSwapped(q, c, t, a.val, mentions(b, t))) {
				continue
			}
			// Only what coreMentions reads and the rule keeps: the FROM items are not
			// (their ON conditions are dropped) and WHERE is rebuilt below.
			trial := &ecore{having: clone(c.having)}
			for _, e := range c.cols {
				trial.cols = append(trial.cols, clone(e))
			}
			for _, e := range c.group {
				trial.group = append(trial.group, clone(e))
			}
			swap := func(n *enode) *enode {
				if n.is(eopCol) && n.val == a.val {
					return clone(b)
				}
				return n
			}
			for i, e := range trial.cols {
				trial.cols[i] = mapExpr(e, swap)
			}
			for i, e := range trial.group {
				trial.group[i] = mapExpr(e, swap)
			}
			trial.having = mapExpr(trial.having, swap)
			var trialWhere []*enode
			for _, d := range conjuncts(c.where) {
				trialWhere = append(trialWhere, mapExpr(clone(d), swap))
			}
			trial.where = andOf(trialWhere...)
			trialQ := &equery{cores: []*ecore{trial}}
			for _, o := range q.order {
				trialQ.order = append(trialQ.order, &eorder{x: mapExpr(clone(o.x), swap), desc: o.desc})
			}
			if coreMentions(trialQ, trial, t, nil, subs) {
				continue
			}
			c.cols, c.group, c.having, c.where = trial.cols, trial.group, trial.having, trial.where
			if len(q.cores) == 1 {
				q.order = trialQ.order
			}
			if quirk || inSubs {
				swapInSubqueries(q, c, swap)
			}
			var rest []*enode
			for _, d := range conds {
				if d != link {
					rest = append(rest, d)
				}
			}
			c.from = append(c.from[:i:i], c.from[i+1:]...)
			for _, g := range c.from {
				g.on = nil
			}
			if len(c.from) > 1 {
				c.from[1].on = andOf(rest...)
			} else {
				c.joinsKey = true
			}
			rc.fire("14")
			break
		}
	}
}

// rule13InToJoin is rule 13: SELECT _ FROM t2 WHERE c2 IN (SELECT c1 FROM t1 WHERE d1)
// equals SELECT _ FROM t1 JOIN t2 ON t1.c1 = t2.c2 WHERE d1 when t1.c1 is t1's primary
// key and t2.c2 a foreign key to it; so does c2 = (SELECT c1 FROM t1 WHERE u = v) when
// t1.u is UNIQUE (one row at most). Both become the JOIN form. Like the ETM script, only
// when the IN (or =) is the whole WHERE clause of a single-table query.
//
// Quirk (official) rule13: the script also takes a column of a composite primary key for
// t1.c1, and drops the subquery's DISTINCT, GROUP BY, HAVING, ORDER BY and LIMIT, and
// its joins: t1 is then the subquery's first table (by name, inner joins sorted as its
// rule 104 does), the other tables go and d1 keeps naming them.
func rule13InToJoin(rc *ruleCtx, q *equery) {
	official := rc.quirks.has(quirkRule13)
	for _, c := range q.cores {
		if soleTable(c) == "" || c.where == nil || c.where.op == eopAnd || (rc.quirks.has(quirkJoinsKey) && c.joinsKey) {
			continue
		}
		ds := conjuncts(c.where)
		for i, d := range ds {
			c2, sub, eq := rule13Operands(d)
			if sub == nil {
				continue
			}
			inner := sub.single()
			if inner == nil || len(inner.cols) != 1 {
				continue
			}
			if !official && (inner.distinct || len(inner.group) > 0 || inner.having != nil || len(sub.order) > 0 || sub.limit != nil) {
				continue
			}
			t1 := soleTable(inner)
			if official && len(inner.from) > 1 {
				t1 = scriptFirstTable(inner)
			}
			c1 := inner.cols[0]
			if t1 == "" || colTable(c1) != t1 || !(rc.isFK(c2, c1) || (official && rc.isFKToKeyPart(c2, c1))) {
				continue
			}
			if eq {
				w := inner.where
				if !w.is(eopBin) || w.val != "=" || !w.kids[0].is(eopCol) || colTable(w.kids[0]) != t1 || !rc.unique(w.kids[0]) {
					continue
				}
			}
			already := false
			for _, f := range c.from {
				if f.table == t1 {
					already = true
				}
			}
			if already {
				continue
			}
			rest := append(append([]*enode(nil), ds[:i]...), ds[i+1:]...)
			c.from = append(c.from, &efrom{table: t1})
			ons := append(joinConds(c), &enode{op: eopBin, val: "=", kids: []*enode{clone(c1), clone(c2)}})
			for _, f := range c.from {
				f.on = nil
			}
			c.from[1].on = andOf(ons...)
			c.where = andOf(append(rest, conjuncts(inner.where)...)...)
			rc.fire("13")
			break
		}
	}
}

// rule13Operands splits a rule 13 condition: c2 IN (subquery), or c2 = (subquery) (eq).
func rule13Operands(d *enode) (c2 *enode, sub *equery, eq bool) {
	switch {
	case d.is(eopInSub) && d.kids[0].is(eopCol):
		return d.kids[0], d.sub, false
	case d.is(eopBin) && d.val == "=":
		a, b := d.kids[0], d.kids[1]
		if a.is(eopSubq) {
			a, b = b, a
		}
		if a.is(eopCol) && b.is(eopSubq) {
			return a, b.sub, true
		}
	}
	return nil, nil, false
}

// isFKToKeyPart is isFK with parent any column of its table's primary key (composite
// ones included), as the script's rule 13 checks it.
func (rc *ruleCtx) isFKToKeyPart(child, parent *enode) bool {
	ct, cc, ok1 := splitCol(child)
	pt, pc, ok2 := splitCol(parent)
	if !ok1 || !ok2 || ct == pt {
		return false
	}
	t, p := rc.table(ct), rc.table(pt)
	if t == nil || p == nil || !slices.ContainsFunc(p.PrimaryKey, func(k string) bool { return strings.EqualFold(k, pc) }) {
		return false
	}
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) >= 1 && strings.EqualFold(fk.RefTable, pt) {
			for i, col := range fk.Columns {
				if strings.EqualFold(col, cc) && i < len(fk.RefColumns) && strings.EqualFold(fk.RefColumns[i], pc) {
					return true
				}
			}
		}
	}
	return false
}

// rule25LeftJoinNull is rule 25: SELECT _ FROM t1 LEFT JOIN t2 ON t1.c1 = t2.c2 WHERE
// t2._ IS NULL equals SELECT _ FROM t1 WHERE t1.c1 NOT IN (SELECT c2 FROM t2). Both
// become the NOT IN form.
func rule25LeftJoinNull(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		if len(c.from) != 2 || c.from[0].sub != nil || c.from[1].sub != nil || c.from[1].join != "left" {
			continue
		}
		t1, t2 := c.from[0].table, c.from[1].table
		on := c.from[1].on
		if t1 == t2 || !on.is(eopBin) || on.val != "=" {
			continue
		}
		a, b := on.kids[0], on.kids[1]
		if colTable(a) == t2 {
			a, b = b, a
		}
		if colTable(a) != t1 || colTable(b) != t2 {
			continue
		}
		ds := conjuncts(c.where)
		idx := -1
		for i, d := range ds {
			if d.is(eopIsNull) && colTable(d.kids[0]) == t2 {
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		rest := append(append([]*enode(nil), ds[:idx]...), ds[idx+1:]...)
		c.from = c.from[:1]
		c.where = andOf(rest...)
		if coreMentions(q, c, t2, nil, true) {
			continue
		}
		sub := &equery{cores: []*ecore{{cols: []*enode{clone(b)}, from: []*efrom{{table: t2}}}}}
		c.where = andOf(append(rest, &enode{op: eopNotIn2, kids: []*enode{clone(a)}, sub: sub})...)
		rc.fire("25")
	}
}
