package match

import "strings"

// Rules that need a table's contents or column list (Table 5, rules 10 and 11).

// rule10MinMaxToOrderLimit is rule 10: SELECT MIN/MAX(c1), _ FROM t1 equals SELECT c1,
// _ FROM t1 ORDER BY c1 ASC/DESC LIMIT 1 when t1 is not empty (so the aggregate has a
// row to come from). Both become the ORDER BY form. The other selected items must be
// plain columns (SQLite takes them from the row holding the extreme). As in the ETM
// script, a WHERE clause or inner joins do not prevent it; every table joined must be
// non-empty.
func rule10MinMaxToOrderLimit(rc *ruleCtx, q *equery) {
	c := q.single()
	if c == nil || len(q.order) > 0 || q.limit != nil || len(c.from) == 0 {
		return
	}
	// Quirk (official) rule10: the script rewrites ORDER BY c1 LIMIT 1 into MIN/MAX(c1)
	// whatever else the query has: GROUP BY and HAVING (one row against one per group),
	// DISTINCT, outer joins, empty tables, other aggregates selected.
	if !rc.quirks.has(quirkRule10) {
		if len(c.group) > 0 || c.having != nil || c.distinct || !innerJoins(c) {
			return
		}
		for _, f := range c.from {
			if !rc.db.tableNonEmpty(rc.ctx, f.table) {
				return
			}
		}
	}
	idx := -1
	for i, e := range c.cols {
		switch {
		case e.is(eopFunc) && (e.val == "min" || e.val == "max") && len(e.kids) == 1 && (e.kids[0].is(eopCol) || rc.quirks.has(quirkRule10)):
			if idx >= 0 {
				return
			}
			idx = i
		case e.is(eopCol), rc.quirks.has(quirkRule10):
		default:
			return
		}
	}
	if idx < 0 {
		return
	}
	agg := c.cols[idx]
	c.cols[idx] = agg.kids[0]
	q.order = []*eorder{{x: clone(agg.kids[0]), desc: agg.val == "max"}}
	q.limit = &enode{op: eopNum, val: "1"}
	rc.fire("10")
}

// rule11StarToColumns is rule 11: SELECT * FROM t1 equals SELECT c1, c2, ... FROM t1
// when t1 consists of exactly c1, c2, ...: a star (or t.*) in a select list becomes the
// table's columns.
func rule11StarToColumns(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		var out []*enode
		changed := false
		for _, e := range c.cols {
			if !e.is(eopStar) {
				out = append(out, e)
				continue
			}
			var cols []*enode
			ok := true
			for _, f := range c.from {
				if e.val != "" && f.table != e.val {
					continue
				}
				t := rc.table(f.table)
				if f.sub != nil || t == nil {
					ok = false
					break
				}
				for _, col := range t.Columns {
					cols = append(cols, &enode{op: eopCol, val: f.table + "." + strings.ToLower(col.Name)})
				}
			}
			if !ok || len(cols) == 0 {
				out = append(out, e)
				continue
			}
			out = append(out, cols...)
			changed = true
		}
		if changed {
			c.cols = out
			rc.fire("11")
		}
	}
}
