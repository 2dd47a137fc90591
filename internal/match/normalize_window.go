package match

import (
	"strings"

	"github.com/sqlc-dev/meyer/ast"
)

// Window functions: f(...) OVER (PARTITION BY ... ORDER BY ... frame). The call becomes
// an eopOver node whose kids are the function, a "partition" node and a "worder" node
// (one "asc"/"desc" node per term), and whose val is the frame as SQL text ("" when none
// is written). The equivalence rules reach inside (COUNT(c) OVER ... is COUNT(*) OVER ...
// when c is NOT NULL, rule 19 replaces joined columns in PARTITION BY, ...). A named
// window (OVER w, WINDOW w AS ...) is not modelled: such a query matches nothing.
//
// The ETM script parses OVER and compares it as written (a prediction identical to the
// gold matches), so official mode keeps PARTITION BY in its order and the frame as
// written. Corrected mode also knows that the order of PARTITION BY columns does not
// matter, that the default frame may be written out, and that ranking functions ignore
// frames (normalizeWindow).

const (
	eopPartition = "partition"
	eopWOrder    = "worder"
)

// window lowers f's OVER clause around the already lowered call fn.
func (l *lowerer) window(w *ast.WindowDef, fn *enode, sc *lscope) (*enode, error) {
	if w.NameOnly || w.Base != nil || w.Name != nil {
		return nil, errUnsupported
	}
	part, err := l.exprs(w.Partition, sc)
	if err != nil {
		return nil, err
	}
	ord := &enode{op: eopWOrder}
	for _, t := range w.OrderBy {
		if t == nil {
			continue
		}
		x, err := l.expr(t.Expr, sc)
		if err != nil {
			return nil, err
		}
		dir := "asc"
		if t.Order == ast.SortDesc {
			dir = "desc"
		}
		switch t.Nulls {
		case ast.NullsFirst:
			dir += " nulls first"
		case ast.NullsLast:
			dir += " nulls last"
		}
		ord.kids = append(ord.kids, &enode{op: dir, kids: []*enode{x}})
	}
	out := &enode{op: eopOver, kids: []*enode{fn, {op: eopPartition, kids: part}, ord}}
	if w.Frame != ast.FrameNone {
		frame := &ast.WindowDef{Frame: w.Frame, StartBound: w.StartBound, EndBound: w.EndBound, Exclude: w.Exclude}
		out.val = strings.ToLower(strings.Join(strings.Fields(ast.String(frame)), " "))
	}
	if !l.quirks.has(quirkWindow) {
		normalizeWindow(out)
	}
	return out, nil
}

// rankingFuncs ignore the frame (SQLite's built-in window functions other than the
// aggregates and first_value / last_value / nth_value).
var rankingFuncs = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true,
}

// normalizeWindow is corrected mode's normal form of an OVER node: PARTITION BY as a set
// (sorted), and no frame where the one written is the default (RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW, or RANGE UNBOUNDED PRECEDING) or the function ignores it.
func normalizeWindow(n *enode) {
	n.kids[1].val = "set" // canon keeps it sorted (commute)
	sortNodes(n.kids[1].kids)
	switch {
	case rankingFuncs[n.kids[0].val]:
		n.val = ""
	case n.val == "range between unbounded preceding and current row", n.val == "range unbounded preceding":
		n.val = ""
	}
}
