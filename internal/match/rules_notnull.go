package match

// Rules that hold when a column is NOT NULL (Table 5, rules 6-9), as the database
// declares it (or as an INTEGER PRIMARY KEY, which never is NULL).

// rule6CountColumn is rule 6: COUNT(c1) equals COUNT(*) when c1 is NOT NULL.
func rule6CountColumn(rc *ruleCtx, q *equery) {
	in := func(c *ecore) func(n *enode) *enode {
		return func(n *enode) *enode {
			if n.is(eopFunc) && n.val == "count" && len(n.kids) == 1 && n.kids[0].is(eopCol) && rc.notNullIn(c, n.kids[0]) {
				n.kids[0] = &enode{op: eopStar}
				rc.fire("6")
			}
			return n
		}
	}
	forCores(q, in)
}

// forCores applies the per-core mapping in(c) to every clause of each core of q, and
// to the query's ORDER BY (read in its single core, if it has one).
func forCores(q *equery, in func(c *ecore) func(*enode) *enode) {
	for _, c := range q.cores {
		c.mapExprs(in(c))
	}
	f := in(q.single())
	for _, o := range q.order {
		o.x = mapExpr(o.x, f)
	}
}

// rule7NotNullCondition is rule 7: WHERE c1 IS NOT NULL is always true when c1 is NOT
// NULL, so the condition is dropped.
func rule7NotNullCondition(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		var keep []*enode
		changed := false
		for _, d := range conjuncts(c.where) {
			if d.is(eopNotNull) && d.kids[0].is(eopCol) && rc.notNullIn(c, d.kids[0]) {
				changed = true
				continue
			}
			keep = append(keep, d)
		}
		if changed {
			c.where = andOf(keep...)
			rc.fire("7")
		}
	}
}

// rule8AvgFromSumCount is rule 8: CAST(SUM(c1) AS FLOAT) / COUNT(*) equals AVG(c1) when
// c1 is NOT NULL (REAL and DOUBLE casts alike).
func rule8AvgFromSumCount(rc *ruleCtx, q *equery) {
	forCores(q, func(c *ecore) func(*enode) *enode { return func(n *enode) *enode { return avgFromSumCount(rc, c, n) } })
}

func avgFromSumCount(rc *ruleCtx, c *ecore, n *enode) *enode {
	if !n.is(eopBin) || n.val != "/" {
		return n
	}
	num, den := n.kids[0], n.kids[1]
	if num.is(eopCast) && isFloatType(num.val) {
		num = num.kids[0]
	} else {
		return n
	}
	if !num.is(eopFunc) || num.val != "sum" || len(num.kids) != 1 || !num.kids[0].is(eopCol) || !rc.notNullIn(c, num.kids[0]) {
		return n
	}
	if !den.is(eopFunc) || den.val != "count" || len(den.kids) != 1 ||
		!(den.kids[0].is(eopStar) || den.kids[0].key() == num.kids[0].key()) {
		return n
	}
	rc.fire("8")
	return &enode{op: eopFunc, val: "avg", kids: []*enode{num.kids[0]}}
}

func isFloatType(t string) bool {
	switch t {
	case "float", "real", "double", "double precision", "decimal", "numeric":
		return true
	}
	return false
}

// rule9CountCase is rule 9: COUNT(CASE WHEN d1 THEN 1/c1 ELSE NULL END) equals
// SUM(CASE WHEN d1 THEN 1 ELSE 0 END) when c1 is NOT NULL. Both become the SUM form.
func rule9CountCase(rc *ruleCtx, q *equery) {
	forCores(q, func(c *ecore) func(*enode) *enode { return func(n *enode) *enode { return countCase(rc, c, n) } })
}

func countCase(rc *ruleCtx, c *ecore, n *enode) *enode {
	if !n.is(eopFunc) || n.val != "count" || len(n.kids) != 1 {
		return n
	}
	cs := n.kids[0]
	if !cs.is(eopCase) || len(cs.kids) != 4 || !cs.kids[0].is(eopNull) || !cs.kids[3].is(eopNull) {
		return n
	}
	then := cs.kids[2]
	if !(then.is(eopNum) && then.val == "1") && !(then.is(eopCol) && rc.notNullIn(c, then)) {
		return n
	}
	rc.fire("9")
	return &enode{op: eopFunc, val: "sum", kids: []*enode{{op: eopCase, kids: []*enode{
		{op: eopNull}, cs.kids[1], {op: eopNum, val: "1"}, {op: eopNum, val: "0"}}}}}
}
