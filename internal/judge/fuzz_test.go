package judge

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// fuzzResult decodes bytes into a result of the shape an engine returns: 1 to 4 columns,
// at most 64 rows, each cell nil, int64, float64 (never NaN: SQLite stores NaN as NULL),
// text (possibly not UTF-8) or a blob. A tag byte picks each cell's type; the bytes after
// it give its value.
func fuzzResult(data []byte, width uint8) *engine.Result {
	n := 1 + int(width)%4
	res := &engine.Result{}
	for i := range n {
		res.Columns = append(res.Columns, string(rune('a'+i)))
	}
	next := func(k int) []byte {
		b := make([]byte, k)
		m := copy(b, data)
		data = data[m:]
		return b
	}
	var row []any
	for len(data) > 0 && res.NumRows() < 64 {
		tag := next(1)[0]
		var v any
		switch tag % 7 {
		case 0:
			v = nil
		case 1:
			v = int64(int8(next(1)[0])) // small ints repeat, so rows collide
		case 2:
			v = int64(binary.LittleEndian.Uint64(next(8)))
		case 3:
			f := math.Float64frombits(binary.LittleEndian.Uint64(next(8)))
			if math.IsNaN(f) {
				f = 0.5
			}
			v = f
		case 4:
			v = float64(int8(next(1)[0])) / 2 // floats equal to ints: 1.0 vs 1
		case 5:
			v = string(next(int(tag>>4) % 6))
		case 6:
			v = next(int(tag>>4) % 4)
		}
		row = append(row, v)
		if len(row) == n {
			res = appendRow(res, row)
			row = nil
		}
	}
	return res
}

// shuffled returns r with its rows in a random order fixed by seed.
func shuffled(r *engine.Result, seed uint64) *engine.Result {
	rows := slices.Clone(r.BoxedRows())
	rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return engine.NewResult(r.Columns, rows)
}

// allUTF8 reports whether every text cell is valid UTF-8; BIRD's comparisons score a
// result with broken text 0 even against itself (Quirk BIRD-utf8).
func allUTF8(r *engine.Result) bool {
	for _, row := range r.BoxedRows() {
		for _, v := range row {
			if s, ok := v.(string); ok && !utf8.ValidString(s) {
				return false
			}
		}
	}
	return true
}

// FuzzCompare: on generated results no comparator panics; BIRD set equality, Spider
// bag and ordered equality and the flexible comparison are reflexive, also with the
// rows shuffled where order does not count; Soft-F1 lies in [0, 1] and is 1 for a result
// against itself.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{}, []byte{}, uint8(0), uint64(0))
	f.Add([]byte{1, 5, 4, 10, 0x15, 'a', 'b'}, []byte{1, 5}, uint8(1), uint64(1))
	f.Add([]byte{1, 2, 4, 4, 1, 2, 0, 0x35, 'x', 'y', 'z'}, []byte{4, 4, 1, 2}, uint8(1), uint64(7))
	f.Add([]byte{0x25, 0xff, 0xfe, 6, 0x16, 1, 3, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f}, []byte{0x25, 'a', 'b'}, uint8(2), uint64(3))
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0x80, 3, 0, 0, 0, 0, 0, 0, 0, 0}, []byte{1, 0}, uint8(0), uint64(5))
	f.Fuzz(func(t *testing.T, a, b []byte, width uint8, seed uint64) {
		ra, rb := fuzzResult(a, width), fuzzResult(b, width)
		sa := shuffled(ra, seed)

		// No panics, whatever the pair; Soft-F1 in range.
		for _, p := range [][2]*engine.Result{{ra, rb}, {rb, ra}, {ra, nil}, {nil, rb}, {ra, {}}} {
			BirdEqual(p[0], p[1])
			SpiderEqual(p[0], p[1], false)
			SpiderEqual(p[0], p[1], true)
			FlexCompare(p[0], p[1])
			FlexCompareWith(p[0], p[1], FlexOptions{RowsAsSet: true, MissingIsNull: true})
			if s := SoftF1(p[0], p[1]); !(s >= 0 && s <= 1) {
				t.Fatalf("SoftF1 = %v, want a value in [0, 1]\npred %v\ngold %v", s, p[0], p[1])
			}
		}

		// Reflexivity.
		if allUTF8(ra) {
			if !BirdEqual(ra, ra) || !BirdEqual(sa, ra) {
				t.Fatalf("BirdEqual: a result (or its rows shuffled) differs from itself: %v", ra.BoxedRows())
			}
			if s := SoftF1(ra, ra); s != 1 {
				t.Fatalf("SoftF1(r, r) = %v, want 1: %v", s, ra.BoxedRows())
			}
		} else if BirdEqual(ra, ra) || SoftF1(ra, ra) != 0 {
			t.Fatalf("a result with text that is not UTF-8 must score 0 (Quirk BIRD-utf8): %v", ra.BoxedRows())
		}
		if !SpiderEqual(ra, ra, true) || !SpiderEqual(ra, sa, false) {
			t.Fatalf("SpiderEqual: a result (or its rows shuffled) differs from itself: %v", ra.BoxedRows())
		}
		for _, opt := range []FlexOptions{{}, {RowsAsSet: true}} {
			if v := FlexCompareWith(ra, sa, opt); v.Verdict != FlexExact {
				t.Fatalf("FlexCompareWith(%+v)(r, shuffled r) = %+v, want exact: %v", opt, v, ra.BoxedRows())
			}
		}
	})
}
