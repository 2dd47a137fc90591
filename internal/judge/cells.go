package judge

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
	"sync"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Python's equality and hashing read straight from an engine.Result's flat cells: the
// comparators that run on every pair (BIRD's set, Spider's fast paths, Soft-F1) use
// these instead of converting a whole result first, so a million-row result is never
// copied again. They agree with pyEqual/pyHash on the values engine.Result.Value returns
// (the differential fuzz test checks the comparators built on them against the former
// [][]any ones).

// cellEqual is Python's == between cell (i, j) of a and cell (k, l) of b, text taken as
// it is.
func cellEqual(a *engine.Result, i, j int, b *engine.Result, k, l int) bool {
	ka, kb := a.Kind(i, j), b.Kind(k, l)
	switch ka {
	case engine.Text:
		return kb == engine.Text && a.Text(i, j) == b.Text(k, l)
	case engine.Int:
		switch kb {
		case engine.Int:
			return a.Int(i, j) == b.Int(k, l)
		case engine.Float:
			return intEqualsFloat(a.Int(i, j), b.Float(k, l))
		}
		return false
	case engine.Float:
		switch kb {
		case engine.Float:
			return a.Float(i, j) == b.Float(k, l) // -0.0 == 0.0, NaN != NaN, as in Python
		case engine.Int:
			return intEqualsFloat(b.Int(k, l), a.Float(i, j))
		}
		return false
	case engine.Blob:
		return kb == engine.Blob && bytes.Equal(a.Bytes(i, j), b.Bytes(k, l))
	case engine.Decimal:
		// Exact: a Decimal cell is a value no int or float holds, so it equals only the
		// Decimal of the same canonical text (Python's Decimal == Decimal).
		return kb == engine.Decimal && a.Text(i, j) == b.Text(k, l)
	}
	return kb == engine.Null
}

// cellKeyEqual is equality of the cells' pyKeys: cellEqual, except that a NaN equals a
// NaN with the same bits (Soft-F1 and Spider's search compare keys, not floats).
func cellKeyEqual(a *engine.Result, i, j int, b *engine.Result, k, l int) bool {
	if a.Kind(i, j) == engine.Float && b.Kind(k, l) == engine.Float {
		return pyFloatVal(a.Float(i, j)).key == pyFloatVal(b.Float(k, l)).key
	}
	return cellEqual(a, i, j, b, k, l)
}

// rowKeyEqual is cellKeyEqual over row i of a and row k of b (same width).
func rowKeyEqual(a *engine.Result, i int, b *engine.Result, k int) bool {
	for j := range a.NumCols() {
		if !cellKeyEqual(a, i, j, b, k, j) {
			return false
		}
	}
	return true
}

// cellIdentical is identical on cells: the same value of the same type with the same
// str() (so 1 and 1.0, or 0.0 and -0.0, differ).
func cellIdentical(a *engine.Result, i, j int, b *engine.Result, k, l int) bool {
	ka := a.Kind(i, j)
	if ka != b.Kind(k, l) {
		return false
	}
	switch ka {
	case engine.Text, engine.Blob, engine.Decimal:
		return a.Text(i, j) == b.Text(k, l)
	case engine.Int:
		return a.Int(i, j) == b.Int(k, l)
	case engine.Float:
		return math.Float64bits(a.Float(i, j)) == math.Float64bits(b.Float(k, l))
	}
	return true
}

// cellHash is a hash consistent with cellEqual (and so with cellIdentical): an int and
// the float equal to it hash alike.
func cellHash(r *engine.Result, i, j int) uint64 {
	switch r.Kind(i, j) {
	case engine.Text:
		return maphash.String(rowHashSeed, r.Text(i, j))
	case engine.Int:
		return mix64(uint64(r.Int(i, j)))
	case engine.Float:
		pv := pyFloatVal(r.Float(i, j))
		if pv.key.kind == pyInt {
			return mix64(pv.key.n)
		}
		return mix64(pv.key.n ^ 0x5bd1e9955bd1e995)
	case engine.Blob:
		return maphash.String(rowHashSeed, r.Text(i, j)) ^ 0x9e3779b97f4a7c15
	case engine.Decimal:
		return maphash.String(rowHashSeed, r.Text(i, j)) ^ 0x632be59bd9b4e019
	}
	return 0x2545f4914f6cdd1d
}

// rowHash combines the cell hashes of row i in column order.
func rowHash(r *engine.Result, i int) uint64 {
	var h uint64 = 0xcbf29ce484222325
	for j := range r.NumCols() {
		h = (bits.RotateLeft64(h, 23) ^ cellHash(r, i, j)) * 0x100000001b3
	}
	return h
}

// rowEqual is Python's tuple == between row i of a and row k of b (same width).
func rowEqual(a *engine.Result, i int, b *engine.Result, k int) bool {
	for j := range a.NumCols() {
		if !cellEqual(a, i, j, b, k, j) {
			return false
		}
	}
	return true
}

// rowIdentical is cellIdentical over row i of a and row k of b (same width).
func rowIdentical(a *engine.Result, i int, b *engine.Result, k int) bool {
	for j := range a.NumCols() {
		if !cellIdentical(a, i, j, b, k, j) {
			return false
		}
	}
	return true
}

// utf8Fetchable reports whether Python's sqlite3 with its default text_factory would
// fetch r without raising: every text is valid UTF-8 (Quirk BIRD-utf8).
// The result noted its invalid texts while it was built.
func utf8Fetchable(r *engine.Result) bool { return r.TextIsUTF8() }

// rowSet is an open-addressing hash table of row indices of one result, keyed by
// rowHash and compared by eq: the building block of set and bag comparisons that never
// copy a row.
type rowSet struct {
	slots []rowSlot
	mask  uint64
}

type rowSlot struct {
	h     uint64
	row   int32 // row index plus one; 0 marks an empty slot
	count int32 // a counter for the caller (copies, or matched)
}

// slotPool keeps the slot arrays of finished row sets: the comparators of one question
// run one after another on the same results, so one table of a given size serves them
// all instead of each leaving its own behind as garbage.
var slotPool sync.Pool // of *[]rowSlot

// newRowSet returns an empty set for n rows; release gives its memory back.
func newRowSet(n int) *rowSet {
	size := 1
	for size < 2*n {
		size <<= 1
	}
	if p, ok := slotPool.Get().(*[]rowSlot); ok {
		if cap(*p) >= size {
			s := (*p)[:size]
			clear(s)
			return &rowSet{slots: s, mask: uint64(size - 1)}
		}
		slotPool.Put(p)
	}
	return &rowSet{slots: make([]rowSlot, size), mask: uint64(size - 1)}
}

// release returns the set's slots to the pool; the set must not be used after.
func (s *rowSet) release() {
	slots := s.slots
	s.slots = nil
	slotPool.Put(&slots)
}

// find returns the slot of the row equal to row i of r (eq decides, against the stored
// row index), or the empty slot where it belongs (row == 0).
func (s *rowSet) find(h uint64, eq func(stored int) bool) *rowSlot {
	for k := h & s.mask; ; k = (k + 1) & s.mask {
		sl := &s.slots[k]
		if sl.row == 0 || (sl.h == h && eq(int(sl.row-1))) {
			return sl
		}
	}
}
