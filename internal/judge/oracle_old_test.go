package judge

// The comparators as they were when results were [][]any (one interface value per
// cell), kept as oracles: the differential tests (oracle_diff_test.go) check that the
// comparators on engine.Result's flat cells give the same verdicts and scores. Only
// the functions whose input changed are here; the permutation search they share
// (spiderQuickAccept, orderedColumnMatch, bagColumnMatch) works on pyTable as before.

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"
)

func oldBirdEqual(p, g [][]any) bool {
	if !birdFetchable(p) || !birdFetchable(g) {
		return false
	}
	if len(p) == 0 || len(g) == 0 {
		return len(p) == len(g)
	}
	if len(p[0]) != len(g[0]) {
		return false
	}
	if len(p) == len(g) && slices.EqualFunc(p, g, pyRowEqual) {
		return true
	}
	return oldSameRowSetHashed(p, g)
}

// birdFetchable reports whether Python's sqlite3 would fetch rows without raising: all
// text is valid UTF-8 (Quirk BIRD-utf8). Ragged rows, which no engine produces, are
// refused too.
func birdFetchable(rows [][]any) bool {
	for _, r := range rows {
		if len(r) != len(rows[0]) {
			return false
		}
		for _, v := range r {
			if s, ok := v.(string); ok && !utf8.ValidString(s) {
				return false
			}
		}
	}
	return true
}

// pyEqual is Python's == between two fetched values (text taken as it is). The common
// types are compared directly; this runs for every cell.
func pyEqual(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return intEqualsFloat(x, y)
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y // -0.0 == 0.0, as in Python
		case int64:
			return intEqualsFloat(y, x)
		}
		return false
	case nil:
		return b == nil
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	ka, _ := pyValueOf(a, textIgnore)
	kb, _ := pyValueOf(b, textIgnore)
	return ka.key == kb.key
}

func pyRowEqual(a, b []any) bool { return slices.EqualFunc(a, b, pyEqual) }

// pyHash is a hash consistent with pyEqual: an int and the float equal to it hash alike.
func pyHash(v any) uint64 {
	switch x := v.(type) {
	case string:
		return maphash.String(rowHashSeed, x)
	case int64:
		return mix64(uint64(x))
	case float64:
		pv := pyFloatVal(x)
		if pv.key.kind == pyInt {
			return mix64(pv.key.n)
		}
		return mix64(pv.key.n ^ 0x5bd1e9955bd1e995)
	case nil:
		return 0x2545f4914f6cdd1d
	case []byte:
		return maphash.Bytes(rowHashSeed, x) ^ 0x9e3779b97f4a7c15
	}
	pv, _ := pyValueOf(v, textIgnore)
	return pyHash(pyValueBack(pv))
}

// pyValueBack turns a converted value back into the engine type with the same key.
func pyValueBack(pv pyVal) any {
	switch pv.key.kind {
	case pyInt:
		return int64(pv.key.n)
	case pyFloat:
		return math.Float64frombits(pv.key.n)
	case pyStr:
		return pv.key.s
	case pyBytes:
		return []byte(pv.key.s)
	}
	return nil
}

func pyRowHash(r []any) uint64 {
	var h uint64 = 0xcbf29ce484222325
	for _, v := range r {
		h = (bits.RotateLeft64(h, 23) ^ pyHash(v)) * 0x100000001b3
	}
	return h
}

// sameRowSetHashed reports set(p) == set(g) with an open-addressing hash set of p's
// distinct rows: every g row must find an equal p row, and every distinct p row must be
// found by some g row.
func oldSameRowSetHashed(p, g [][]any) bool {
	size := 1
	for size < 2*len(p) {
		size <<= 1
	}
	mask := uint64(size - 1)
	type slot struct {
		h       uint64
		row     int32 // index into p plus one; 0 marks an empty slot
		matched bool
	}
	slots := make([]slot, size)
	distinct := 0
	for i, r := range p {
		h := pyRowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				*s = slot{h: h, row: int32(i) + 1}
				distinct++
				break
			}
			if s.h == h && pyRowEqual(p[s.row-1], r) {
				break // a duplicate row: one entry per distinct row
			}
		}
	}
	found := 0
	for _, r := range g {
		h := pyRowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				return false // r is in g but not in p
			}
			if s.h == h && pyRowEqual(p[s.row-1], r) {
				if !s.matched {
					s.matched = true
					found++
				}
				break
			}
		}
	}
	return found == distinct
}
func oldSpiderEqual(gr, pr [][]any, orderMatters bool) bool {
	if len(gr) == 0 && len(pr) == 0 {
		return true
	}
	if len(gr) != len(pr) {
		return false
	}
	// Fast paths for the common correct prediction: the same values with the same types
	// (so every row sorts the same way in quick_rej), in the same order or shuffled.
	if slices.EqualFunc(gr, pr, identicalRow) || (!orderMatters && oldSameBagIdentical(gr, pr)) {
		return true
	}
	g, ok := oldPyTableOf(gr, textIgnore)
	if !ok {
		return false
	}
	p, ok := oldPyTableOf(pr, textIgnore)
	if !ok {
		return false
	}
	if g.rows == 0 && p.rows == 0 {
		return true
	}
	if g.rows != p.rows || g.width != p.width {
		return false
	}
	if !spiderQuickAccept(&g, &p, orderMatters) {
		return false
	}
	if orderMatters {
		return orderedColumnMatch(&g, &p)
	}
	return bagColumnMatch(&g, &p)
}

