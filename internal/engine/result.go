package engine

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode/utf8"
	"unsafe"
)

// Result is what a query returned: column names and a table of values held flat, not as
// an interface value per cell (see the design note below). A value is one of the kinds
// Null, Int (int64), Float (float64), Text (a string holding exactly the bytes stored: it
// may be invalid UTF-8), Blob ([]byte) or Decimal (an exact number neither int64 nor
// float64 holds, from a server's NUMERIC or DECIMAL: decimal.go); a column may mix kinds,
// as SQLite allows.
//
// Design: a million-row result held as [][]any costs an interface value, a boxed number
// or a string header per cell, and a slice header per row: about 120 bytes per row of
// three columns, several hundred megabytes for a pair of large results. Here the cells
// sit row-major in three flat stores: one kind byte per cell, one uint64 per cell (the
// int64 or float64 bits, or for text and blobs where they are in the arena) and one byte
// arena holding every text and blob as a uvarint length followed by the bytes. Each
// store grows in fixed-size chunks (chunk.go), so reading a large result never copies
// what it already holds nor leaves the smaller copies behind as garbage. A
// 3-column row of an int, a short text and a real costs about 40 bytes. Readers use
// NumRows/NumCols and the typed accessors (Kind, Int, Float, Text, Bytes) in hot loops;
// Value and Row box values and are for small results and code that is not hot.
//
// Every engine builds its Result with a ResultBuilder (Append* then EndRow per row), so a
// new engine only has to map its driver's values to the five kinds (AppendValue does the
// usual Go types). A Result is immutable once built.
type Result struct {
	Columns []string

	width, rows int
	kinds       chunked[Kind]   // rows*width, row-major
	nums        chunked[uint64] // rows*width: int64 or float64 bits, arenaRef for Text and Blob
	arena       arena           // text and blob bytes, each preceded by its uvarint length
	// missing holds the cell indices (row*width+col), ascending, of cells that were
	// MISSING (a field the result document lacks; SQL++ only). Such a cell is Null, so
	// every comparator that ignores MISSING treats it as NULL. Nil for SQL engines.
	missing []int
	// invalidText holds the cell indices, ascending, of Text cells that are not valid
	// UTF-8: found once while building, so comparators that must treat such a result
	// specially (Python's sqlite3 cannot fetch it) need not scan every text again.
	invalidText []int
}

// Kind is the type of one value of a Result.
type Kind uint8

// The kinds of value. Null is the zero Kind.
const (
	Null Kind = iota
	Int
	Float
	Text
	Blob
	Decimal // its canonical text (DecimalText) in the arena, as a Text is
)

// NumRows is the number of rows; 0 for a nil Result.
func (r *Result) NumRows() int {
	if r == nil {
		return 0
	}
	return r.rows
}

// NumCols is the number of values per row: len(Columns) for a result an engine built.
// 0 for a nil Result.
func (r *Result) NumCols() int {
	if r == nil {
		return 0
	}
	return r.width
}

// Kind is the kind of the value at row i, column j.
func (r *Result) Kind(i, j int) Kind { return r.kinds.at(r.cell(i, j)) }

// Int is the value at (i, j), which must be of kind Int.
func (r *Result) Int(i, j int) int64 { return int64(r.nums.at(r.cell(i, j))) }

// Float is the value at (i, j), which must be of kind Float.
func (r *Result) Float(i, j int) float64 { return math.Float64frombits(r.nums.at(r.cell(i, j))) }

