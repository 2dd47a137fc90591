package match

// Rules on set operations and common table expressions (Table 5, rules 21 and 26).

// rule21SelfSetOp is rule 21: q1 UNION / INTERSECT q1 equals q1. (Strictly the set
// operator also removes duplicate rows; Table 5 states the rule without that condition
// and so does this implementation.)
func rule21SelfSetOp(rc *ruleCtx, q *equery) {
	if len(q.cores) != 2 || (q.ops[0] != "union" && q.ops[0] != "intersect") {
		return
	}
	if q.cores[0].key() != q.cores[1].key() {
		return
	}
	q.cores, q.ops = q.cores[:1], nil
	rc.fire("21")
}

func (c *ecore) key() string {
	b := getKeyBuf()
	defer putKeyBuf(b)
	c.write(b)
	return string(*b)
}

// Rule 26 (WITH q AS (q1) SELECT _ FROM q equals SELECT _ FROM (q1)) is applied while
// lowering: a CTE named in FROM is replaced by its body, lowered where it is used, so a
// CTE and the same subquery written inline have the same normal form (lowerer.fromItem).
