package judge

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
)

// Strict mode: what Spider 2.0's comparison means to check, without its quirks.
//   - Rows are compared as rows: a multiset of rows (a sequence when the task does not
//     ignore order), not each column sorted on its own.
//   - Each gold column (of the task's condition_cols, or all) maps to its own prediction
//     column, one to one; extra prediction columns and names are still ignored.
//   - NULL equals only NULL (not 0); a bool only a bool; a str only the same str.
//   - Numbers are equal within max(0.01, 1e-6 x the larger magnitude): the official
//     absolute 0.01, and a relative 1e-6 for large sums computed in another order.
//   - condition_cols: a flat list applies to every variant, a nested list gives
//     variant i its i-th entry, and a variant past the end of a nested list (or with an
//     empty entry) is compared on all its columns.
const (
	strictAbsTol = 0.01
	strictRelTol = 1e-6
	// strictMatchRows bounds the exact row matching used when sorting cannot decide
	// (numbers within the tolerance ordered differently); larger tables keep the
	// sorted comparison's verdict.
	strictMatchRows = 500
	// strictAssignments bounds the column mappings tried per variant.
	strictAssignments = 10000
)

type strictOptions struct {
	boolAsInt bool // a bool equals the number 0/1 (to say why the modes disagree)
}

// spider2Strict is the strict verdict.
func spider2Strict(t *dataset.Spider2Task, pred *pandascsv.Frame, golds []Spider2Gold, o strictOptions) Spider2Result {
	if len(golds) == 0 {
		return Spider2Result{Error: "no gold result file"}
	}
	unknown := false
	// The prediction's columns, sorted once for every variant.
	sortedPred := make([][]pandascsv.Value, len(pred.Columns))
	for j := range pred.Columns {
		sortedPred[j] = sortedCopy(pred.Columns[j].Values, !t.IgnoreOrder)
	}
	for i, g := range golds {
		if g.Frame == nil {
			unknown = true
			continue
		}
		cols := strictCols(t.ConditionCols, i)
		if strictTable(pred, sortedPred, g.Frame, cols, !t.IgnoreOrder, o) {
			return Spider2Result{Score: 1, Variant: g.File.Name}
		}
	}
	return Spider2Result{Unknown: unknown}
}

// strictCols is variant i's gold columns (nil: all).
func strictCols(cc any, i int) []int {
	if ccAllColumns(cc) {
		return nil
	}
	l, ok := cc.([]any)
	if !ok {
		if n, ok := pdInt(cc); ok {
			return []int{n}
		}
		return nil
	}
	if allLists(cc) {
		if i >= len(l) {
			return nil
		}
		l = l[i].([]any)
	}
	var out []int
	for _, x := range l {
		if n, ok := pdInt(x); ok {
			out = append(out, n)
		}
	}
	return out
}

// ccInts turns column indexes back into a condition_cols value.
func ccInts(cols []int) any {
	out := []any{}
	for _, c := range cols {
		out = append(out, json.Number(strconv.Itoa(c)))
	}
	return out
}

// strictTable reports whether pred holds gold's columns cols as rows.
func strictTable(pred *pandascsv.Frame, sortedPred [][]pandascsv.Value, gold *pandascsv.Frame, cols []int, ordered bool, o strictOptions) bool {
	if pred.Rows != gold.Rows {
		return false
	}
	if cols == nil {
		cols = make([]int, len(gold.Columns))
		for i := range cols {
			cols[i] = i
		}
	}
	gc := make([][]pandascsv.Value, len(cols))
	for i, c := range cols {
		if c < 0 {
			c += len(gold.Columns)
		}
		if c < 0 || c >= len(gold.Columns) {
			return false
		}
		gc[i] = gold.Columns[c].Values
	}
	if len(gc) > len(pred.Columns) {
		return false
	}
	// Candidates: prediction columns holding the same values (as a multiset, or in
	// order): necessary for any row match.
	cand := make([][]int, len(gc))
	for i, g := range gc {
		sg := sortedCopy(g, ordered)
		for j := range pred.Columns {
			if strictVecEqual(sg, sortedPred[j], o) {
				cand[i] = append(cand[i], j)
			}
		}
		if len(cand[i]) == 0 {
			return false
		}
	}
	if ordered || len(gc) == 1 {
		// Every column equal in order means every row equal, and one column's multiset
		// is its rows': any injective choice works.
		return assign(cand, func([]int) bool { return true })
	}
	tries := 0
	return assign(cand, func(m []int) bool {
		tries++
		if tries > strictAssignments {
			return false
		}
		return rowsMatch(gc, pred, m, o)
	})
}

