package engine

import (
	"testing"
	"unicode/utf8"
)

// scanUTF8 is TextIsUTF8 the slow way: every Text cell read and checked.
func scanUTF8(r *Result) bool {
	for i := range r.NumRows() {
		for j := range r.NumCols() {
			if r.Kind(i, j) == Text && !utf8.ValidString(r.Text(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestTextIsUTF8: what the builder notes equals a scan of the cells, including when the
// only invalid text was in a partial row that EndRow or Result dropped, and a blob of
// invalid bytes (not a text) does not count.
func TestTextIsUTF8(t *testing.T) {
	bad := string([]byte{0xff, 'a'})
	type cell struct {
		text string
		blob bool
	}
	tests := []struct {
		name     string
		rows     [][]cell // a row with too few cells is rejected by EndRow
		openLast []cell   // appended without EndRow before Result
		want     bool
	}{
		{"empty", nil, nil, true},
		{"valid texts", [][]cell{{{text: "a"}, {text: "é"}}}, nil, true},
		{"an invalid text", [][]cell{{{text: "a"}, {text: bad}}}, nil, false},
		{"invalid bytes in a blob", [][]cell{{{text: "a"}, {text: bad, blob: true}}}, nil, true},
		{"invalid text in a rejected row", [][]cell{{{text: "a"}, {text: "b"}}, {{text: bad}}}, nil, true},
		{"invalid text in an unfinished row", [][]cell{{{text: "a"}, {text: "b"}}}, []cell{{text: bad}}, true},
		{"invalid text kept before a rejected row", [][]cell{{{text: bad}, {text: "b"}}, {{text: "c"}}}, nil, false},
	}
	for _, tc := range tests {
		b := NewResultBuilder([]string{"x", "y"})
		add := func(c cell) {
			if c.blob {
				b.AppendBlob([]byte(c.text))
			} else {
				b.AppendText(c.text)
			}
		}
		for _, row := range tc.rows {
			for _, c := range row {
				add(c)
			}
			_ = b.EndRow() // a short row is dropped
		}
		for _, c := range tc.openLast {
			add(c)
		}
		r := b.Result()
		if got, scan := r.TextIsUTF8(), scanUTF8(r); got != tc.want || scan != tc.want {
			t.Errorf("%s: TextIsUTF8 = %v, scan = %v, want %v", tc.name, got, scan, tc.want)
		}
	}
	var nilResult *Result
	if !nilResult.TextIsUTF8() {
		t.Error("nil Result: TextIsUTF8 = false")
	}
}
