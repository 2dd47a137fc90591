package match

// Rule 14 and the subqueries of the core whose join it removes: the script does not look
// into them (quirk rule14sub); corrected mode reads a correlated reference to the removed
// table's key as the foreign key.

// subExprs calls f for every subquery core c (and q's ORDER BY, when q has c alone)
// reads, at any depth.
func subExprs(q *equery, c *ecore, f func(sub *equery)) {
	coreExprQueries(c, f)
	if len(q.cores) == 1 {
		for _, o := range q.order {
			walkExprQueries(o.x, f)
		}
	}
}

// swapInSubqueries applies f to every expression of the subqueries core c reads.
func swapInSubqueries(q *equery, c *ecore, f func(*enode) *enode) {
	subExprs(q, c, func(sub *equery) {
		for _, sc := range sub.cores {
			sc.mapExprs(f)
		}
		for _, o := range sub.order {
			o.x = mapExpr(o.x, f)
		}
	})
}

// subqueryReadsTable reports whether a subquery core c reads has table t in a FROM:
// then its columns of t cannot be told from the outer t's.
func subqueryReadsTable(q *equery, c *ecore, t string) bool {
	found := false
	subExprs(q, c, func(sub *equery) {
		for _, sc := range sub.cores {
			for _, f := range sc.from {
				if f.sub == nil && f.table == t {
					found = true
				}
			}
		}
	})
	return found
}

// subqueriesMentionSwapped reports whether a subquery core c reads names table t once
// column aval is read as another column (which names t when bNamesT).
func subqueriesMentionSwapped(q *equery, c *ecore, t, aval string, bNamesT bool) bool {
	found := false
	check := func(n *enode) *enode {
		if n.op == eopCol && (n.val == aval && bNamesT || n.val != aval && colTable(n) == t) {
			found = true
		}
		return n
	}
	subExprs(q, c, func(sub *equery) {
		for _, sc := range sub.cores {
			sc.mapExprs(check)
		}
		for _, o := range sub.order {
			mapExpr(o.x, check)
		}
	})
	return found
}
