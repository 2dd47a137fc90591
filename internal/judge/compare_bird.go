package judge

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"

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
	var p, g [][]any
	if pred != nil {
		p = pred.Rows
	}
	if gold != nil {
		g = gold.Rows
	}
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
	return sameRowSetHashed(p, g)
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

// intEqualsFloat is Python's exact int == float.
func intEqualsFloat(i int64, f float64) bool {
	pv := pyFloatVal(f)
	return pv.key.kind == pyInt && int64(pv.key.n) == i
}

func pyRowEqual(a, b []any) bool { return slices.EqualFunc(a, b, pyEqual) }

var rowHashSeed = maphash.MakeSeed()

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

// mix64 is a 64-bit finaliser (splitmix64's).
func mix64(h uint64) uint64 {
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
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
func sameRowSetHashed(p, g [][]any) bool {
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