// identical reports whether two fetched values are the same Python value of the same type
// with the same str(): stricter than ==, which also makes 1 equal 1.0 and -0.0 equal 0.
func identical(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case nil:
		return b == nil
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return false
}

func identicalRow(a, b []any) bool { return slices.EqualFunc(a, b, identical) }

// sameBagIdentical reports whether p is a reordering of g, row for row identical. False
// means only "not that simple": the full comparison decides.
func oldSameBagIdentical(g, p [][]any) bool {
	size := 1
	for size < 2*len(g) {
		size <<= 1
	}
	mask := uint64(size - 1)
	type slot struct {
		h     uint64
		row   int32 // index into g plus one; 0 marks an empty slot
		count int32
	}
	slots := make([]slot, size)
	for i, r := range g {
		h := pyRowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				*s = slot{h: h, row: int32(i) + 1, count: 1}
				break
			}
			if s.h == h && identicalRow(g[s.row-1], r) {
				s.count++
				break
			}
		}
	}
	for _, r := range p {
		h := pyRowHash(r)
		for k := h & mask; ; k = (k + 1) & mask {
			s := &slots[k]
			if s.row == 0 {
				return false
			}
			if s.h == h && identicalRow(g[s.row-1], r) {
				if s.count == 0 {
					return false
				}
				s.count--
				break
			}
		}
	}
	return true // as many rows in p as in g, each taken from g's counts
}

// pyTableOf converts a result; ok is false when fetching it would have raised in Python.
// A nil result is an empty one.
func oldPyTableOf(rows [][]any, mode textMode) (t pyTable, ok bool) {
	if len(rows) == 0 {
		return pyTable{}, true
	}
	t.rows = len(rows)
	t.width = len(rows[0])
	t.cells = make([]pyVal, 0, t.rows*t.width)
	for _, row := range rows {
		if len(row) != t.width { // not produced by a real engine; refuse rather than misalign
			return pyTable{}, false
		}
		for _, v := range row {
			pv, ok := pyValueOf(v, mode)
			if !ok {
				return pyTable{}, false
			}
			t.cells = append(t.cells, pv)
		}
	}
	return t, true
}

func oldSoftF1(pred, gold [][]any) float64 {
	p, ok := oldPyTableOf(pred, textStrict)
	if !ok {
		return 0
	}
	g, ok := oldPyTableOf(gold, textStrict)
	if !ok {
		return 0
	}
	if p.rows == 0 && g.rows == 0 {
		return 1
	}
	pr, gr := oldDistinctRows(&p), oldDistinctRows(&g)
	var tp, fp, fn float64
	for i, grow := range gr {
		if i >= len(pr) {
			fn++
			continue
		}
		m, po, go_ := oldRowOverlap(pr[i], grow)
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

// oldDistinctRows returns t's rows with later duplicates dropped, in first-seen order.
func oldDistinctRows(t *pyTable) [][]pyVal {
	out := make([][]pyVal, 0, t.rows)
	seen := make(map[string]struct{}, t.rows)
	var key []byte
	for i := 0; i < t.rows; i++ {
		r := t.row(i)
		key = oldAppendRowKey(key[:0], r)
		if _, dup := seen[string(key)]; dup {
			continue
		}
		seen[string(key)] = struct{}{}
		out = append(out, r)
	}
	return out
}

// oldAppendRowKey appends an encoding of the row's Python equality keys that is equal for
// two rows exactly when the rows are equal as tuples.
func oldAppendRowKey(b []byte, r []pyVal) []byte {
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

// oldRowOverlap counts, for one paired row, the prediction values found in the gold row,
// those not found, and the gold values not found in the prediction row (membership by
// Python ==, as the script's `in` tests).
func oldRowOverlap(pred, gold []pyVal) (matched, predOnly, goldOnly int) {
	for _, v := range pred {
		if oldContainsKey(gold, v.key) {
			matched++
		} else {
			predOnly++
		}
	}
	for _, v := range gold {
		if !oldContainsKey(pred, v.key) {
			goldOnly++
		}
	}
	return matched, predOnly, goldOnly
}

func oldContainsKey(row []pyVal, k pyKey) bool {
	for _, v := range row {
		if v.key == k {
			return true
		}
	}
	return false
}
