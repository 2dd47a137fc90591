package match

// Preprocessing rules that are orderings (Table 5, P2 / P4 / P5). The others (P0, P1,
// P3, P6, P7, P8) hold by construction of the normal form: see lowerer.

// canon puts q and its subqueries in canonical order. It is idempotent, and run after
// every round of equivalence rules so that rules comparing subtrees compare canonical
// ones.
func canon(q *equery, fire func(string)) {
	walkQuery(q, func(q *equery) {
		for _, c := range q.cores {
			c.mapExprs(func(n *enode) *enode { return commute(n, fire) })
			for _, o := range q.order {
				o.x = mapExpr(o.x, func(n *enode) *enode { return commute(n, fire) })
			}
			sortSelectList(c, fire)
			sortJoins(c, fire)
		}
	})
}

// sortSelectList is P2: SELECT c1, c2 = SELECT c2, c1.
func sortSelectList(c *ecore, fire func(string)) {
	if len(c.cols) < 2 {
		return
	}
	if sortNodes(c.cols) {
		fire("P2")
	}
}

// sortJoins is P4: t1 JOIN t2 = t2 JOIN t1. Only when every join is an inner (or comma,
// or cross) join: their ON conditions then form one conjunction, whichever join they
// were written on. Outer joins keep their order.
func sortJoins(c *ecore, fire func(string)) {
	if len(c.from) < 2 {
		return
	}
	var ons []*enode
	for _, f := range c.from {
		if f.join != "" || len(f.using) > 0 {
			return
		}
		ons = append(ons, f.on)
		f.on = nil
	}
	before := ""
	for _, f := range c.from {
		before += fromKey(f)
	}
	keys := make(map[*efrom]string, len(c.from))
	for _, f := range c.from {
		keys[f] = fromKey(f)
	}
	sortFrom(c.from, keys)
	c.from[1].on = andOf(ons...)
	after := ""
	for _, f := range c.from {
		after += fromKey(f)
	}
	if after != before {
		fire("P4")
	}
}

func sortFrom(fs []*efrom, keys map[*efrom]string) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && keys[fs[j]] < keys[fs[j-1]]; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

func fromKey(f *efrom) string {
	if f.sub != nil {
		return "(" + f.sub.key() + ")"
	}
	return f.table
}

// commute is P5: x = y, x AND y, x OR y are commutative (AND / OR also associative:
// the normal form keeps them flattened).
func commute(n *enode, fire func(string)) *enode {
	switch {
	case n.op == eopAnd || n.op == eopOr:
		flatKids := make([]*enode, 0, len(n.kids))
		for _, k := range n.kids {
			if k.op == n.op {
				flatKids = append(flatKids, k.kids...)
			} else {
				flatKids = append(flatKids, k)
			}
		}
		n.kids = flatKids
		if len(n.kids) == 1 {
			return n.kids[0]
		}
		if sortNodes(n.kids) {
			fire("P5")
		}
	case n.op == eopPartition && n.val == "set": // corrected mode's PARTITION BY
		sortNodes(n.kids)
	case n.op == eopBin && n.val == "=":
		if keyLess(n.kids[1], n.kids[0]) {
			n.kids[0], n.kids[1] = n.kids[1], n.kids[0]
			fire("P5")
		}
	}
	return n
}
