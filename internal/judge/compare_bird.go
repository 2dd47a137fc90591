package judge

import (
	"hash/maphash"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// BirdEqual is BIRD's execution accuracy (evaluation_ex.py, calculate_ex): the predicted
// and gold rows compared as Python sets of tuples. Row order and duplicates never matter;
// column order does. Values compare as in Python: 1 == 1.0, -0.0 == 0, an int equals a
// float only when they are mathematically equal, text equals text only byte for byte,
// and text never equals a blob. Two empty results are equal. A nil result is empty.
//
// Quirk (BIRD-utf8): BIRD fetches with sqlite3's default text_factory, which raises
// "Could not decode to UTF-8" on TEXT that is not valid UTF-8, and the script then scores
// the question 0. So invalid UTF-8 text anywhere in either result makes this false, even
// when both results are byte-identical. A strict mode would compare the bytes instead.
//
// It runs once per prediction and gold pair, so it avoids per-value allocation: rows are
// compared in place, first in order (the common case of a correct prediction), then as
// sets of row hashes, every hash match confirmed by comparing the rows themselves.
func BirdEqual(pred, gold *engine.Result) bool {
	if !utf8Fetchable(pred) || !utf8Fetchable(gold) {
		return false
	}
	np, ng := pred.NumRows(), gold.NumRows()
	if np == 0 || ng == 0 {
		return np == ng
	}
	if pred.NumCols() != gold.NumCols() {
		return false
	}
	if np == ng && sameRowsInOrder(pred, gold) {
		return true
	}
	return sameRowSetHashed(pred, gold)
}

// sameRowsInOrder reports whether row i of p equals row i of g for every i (same counts).
func sameRowsInOrder(p, g *engine.Result) bool {
	for i := range p.NumRows() {
		if !rowEqual(p, i, g, i) {
			return false
		}
	}
	return true
}

// intEqualsFloat is Python's exact int == float.
func intEqualsFloat(i int64, f float64) bool {
	pv := pyFloatVal(f)
	return pv.key.kind == pyInt && int64(pv.key.n) == i
}

var rowHashSeed = maphash.MakeSeed()

// mix64 is a 64-bit finaliser (splitmix64's).
func mix64(h uint64) uint64 {
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

// sameRowSetHashed reports set(p) == set(g) with a hash set of p's distinct rows: every
// g row must find an equal p row, and every distinct p row must be found by some g row.
func sameRowSetHashed(p, g *engine.Result) bool {
	set := newRowSet(p.NumRows())
	defer set.release()
	distinct := 0
	for i := range p.NumRows() {
		sl := set.find(rowHash(p, i), func(k int) bool { return rowEqual(p, k, p, i) })
		if sl.row == 0 {
			*sl = rowSlot{h: rowHash(p, i), row: int32(i) + 1}
			distinct++
		} // else a duplicate row: one entry per distinct row
	}
	found := 0
	for i := range g.NumRows() {
		sl := set.find(rowHash(g, i), func(k int) bool { return rowEqual(p, k, g, i) })
		if sl.row == 0 {
			return false // row i is in g but not in p
		}
		if sl.count == 0 {
			sl.count = 1
			found++
		}
	}
	return found == distinct
}