// assign tries injective mappings gold column -> prediction column from cand, depth
// first, until ok accepts one.
func assign(cand [][]int, ok func(m []int) bool) bool {
	m := make([]int, len(cand))
	used := map[int]bool{}
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(cand) {
			return ok(m)
		}
		for _, j := range cand[i] {
			if used[j] {
				continue
			}
			used[j], m[i] = true, j
			if rec(i + 1) {
				return true
			}
			delete(used, j)
		}
		return false
	}
	return rec(0)
}

// rowsMatch compares gold's rows (its selected columns) with pred's rows (columns m)
// as multisets: both sorted (row indexes, not copies), then paired in order.
func rowsMatch(gc [][]pandascsv.Value, pred *pandascsv.Frame, m []int, o strictOptions) bool {
	n := len(gc[0])
	pc := make([][]pandascsv.Value, len(m))
	for c, j := range m {
		pc[c] = pred.Columns[j].Values
	}
	gi, pi := sortedRows(gc, n), sortedRows(pc, n)
	rowEq := func(a, b int) bool {
		for c := range gc {
			if !strictEqual(gc[c][a], pc[c][b], o) {
				return false
			}
		}
		return true
	}
	allEqual := true
	for r := range n {
		if !rowEq(gi[r], pi[r]) {
			allEqual = false
			break
		}
	}
	if allEqual || n > strictMatchRows {
		return allEqual
	}
	return rowMatching(n, rowEq)
}

// sortedRows is the row indexes of cols ordered lexicographically by cmpStrict.
func sortedRows(cols [][]pandascsv.Value, n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		for _, c := range cols {
			if r := cmpStrict(c[a], c[b]); r != 0 {
				return r
			}
		}
		return 0
	})
	return idx
}

// rowMatching reports whether every gold row can be paired with its own equal
// prediction row (Kuhn's augmenting paths): equality within a tolerance is not
// transitive, so a sort can misplace rows that do match.
func rowMatching(n int, eq func(a, b int) bool) bool {
	owner := make([]int, n) // prediction row -> gold row
	for i := range owner {
		owner[i] = -1
	}
	for a := range n {
		seen := make([]bool, n)
		var try func(a int) bool
		try = func(a int) bool {
			for b := range n {
				if seen[b] || !eq(a, b) {
					continue
				}
				seen[b] = true
				if owner[b] < 0 || try(owner[b]) {
					owner[b] = a
					return true
				}
			}
			return false
		}
		if !try(a) {
			return false
		}
	}
	return true
}

func sortedCopy(v []pandascsv.Value, ordered bool) []pandascsv.Value {
	if ordered {
		return v
	}
	out := slices.Clone(v)
	slices.SortFunc(out, cmpStrict)
	return out
}

func strictVecEqual(a, b []pandascsv.Value, o strictOptions) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strictEqual(a[i], b[i], o) {
			return false
		}
	}
	return true
}

// strictEqual: NULL only NULL, numbers within the tolerance, bools and strs exactly.
func strictEqual(a, b pandascsv.Value, o strictOptions) bool {
	if o.boolAsInt {
		if a.Type == pandascsv.Bool {
			a = pandascsv.Value{Type: pandascsv.Int, I: a.I}
		}
		if b.Type == pandascsv.Bool {
			b = pandascsv.Value{Type: pandascsv.Int, I: b.I}
		}
	}
	ra, rb := strictRank(a), strictRank(b)
	if ra != rb {
		return false
	}
	switch ra {
	case 0:
		return true
	case 1:
		return strictClose(pdFloat(a), pdFloat(b))
	case 2:
		return a.I == b.I
	}
	return a.S == b.S
}

func strictClose(a, b float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= max(strictAbsTol, strictRelTol*max(math.Abs(a), math.Abs(b)))
}

// strictRank orders kinds: NULL, numbers, bools, strs.
func strictRank(v pandascsv.Value) int {
	switch v.Type {
	case pandascsv.Null:
		return 0
	case pandascsv.Int, pandascsv.Uint, pandascsv.Float:
		return 1
	case pandascsv.Bool:
		return 2
	}
	return 3
}

// cmpStrict orders values by kind, then numbers by value, bools false first, strs by
// text.
func cmpStrict(a, b pandascsv.Value) int {
	ra, rb := strictRank(a), strictRank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch ra {
	case 1:
		return cmp.Compare(pdFloat(a), pdFloat(b))
	case 2:
		return cmp.Compare(a.I, b.I)
	case 3:
		return cmp.Compare(a.S, b.S)
	}
	return 0
}
