package judge

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// SoftF1Gold is a gold result prepared for Soft-F1: its distinct rows are found once, on
// the first Score, so a question's systems share the work. Not safe for concurrent use
// (a question's systems are judged one after another).
type SoftF1Gold struct {
	res      *engine.Result
	distinct []int32 // distinctRows(res); nil until the first Score
}

// NewSoftF1Gold prepares gold for Soft-F1.
func NewSoftF1Gold(gold *engine.Result) *SoftF1Gold { return &SoftF1Gold{res: gold} }

// Score is the BIRD mini-dev release's Soft-F1 (evaluation_f1.py) of a prediction's
// result against the gold result: partial credit for results that share values.
//
// Both results empty scores 1. Otherwise duplicate rows are dropped, keeping the first
// occurrence (rows compare as Python tuples: 1 == 1.0, text never equals a blob), and row
// i of the prediction is paired with row i of the gold. Within a pair, each prediction
// value found anywhere in the gold row counts as matched, each other prediction value as
// prediction-only, and each gold value absent from the prediction row as gold-only, all
// three divided by the gold row's width. A gold row without a partner adds 1 gold-only,
// a prediction row without one adds 1 prediction-only. Precision, recall and F1 follow
// from the three sums (0 where a denominator is 0).
//
// Row order matters (pairing is positional), exactly as in the official script; so a
// query without ORDER BY can score differently on another engine or plan.
//
// Quirk (BIRD-utf8, as for BirdEqual): TEXT that is not valid UTF-8 in either result
// makes Python's sqlite3 raise while fetching, which the official script scores 0.
//
// It reads both results in place: duplicates are found through a hash set of row indices
// and values compared cell by cell, so no result is copied.
func (g *SoftF1Gold) Score(pred *engine.Result) float64 {
	gold := g.res
	if !utf8Fetchable(pred) || !utf8Fetchable(gold) {
		return 0
	}
	if pred.NumRows() == 0 && gold.NumRows() == 0 {
		return 1
	}
	if g.distinct == nil {
		g.distinct = distinctRows(gold)
	}
	gr := g.distinct
	pr := distinctRows(pred)
	var tp, fp, fn float64
	w := float64(gold.NumCols())
	for i, g := range gr {
		if i >= len(pr) {
			fn++
			continue
		}
		m, po, go_ := rowOverlap(pred, int(pr[i]), gold, int(g))
		tp += float64(m) / w
		fp += float64(po) / w
		fn += float64(go_) / w
	}
	if extra := len(pr) - len(gr); extra > 0 {
		fp += float64(extra)
	}
	var precision, recall float64
	if tp+fp > 0 {
		precision = tp / (tp + fp)
	}
	if tp+fn > 0 {
		recall = tp / (tp + fn)
	}
	if precision+recall == 0 {
		return 0
	}
	return 2 * precision * recall / (precision + recall)
}

// distinctRows returns the indices of r's rows with later duplicates (Python tuple ==)
// dropped, in first-seen order. Rows compare by their cells' keys, as the script's
// set of tuples does for the values SQLite returns.
func distinctRows(r *engine.Result) []int32 {
	n := r.NumRows()
	out := make([]int32, 0, n)
	set := newRowSet(n)
	defer set.release()
	for i := range n {
		h := rowHash(r, i)
		sl := set.find(h, func(k int) bool { return rowKeyEqual(r, k, r, i) })
		if sl.row == 0 {
			*sl = rowSlot{h: h, row: int32(i) + 1}
			out = append(out, int32(i))
		}
	}
	return out
}

// rowOverlap counts, for prediction row pi paired with gold row gi, the prediction
// values found in the gold row, those not found, and the gold values not found in the
// prediction row (membership by Python ==, as the script's `in` tests).
func rowOverlap(pred *engine.Result, pi int, gold *engine.Result, gi int) (matched, predOnly, goldOnly int) {
	for j := range pred.NumCols() {
		if cellIn(pred, pi, j, gold, gi) {
			matched++
		} else {
			predOnly++
		}
	}
	for j := range gold.NumCols() {
		if !cellIn(gold, gi, j, pred, pi) {
			goldOnly++
		}
	}
	return matched, predOnly, goldOnly
}

// cellIn reports whether cell (i, j) of a equals some cell of row k of b.
func cellIn(a *engine.Result, i, j int, b *engine.Result, k int) bool {
	for l := range b.NumCols() {
		if cellKeyEqual(a, i, j, b, k, l) {
			return true
		}
	}
	return false
}
