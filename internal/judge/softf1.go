package judge

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// SoftF1 is the BIRD mini-dev release's Soft-F1 (evaluation_f1.py) of a prediction's
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
func SoftF1(pred, gold *engine.Result) float64 {
	p, ok := pyTableOf(pred, textStrict)
	if !ok {
		return 0
	}
	g, ok := pyTableOf(gold, textStrict)
	if !ok {
		return 0
	}
	if p.rows == 0 && g.rows == 0 {
		return 1
	}
	pr, gr := distinctRows(&p), distinctRows(&g)
	var tp, fp, fn float64
	for i, grow := range gr {
		if i >= len(pr) {
			fn++
			continue
		}
		m, po, go_ := rowOverlap(pr[i], grow)
		w := float64(len(grow))
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

// distinctRows returns t's rows with later duplicates dropped, in first-seen order.
func distinctRows(t *pyTable) [][]pyVal {
	out := make([][]pyVal, 0, t.rows)
	seen := make(map[string]struct{}, t.rows)
	var key []byte
	for i := 0; i < t.rows; i++ {
		r := t.row(i)
		key = appendRowKey(key[:0], r)
		if _, dup := seen[string(key)]; dup {
			continue
		}
		seen[string(key)] = struct{}{}
		out = append(out, r)
	}
	return out
}

// appendRowKey appends an encoding of the row's Python equality keys that is equal for
// two rows exactly when the rows are equal as tuples.
func appendRowKey(b []byte, r []pyVal) []byte {
	for _, v := range r {
		b = append(b, byte(v.key.kind))
		for s := 0; s < 64; s += 8 {
			b = append(b, byte(v.key.n>>s))
		}
		n := len(v.key.s)
		b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24), byte(n>>32), byte(n>>40))
		b = append(b, v.key.s...)
	}
	return b
}

// rowOverlap counts, for one paired row, the prediction values found in the gold row,
// those not found, and the gold values not found in the prediction row (membership by
// Python ==, as the script's `in` tests).
func rowOverlap(pred, gold []pyVal) (matched, predOnly, goldOnly int) {
	for _, v := range pred {
		if containsKey(gold, v.key) {
			matched++
		} else {
			predOnly++
		}
	}
	for _, v := range gold {
		if !containsKey(pred, v.key) {
			goldOnly++
		}
	}
	return matched, predOnly, goldOnly
}

func containsKey(row []pyVal, k pyKey) bool {
	for _, v := range row {
		if v.key == k {
			return true
		}
	}
	return false
}
