package match

import (
	"regexp"
	"strconv"
	"strings"
)

// Rules on literals, operators and functions (Table 5, rules 12, 15-18, 22-24). None
// needs an assumption beyond the one stated on rule 12 and 16, which the literal itself
// shows.

var plainNumber = regexp.MustCompile(`^-?[1-9][0-9]*(\.[0-9]+)?$|^-?0\.[0-9]+$|^0$`)

// rule12NumericString is rule 12: c1 = '5' equals c1 = 5 when the text is a number that
// does not start with a zero (so '007' stays text). It applies to the operands of
// comparisons and IN lists.
func rule12NumericString(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		c.mapExprs(func(n *enode) *enode {
			if !(n.op == eopBin && isComparison(n.val)) && n.op != eopIn && n.op != eopNotIn {
				return n
			}
			for _, k := range n.kids {
				if k.op == eopStr && plainNumber.MatchString(k.val) {
					k.op = eopNum
					rc.fire("12")
				}
			}
			return n
		})
	}
}

func isComparison(op string) bool {
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// rule15Substr is rule 15: SUBSTR(c1, 1, a) = x AND SUBSTR(c1, b, c) >/</>=/<= y, with
// a + 1 = b, equals c1 >/</>=/<= xy (a prefix fixed, the next part compared).
func rule15Substr(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		c.mapExprs(func(n *enode) *enode {
			if n.op != eopAnd {
				return n
			}
			for i, a := range n.kids {
				col, start, length, x, ok := substrCompare(a, "=")
				if !ok || start != 1 {
					continue
				}
				for j, b := range n.kids {
					if j == i || !b.is(eopBin) || !isComparison(b.val) || b.val == "=" || b.val == "<>" {
						continue
					}
					col2, start2, _, y, ok := substrCompare(b, b.val)
					if !ok || start2 != length+1 || col2.key() != col.key() {
						continue
					}
					merged := &enode{op: eopBin, val: b.val, kids: []*enode{col, {op: eopStr, val: x + y}}}
					var rest []*enode
					for k, e := range n.kids {
						if k != i && k != j {
							rest = append(rest, e)
						}
					}
					rc.fire("15")
					if len(rest) == 0 {
						return merged
					}
					return &enode{op: eopAnd, kids: append(rest, merged)}
				}
			}
			return n
		})
	}
}

// substrCompare matches SUBSTR(col, start, len) <op> 'text'.
func substrCompare(n *enode, op string) (col *enode, start, length int, text string, ok bool) {
	if !n.is(eopBin) || n.val != op || len(n.kids) != 2 {
		return
	}
	f, lit := n.kids[0], n.kids[1]
	if !isSubstr(f) {
		f, lit = lit, f
	}
	if !isSubstr(f) || (lit.op != eopStr && lit.op != eopNum) || len(f.kids) != 3 {
		return
	}
	s, err1 := strconv.Atoi(f.kids[1].val)
	l, err2 := strconv.Atoi(f.kids[2].val)
	if err1 != nil || err2 != nil || !f.kids[1].is(eopNum) || !f.kids[2].is(eopNum) {
		return
	}
	return f.kids[0], s, l, lit.val, true
}

func isSubstr(n *enode) bool {
	return n.is(eopFunc) && (n.val == "substr" || n.val == "substring")
}

// rule16LikePrefix is rule 16: SUBSTR(c1, 1, n) = 'x' equals c1 LIKE 'x%' when x has n
// characters and no LIKE wildcard.
func rule16LikePrefix(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		c.mapExprs(func(n *enode) *enode {
			col, start, length, x, ok := substrCompare(n, "=")
			if !ok || start != 1 || len([]rune(x)) != length || strings.ContainsAny(x, "%_") {
				return n
			}
			rc.fire("16")
			return &enode{op: eopLike, val: "like", kids: []*enode{col, {op: eopStr, val: x + "%"}}}
		})
	}
}

