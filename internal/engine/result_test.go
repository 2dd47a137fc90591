package engine

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestResultRoundTrip: every value appended reads back with its kind, across chunk
// boundaries of the cell stores and the arena (values longer than an arena chunk
// included), and a partial row is dropped by EndRow.
func TestResultRoundTrip(t *testing.T) {
	var rows [][]any
	for i := range 3*chunkLen + 17 {
		var s any = fmt.Sprintf("text %d", i)
		if i%5000 == 0 {
			s = strings.Repeat("x", arenaChunk+i%7) // a chunk of its own
		}
		var bl any = []byte{byte(i), 0, byte(i >> 8)}
		if i%3 == 0 {
			bl = []byte{} // an empty blob stays a blob
		}
		rows = append(rows, []any{int64(i) - 1000, float64(i) / 3, s, bl, nil})
	}
	res := NewResult([]string{"i", "f", "s", "b", "n"}, rows)
	if res.NumRows() != len(rows) || res.NumCols() != 5 {
		t.Fatalf("size %dx%d, want %dx5", res.NumRows(), res.NumCols(), len(rows))
	}
	wantKinds := []Kind{Int, Float, Text, Blob, Null}
	for i, row := range rows {
		for j, want := range row {
			got := res.Value(i, j)
			if res.Kind(i, j) != wantKinds[j] {
				t.Fatalf("kind (%d, %d) = %v, want %v", i, j, res.Kind(i, j), wantKinds[j])
			}
			if wb, ok := want.([]byte); ok {
				gb, ok := got.([]byte)
				if !ok || gb == nil || !bytes.Equal(gb, wb) {
					t.Fatalf("value (%d, %d) = %#v, want %#v", i, j, got, want)
				}
				continue
			}
			if got != want {
				t.Fatalf("value (%d, %d) = %#v, want %#v", i, j, got, want)
			}
		}
	}
	if !res.Equal(NewResult(res.Columns, rows)) {
		t.Error("a result differs from one built from the same rows")
	}

	b := NewResultBuilder([]string{"a", "b"})
	b.AppendInt(1)
	b.AppendText("x")
	_ = b.EndRow()
	b.AppendMissing()
	if err := b.EndRow(); err == nil {
		t.Error("a row of 1 value in 2 columns was accepted")
	}
	r := b.Result()
	if r.NumRows() != 1 || r.HasMissing() || r.Value(0, 1) != "x" {
		t.Errorf("after a refused row: %v, missing %v", r, r.Missing())
	}
}
