package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pyrepr"
)

// The official BIRD and Spider scripts compare results as Python tuples fetched by
// Python's sqlite3 module. This file gives engine values Python's equality and Python's
// str(), so the comparators can reproduce those scripts exactly.

// pyKind is the Python type a value has after fetching (before int/float folding).
type pyKind uint8

const (
	pyNone    pyKind = iota // None
	pyInt                   // int (and, in a pyKey, any float equal to an int64)
	pyFloat                 // float
	pyStr                   // str
	pyBytes                 // bytes
	pyDecimal               // decimal.Decimal: a value no int or float holds exactly (engine.Decimal)
)

// pyKey is a value's identity under Python's == and hash: two engine values are equal
// in Python exactly when their keys are equal. Ints and integral floats fold together
// (1 == 1.0, -0.0 == 0); any other float stays a float compared by its bits; str never
// equals bytes; a Decimal (canonical text) equals only the same Decimal, since the engine
// keeps every decimal an int or a float holds exactly as that int or float.
type pyKey struct {
	kind pyKind
	n    uint64 // int64 bits for pyInt, float64 bits for pyFloat
	s    string // content for pyStr and pyBytes; canonical text for pyDecimal
}

// pyVal is one fetched cell: its equality key plus what Python's str() needs.
type pyVal struct {
	key  pyKey
	kind pyKind  // the type Python would report (int or float before folding)
	f    float64 // the float value when kind is pyFloat
}

// textMode says how TEXT values reach Python.
type textMode uint8

const (
	// textStrict is sqlite3's default text_factory (BIRD): invalid UTF-8 raises.
	textStrict textMode = iota
	// textIgnore decodes with errors="ignore" (Spider's exec_eval.py): invalid bytes vanish.
	textIgnore
)

// pyValueOf converts one engine value. ok is false when Python's sqlite3 would have
// raised while fetching it (invalid UTF-8 text under textStrict).
func pyValueOf(v any, mode textMode) (pv pyVal, ok bool) {
	switch x := v.(type) {
	case nil:
		return pyVal{kind: pyNone}, true
	case int64:
		return pyVal{key: pyKey{kind: pyInt, n: uint64(x)}, kind: pyInt}, true
	case float64:
		return pyFloatVal(x), true
	case string:
		if !utf8.ValidString(x) {
			if mode == textStrict {
				return pyVal{}, false
			}
			x = strings.ToValidUTF8(x, "")
		}
		return pyVal{key: pyKey{kind: pyStr, s: x}, kind: pyStr}, true
	case []byte:
		return pyVal{key: pyKey{kind: pyBytes, s: string(x)}, kind: pyBytes}, true
	case engine.DecimalText:
		return pyVal{key: pyKey{kind: pyDecimal, s: string(x)}, kind: pyDecimal}, true
	// The engine promises only the types above; the rest keeps odd drivers from panicking.
	case int:
		return pyValueOf(int64(x), mode)
	case int32:
		return pyValueOf(int64(x), mode)
	case float32:
		return pyFloatVal(float64(x)), true
	case bool:
		if x {
			return pyValueOf(int64(1), mode)
		}
		return pyValueOf(int64(0), mode)
	default:
		return pyValueOf(fmt.Sprint(x), mode)
	}
}

// pyFloatVal folds a float that equals an int64 into an int key, as Python's
// int/float equality and hashing do.
func pyFloatVal(f float64) pyVal {
	pv := pyVal{kind: pyFloat, f: f}
	// -2^63 is exactly representable; 2^63 is not an int64.
	if f == math.Trunc(f) && f >= -9223372036854775808.0 && f < 9223372036854775808.0 {
		pv.key = pyKey{kind: pyInt, n: uint64(int64(f))}
	} else {
		pv.key = pyKey{kind: pyFloat, n: math.Float64bits(f)}
	}
	return pv
}

// appendPyStrType appends str(x) + str(type(x)), the key Spider's unorder_row sorts by.
func appendPyStrType(b []byte, v *pyVal) []byte {
	switch v.kind {
	case pyNone:
		return append(b, "None<class 'NoneType'>"...)
	case pyInt:
		b = strconv.AppendInt(b, int64(v.key.n), 10)
		return append(b, "<class 'int'>"...)
	case pyFloat:
		b = pyrepr.AppendFloat(b, v.f)
		return append(b, "<class 'float'>"...)
	case pyStr:
		b = append(b, v.key.s...)
		return append(b, "<class 'str'>"...)
	case pyDecimal:
		// str(Decimal) keeps the driver's trailing zeros, which the canonical text has
		// dropped: the sort key may differ from Python's for such a value.
		b = append(b, v.key.s...)
		return append(b, "<class 'decimal.Decimal'>"...)
	default:
		b = appendPyBytesRepr(b, v.key.s)
		return append(b, "<class 'bytes'>"...)
	}
}

// appendPyBytesRepr appends Python's repr of a bytes value: b'...' (or b"..." when the
// content has a single quote and no double quote), escaping the quote, backslash, \t \n
// \r, and other bytes outside printable ASCII as \xhh.
func appendPyBytesRepr(b []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	const hexdig = "0123456789abcdef"
	b = append(b, 'b', quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b = append(b, '\\', c)
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < ' ' || c >= 0x7f:
			b = append(b, '\\', 'x', hexdig[c>>4], hexdig[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, quote)
}

// pyTable is a fetched result: rows × width cells, row-major.
type pyTable struct {
	rows, width int
	cells       []pyVal
}

func (t *pyTable) row(i int) []pyVal { return t.cells[i*t.width : (i+1)*t.width] }

// pyTableOf converts a result; ok is false when fetching it would have raised in Python.
// A nil result is an empty one. It copies the whole result, so it serves only the
// comparisons that need Python's view of every cell at once (Spider's permutation
// search, once its fast paths failed); Soft-F1 and BIRD read the result in place.
func pyTableOf(r *engine.Result, mode textMode) (t pyTable, ok bool) {
	if r.NumRows() == 0 {
		return pyTable{}, true
	}
	t.rows = r.NumRows()
	t.width = r.NumCols()
	t.cells = make([]pyVal, 0, t.rows*t.width)
	for i := range t.rows {
		for j := range t.width {
			pv, ok := pyCellOf(r, i, j, mode)
			if !ok {
				return pyTable{}, false
			}
			t.cells = append(t.cells, pv)
		}
	}
	return t, true
}

// pyCellOf is pyValueOf of cell (i, j), without boxing it; a text shares r's memory
// unless invalid bytes must be dropped.
func pyCellOf(r *engine.Result, i, j int, mode textMode) (pyVal, bool) {
	switch r.Kind(i, j) {
	case engine.Int:
		return pyVal{key: pyKey{kind: pyInt, n: uint64(r.Int(i, j))}, kind: pyInt}, true
	case engine.Float:
		return pyFloatVal(r.Float(i, j)), true
	case engine.Text:
		return pyValueOf(r.Text(i, j), mode)
	case engine.Blob:
		return pyVal{key: pyKey{kind: pyBytes, s: r.Text(i, j)}, kind: pyBytes}, true
	case engine.Decimal:
		return pyVal{key: pyKey{kind: pyDecimal, s: r.Text(i, j)}, kind: pyDecimal}, true
	}
	return pyVal{kind: pyNone}, true
}

func rowsEqual(a, b []pyVal) bool {
	for i := range a {
		if a[i].key != b[i].key {
			return false
		}
	}
	return true
}