// Text is the value at (i, j), which must be of kind Text (or Blob: its bytes as a
// string; or Decimal: its canonical text). It shares the result's memory: no copy is made.
func (r *Result) Text(i, j int) string {
	b := r.raw(r.cell(i, j))
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bytes is the value at (i, j), which must be of kind Blob (or Text). It shares the
// result's memory and must not be modified; Value returns a copy.
func (r *Result) Bytes(i, j int) []byte { return r.raw(r.cell(i, j)) }

// Value is the value at (i, j) as nil, int64, float64, string, []byte (a copy, never
// nil for an empty blob) or DecimalText. It allocates for most values: hot loops use the typed accessors.
func (r *Result) Value(i, j int) any {
	c := r.cell(i, j)
	switch r.kinds.at(c) {
	case Int:
		return int64(r.nums.at(c))
	case Float:
		return math.Float64frombits(r.nums.at(c))
	case Text:
		return string(r.raw(c))
	case Blob:
		return append([]byte{}, r.raw(c)...)
	case Decimal:
		return DecimalText(r.raw(c))
	}
	return nil
}

// Row returns row i as a new slice of Values. It allocates: for small results, or
// code that handles one row at a time.
func (r *Result) Row(i int) []any {
	row := make([]any, r.width)
	for j := range row {
		row[j] = r.Value(i, j)
	}
	return row
}

// BoxedRows returns every row as [][]any: a copy of the whole result, boxed. Only for
// results known to be small (tests, examples, a display of a few rows); large-result
// paths iterate with NumRows and the accessors instead.
func (r *Result) BoxedRows() [][]any {
	if r.NumRows() == 0 {
		return nil
	}
	out := make([][]any, r.NumRows())
	for i := range out {
		out[i] = r.Row(i)
	}
	return out
}

// Equal reports whether r and o hold the same columns and cells: the same kinds, the
// same values (reals by their bits), the same MISSING cells. go-cmp uses it.
func (r *Result) Equal(o *Result) bool {
	if r == nil || o == nil {
		return r == o
	}
	if !slices.Equal(r.Columns, o.Columns) || r.width != o.width || r.rows != o.rows ||
		!slices.Equal(r.missing, o.missing) {
		return false
	}
	for c := range r.rows * r.width {
		k := r.kinds.at(c)
		if k != o.kinds.at(c) {
			return false
		}
		switch k {
		case Int, Float:
			if r.nums.at(c) != o.nums.at(c) {
				return false
			}
		case Text, Blob, Decimal:
			if !bytes.Equal(r.raw(c), o.raw(c)) {
				return false
			}
		}
	}
	return true
}

// String prints the columns and rows (for test failures and debugging).
func (r *Result) String() string {
	if r == nil {
		return "<nil>"
	}
	return fmt.Sprintf("Result{Columns: %q, Rows: %v}", r.Columns, r.BoxedRows())
}

// TextIsUTF8 reports whether every Text cell is valid UTF-8 (true for a nil Result).
func (r *Result) TextIsUTF8() bool { return r == nil || len(r.invalidText) == 0 }

// HasMissing reports whether any cell was MISSING (SQL++ only).
func (r *Result) HasMissing() bool { return r != nil && len(r.missing) > 0 }

// Missing lists, per row, the columns of the cells that were MISSING: nil when none is
// (always, for SQL engines), otherwise one entry per row, nil for complete rows. It
// allocates; IsMissing asks about one cell.
func (r *Result) Missing() [][]int {
	if !r.HasMissing() {
		return nil
	}
	out := make([][]int, r.rows)
	for _, c := range r.missing {
		out[c/r.width] = append(out[c/r.width], c%r.width)
	}
	return out
}

// IsMissing reports whether the cell at (i, j) was MISSING rather than NULL.
func (r *Result) IsMissing(i, j int) bool {
	if len(r.missing) == 0 {
		return false
	}
	c := r.cell(i, j)
	k := sort.SearchInts(r.missing, c)
	return k < len(r.missing) && r.missing[k] == c
}

func (r *Result) cell(i, j int) int {
	if uint(j) >= uint(r.width) || uint(i) >= uint(r.rows) {
		panic(fmt.Sprintf("engine.Result: cell (%d, %d) out of range %dx%d", i, j, r.rows, r.width))
	}
	return i*r.width + j
}

func (r *Result) raw(c int) []byte { return r.arena.get(r.nums.at(c)) }

// NewResult builds a Result from boxed rows (values as AppendValue takes them). For
// tests and small hand-made results; every row must have the same number of values,
// len(columns) when columns is not nil.
func NewResult(columns []string, rows [][]any) *Result {
	width := len(columns)
	if columns == nil && len(rows) > 0 {
		width = len(rows[0])
	}
	b := NewResultBuilder(columns)
	b.res.width = width
	for _, row := range rows {
		for _, v := range row {
			b.AppendValue(v)
		}
		if err := b.EndRow(); err != nil {
			panic(err)
		}
	}
	return b.Result()
}

// ResultBuilder appends rows to a Result: per row, one Append call per column, then
// EndRow. It counts the bytes the values would take in a result bounded by
// Limits.MaxBytes (see Bytes).
type ResultBuilder struct {
	res   *Result
	n     int   // values appended to the current row
	bytes int64 // resultBytes of every value appended
}

// NewResultBuilder starts a result with the given columns (copied).
func NewResultBuilder(columns []string) *ResultBuilder {
	return &ResultBuilder{res: &Result{Columns: append([]string(nil), columns...), width: len(columns)}}
}

// NumRows is the number of rows ended so far.
func (b *ResultBuilder) NumRows() int { return b.res.rows }

// Bytes is what the values appended so far count against Limits.MaxBytes: each text
// and blob its length, plus cellOverhead per value.
func (b *ResultBuilder) Bytes() int64 { return b.bytes }

func (b *ResultBuilder) add(k Kind, n uint64, size int64) {
	b.res.kinds.append(k)
	b.res.nums.append(n)
	b.bytes += size + cellOverhead
	b.n++
}

// AppendNull appends a NULL.
func (b *ResultBuilder) AppendNull() { b.add(Null, 0, 0) }

// AppendMissing appends a MISSING cell (SQL++): a Null that IsMissing reports.
func (b *ResultBuilder) AppendMissing() {
	b.res.missing = append(b.res.missing, b.res.kinds.n)
	b.add(Null, 0, 0)
}

// AppendInt appends an integer.
func (b *ResultBuilder) AppendInt(v int64) { b.add(Int, uint64(v), 0) }

// AppendFloat appends a real.
func (b *ResultBuilder) AppendFloat(v float64) { b.add(Float, math.Float64bits(v), 0) }

// AppendText appends a text (its bytes as they are, valid UTF-8 or not).
func (b *ResultBuilder) AppendText(s string) {
	if !utf8.ValidString(s) {
		b.res.invalidText = append(b.res.invalidText, b.res.kinds.n)
	}
	ref, dst := b.res.arena.alloc(len(s))
	copy(dst, s)
	b.add(Text, ref, int64(len(s)))
}

// AppendBlob appends a blob (copied). An empty blob stays a blob, never a NULL.
func (b *ResultBuilder) AppendBlob(v []byte) {
	ref, dst := b.res.arena.alloc(len(v))
	copy(dst, v)
	b.add(Blob, ref, int64(len(v)))
}

// AppendDecimal appends an exact decimal (see DecimalText: the caller gives canonical text
// of a value no int64 or float64 holds exactly).
func (b *ResultBuilder) AppendDecimal(d DecimalText) {
	ref, dst := b.res.arena.alloc(len(d))
	copy(dst, d)
	b.add(Decimal, ref, int64(len(d)))
}

// AppendValue appends a Go value: nil, int64, float64, string, []byte, DecimalText, or (for drivers
// that produce them) other integer and float types, bool (as 0/1) and anything else as
// its fmt.Sprint text.
func (b *ResultBuilder) AppendValue(v any) { appendValue(b, v) }

// cellAppender takes a result's values one kind at a time: a ResultBuilder, or a DuckDB
// worker's pipe (duckdb_wire.go).
type cellAppender interface {
	AppendNull()
	AppendInt(int64)
	AppendFloat(float64)
	AppendText(string)
	AppendBlob([]byte)
	AppendDecimal(DecimalText)
}

// appendValue is AppendValue for any cellAppender.
func appendValue(b cellAppender, v any) {
	switch x := v.(type) {
	case nil:
		b.AppendNull()
	case int64:
		b.AppendInt(x)
	case float64:
		b.AppendFloat(x)
	case string:
		b.AppendText(x)
	case []byte:
		b.AppendBlob(x)
	case DecimalText:
		b.AppendDecimal(x)
	case int:
		b.AppendInt(int64(x))
	case int32:
		b.AppendInt(int64(x))
	case float32:
		b.AppendFloat(float64(x))
	case bool:
		if x {
			b.AppendInt(1)
		} else {
			b.AppendInt(0)
		}
	default:
		b.AppendText(fmt.Sprint(x))
	}
}

// EndRow ends the current row; it fails unless the row has exactly NumCols values.
func (b *ResultBuilder) EndRow() error {
	if b.n != b.res.width {
		n := b.n
		// Drop the partial row so the builder stays consistent.
		b.cut(b.res.rows * b.res.width)
		b.n = 0
		return fmt.Errorf("engine: row of %d values in a result of %d columns", n, b.res.width)
	}
	b.res.rows++
	b.n = 0
	return nil
}

// Result returns the result built so far (complete rows only) and ends the builder.
func (b *ResultBuilder) Result() *Result {
	r := b.res
	b.cut(r.rows * r.width)
	b.res = nil
	return r
}

// cut drops every cell from index cut on (a partial row) and what is noted about them.
func (b *ResultBuilder) cut(cut int) {
	r := b.res
	r.kinds.truncate(cut)
	r.nums.truncate(cut)
	r.missing = dropFrom(r.missing, cut)
	r.invalidText = dropFrom(r.invalidText, cut)
}

// dropFrom removes the trailing cell indices >= cut from an ascending list.
func dropFrom(cells []int, cut int) []int {
	for len(cells) > 0 && cells[len(cells)-1] >= cut {
		cells = cells[:len(cells)-1]
	}
	return cells
}
