package spidersql

// Hardness levels, as evaluation.py names them.
const (
	Easy   = "easy"
	Medium = "medium"
	Hard   = "hard"
	Extra  = "extra"
)

// Hardness returns Spider's hardness of a parsed query, with evaluation.py's thresholds on
// its three counters. It returns "" for a nil query.
func Hardness(q *SQL) string {
	if q == nil {
		return ""
	}
	return hardnessLevel(countComponent1(q), countComponent2(q), countOthers(q))
}

// hardnessLevel is eval_hardness's decision on the three counters.
func hardnessLevel(c1, c2, others int) string {
	switch {
	case c1 <= 1 && others == 0 && c2 == 0:
		return Easy
	case (others <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && others < 2 && c2 == 0):
		return Medium
	case (others > 2 && c1 <= 2 && c2 == 0) ||
		(2 < c1 && c1 <= 3 && others <= 2 && c2 == 0) ||
		(c1 <= 1 && others == 0 && c2 <= 1):
		return Hard
	default:
		return Extra
	}
}

// countComponent1 is count_component1: one each for WHERE, GROUP BY, ORDER BY and LIMIT,
// one per joined table beyond the first, one per "or" and one per LIKE in the FROM, WHERE
// and HAVING conditions.
func countComponent1(q *SQL) int {
	n := 0
	if len(q.Where) > 0 {
		n++
	}
	if len(q.GroupBy) > 0 {
		n++
	}
	if q.OrderBy != nil {
		n++
	}
	if q.Limit != nil {
		n++
	}
	if len(q.From.Tables) > 0 {
		n += len(q.From.Tables) - 1
	}
	for _, c := range []Condition{q.From.Conds, q.Where, q.Having} {
		for i, it := range c {
			// Odd positions are read as conjunctions, even ones as units (conds[1::2], conds[::2]).
			if i%2 == 1 && it.Unit == nil && it.Conj == "or" {
				n++
			}
			if i%2 == 0 && it.Unit != nil && it.Unit.Op == opLike {
				n++
			}
		}
	}
	return n
}

// countComponent2 is count_component2: subqueries used as values in FROM, WHERE and HAVING
// conditions, plus INTERSECT, UNION and EXCEPT. Subqueries in FROM table units do not count.
// (A conjunction at a unit position, from malformed input, would crash the reference here;
// it is skipped.)
func countComponent2(q *SQL) int {
	n := 0
	for _, c := range []Condition{q.From.Conds, q.Where, q.Having} {
		for _, u := range c.Units() {
			if u.Val1 != nil && u.Val1.Kind == ValueSQL {
				n++
			}
			if u.Val2 != nil && u.Val2.Kind == ValueSQL {
				n++
			}
		}
	}
	for _, s := range []*SQL{q.Intersect, q.Except, q.Union} {
		if s != nil {
			n++
		}
	}
	return n
}

// countOthers is count_others: one if more than one aggregation, one if more than one
// select item, one if WHERE has more than one element, one if more than one GROUP BY column.
//
// The reference's has_agg reads element 0 of whatever it is given, which makes it count,
// besides real aggregates in SELECT, GROUP BY and ORDER BY: every WHERE unit with NOT (its
// element 0 is the not flag), and in HAVING, which is passed whole, every unit with NOT
// and every conjunction (a non-empty string). Aggregates inside WHERE and HAVING units are
// not counted. This is reproduced exactly.
func countOthers(q *SQL) int {
	aggs := 0
	for _, it := range q.Select.Items {
		if it.Agg != aggNone {
			aggs++
		}
	}
	for i, it := range q.Where {
		if i%2 == 0 && (it.Unit == nil || it.Unit.Not) {
			aggs++
		}
	}
	for _, cu := range q.GroupBy {
		if cu.Agg != aggNone {
			aggs++
		}
	}
	if q.OrderBy != nil {
		for _, vu := range q.OrderBy.Units {
			if vu.Col1.Agg != aggNone {
				aggs++
			}
			if vu.Col2 != nil && vu.Col2.Agg != aggNone {
				aggs++
			}
		}
	}
	for _, it := range q.Having {
		if it.Unit == nil || it.Unit.Not {
			aggs++
		}
	}

	n := 0
	if aggs > 1 {
		n++
	}
	if len(q.Select.Items) > 1 {
		n++
	}
	if len(q.Where) > 1 {
		n++
	}
	if len(q.GroupBy) > 1 {
		n++
	}
	return n
}