// rule17Julianday is rule 17: ORDER BY JULIANDAY(c1) equals ORDER BY c1.
func rule17Julianday(rc *ruleCtx, q *equery) {
	for _, o := range q.order {
		if o.x.is(eopFunc) && o.x.val == "julianday" && len(o.x.kids) == 1 {
			o.x = o.x.kids[0]
			rc.fire("17")
		}
	}
}

// rule18InList is rule 18: c1 IN (x, y, ...) equals c1 = x OR c1 = y OR ..., and
// c1 NOT IN (x, y) equals c1 != x AND c1 != y.
func rule18InList(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		c.mapExprs(func(n *enode) *enode {
			if (n.op != eopIn && n.op != eopNotIn) || len(n.kids) < 2 {
				return n
			}
			op, join := "=", eopOr
			if n.op == eopNotIn {
				op, join = "<>", eopAnd
			}
			out := &enode{op: join}
			for _, v := range n.kids[1:] {
				out.kids = append(out.kids, &enode{op: eopBin, val: op, kids: []*enode{clone(n.kids[0]), v}})
			}
			rc.fire("18")
			if len(out.kids) == 1 {
				return out.kids[0]
			}
			return out
		})
	}
}

// rule22Between is rule 22: c1 BETWEEN x AND y equals c1 >= x AND c1 <= y.
func rule22Between(rc *ruleCtx, q *equery) {
	for _, c := range q.cores {
		c.mapExprs(func(n *enode) *enode {
			switch n.op {
			case eopBetween:
				rc.fire("22")
				return &enode{op: eopAnd, kids: []*enode{
					{op: eopBin, val: ">=", kids: []*enode{n.kids[0], n.kids[1]}},
					{op: eopBin, val: "<=", kids: []*enode{clone(n.kids[0]), n.kids[2]}},
				}}
			case eopNotBtw:
				rc.fire("22")
				return &enode{op: eopOr, kids: []*enode{
					{op: eopBin, val: "<", kids: []*enode{n.kids[0], n.kids[1]}},
					{op: eopBin, val: ">", kids: []*enode{clone(n.kids[0]), n.kids[2]}},
				}}
			}
			return n
		})
	}
}

var negatedComparison = map[string]string{"=": "<>", "<>": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}

var negatedOp = map[string]string{
	eopIn: eopNotIn, eopNotIn: eopIn, eopInSub: eopNotIn2, eopNotIn2: eopInSub, eopLike: eopNotLike,
	eopNotLike: eopLike, eopBetween: eopNotBtw, eopNotBtw: eopBetween, eopIsNull: eopNotNull,
	eopNotNull: eopIsNull, eopIs: eopIsNot, eopIsNot: eopIs,
}

// not lowers NOT x. Rule 23: NOT c1 op x equals c1 <negated op> x (for =, !=, <, <=, >,
// >=, and the negatable forms IN, LIKE, BETWEEN, IS NULL); NOT NOT x is x.
func (l *lowerer) not(x *enode) *enode { return negate(l.fire, x) }

// negate is NOT x with rule 23 applied (x is changed in place).
func negate(fire func(string), x *enode) *enode {
	switch {
	case x.op == eopBin && negatedComparison[x.val] != "":
		fire("23")
		x.val = negatedComparison[x.val]
		return x
	case negatedOp[x.op] != "":
		fire("23")
		x.op = negatedOp[x.op]
		return x
	case x.op == eopNot:
		fire("23")
		return x.kids[0]
	}
	return &enode{op: eopNot, kids: []*enode{x}}
}

// funcRules rewrites function calls as they are lowered. Rule 24: IIF(d1, x, y) equals
// CASE WHEN d1 THEN x ELSE y END.
func (l *lowerer) funcRules(f *enode) *enode {
	if f.val == "iif" && len(f.kids) == 3 {
		l.fire("24")
		return &enode{op: eopCase, kids: []*enode{{op: eopNull}, f.kids[0], f.kids[1], f.kids[2]}}
	}
	return f
}
