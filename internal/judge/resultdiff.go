package judge

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// maxDiffKeyRows bounds the rows whose normalised text keys DiffResults builds (the
// near-values and column-order checks); larger results are still matched as bags in
// place, without a copy, and get one of the row kinds.
const maxDiffKeyRows = 100_000

// DiffResults says how pred differs from gold (record.DiffKinds, first that applies).
// Rows are matched as bags under Python's == (cells.go); orderMatters is the gold's
// ORDER BY under Spider's semantics. Both results are the judge's, already under its
// row and byte caps.
func DiffResults(pred, gold *engine.Result, orderMatters bool) record.Diff {
	d := record.Diff{PredCols: pred.NumCols(), GoldCols: gold.NumCols()}
	np, ng := pred.NumRows(), gold.NumRows()
	switch {
	case np == 0 && ng > 0:
		d.Kind, d.Missing = record.DiffEmpty, ng
		return d
	case d.PredCols != d.GoldCols:
		d.Kind = record.DiffColumnCount
		return d
	}
	d.Missing, d.Extra = bagDifference(pred, gold)
	switch {
	case d.Missing == 0 && d.Extra == 0:
		d.Kind = record.DiffOtherSameRows
		if orderMatters && !sameRowsInOrder(pred, gold) {
			d.Kind = record.DiffRowOrder
		}
	case sameRowSetHashed(pred, gold):
		d.Kind = record.DiffDuplicates
	case np <= maxDiffKeyRows && ng <= maxDiffKeyRows && sameKeys(pred, gold, false):
		d.Kind = record.DiffNearValues
	case d.PredCols > 1 && np <= maxDiffKeyRows && ng <= maxDiffKeyRows && sameKeys(pred, gold, true):
		d.Kind = record.DiffColumnOrder
	case d.Extra == 0:
		d.Kind = record.DiffMissingRows
	case d.Missing == 0:
		d.Kind = record.DiffExtraRows
	default:
		d.Kind = record.DiffMissingExtra
	}
	return d
}

// bagDifference counts gold rows with no equal predicted row (missing) and predicted
// rows with no equal gold row (extra), each row matched at most once.
func bagDifference(pred, gold *engine.Result) (missing, extra int) {
	set := newRowSet(gold.NumRows())
	defer set.release()
	for i := range gold.NumRows() {
		h := rowHash(gold, i)
		sl := set.find(h, func(k int) bool { return rowEqual(gold, k, gold, i) })
		if sl.row == 0 {
			*sl = rowSlot{h: h, row: int32(i) + 1}
		}
		sl.count++
	}
	for i := range pred.NumRows() {
		sl := set.find(rowHash(pred, i), func(k int) bool { return rowEqual(gold, k, pred, i) })
		if sl.row == 0 || sl.count == 0 {
			extra++
			continue
		}
		sl.count--
	}
	for _, sl := range set.slots {
		if sl.row != 0 {
			missing += int(sl.count)
		}
	}
	return missing, extra
}

// sameKeys reports whether the two results hold the same rows as bags once every cell
// is normalised (numbers rounded to 2 decimals, text lower-cased with its whitespace
// collapsed); anyOrder also sorts each row's cells, so columns may be permuted.
func sameKeys(pred, gold *engine.Result, anyOrder bool) bool {
	if pred.NumRows() != gold.NumRows() {
		return false
	}
	count := make(map[string]int, gold.NumRows())
	for i := range gold.NumRows() {
		count[rowKey(gold, i, anyOrder)]++
	}
	for i := range pred.NumRows() {
		k := rowKey(pred, i, anyOrder)
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

func rowKey(r *engine.Result, i int, anyOrder bool) string {
	cells := make([]string, r.NumCols())
	for j := range cells {
		cells[j] = cellKey(r, i, j)
	}
	if anyOrder {
		slices.Sort(cells)
	}
	return strings.Join(cells, "\x1f")
}

// cellKey is a cell's normalised text: a number to 2 decimals, a text lower-cased with
// its whitespace collapsed (a text that reads as a number counts as that number).
func cellKey(r *engine.Result, i, j int) string {
	num := func(f float64) string {
		return "n" + strconv.FormatFloat(math.Round(f*100)/100+0, 'f', -1, 64)
	}
	switch r.Kind(i, j) {
	case engine.Null:
		return "z"
	case engine.Int:
		return num(float64(r.Int(i, j)))
	case engine.Float:
		return num(r.Float(i, j))
	case engine.Decimal, engine.Text:
		t := strings.ToLower(strings.Join(strings.Fields(r.Text(i, j)), " "))
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return num(f)
		}
		return "t" + t
	}
	return "b" + r.Text(i, j)
}
