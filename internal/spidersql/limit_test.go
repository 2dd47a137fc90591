package spidersql

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// TestParseTooLong: a query over sqlscan.MaxAnalysed bytes is not tokenized (process_sql's
// structures cost hundreds of bytes per byte of SQL); one of exactly that length still is.
// Hardness, which parses, fails the same way.
func TestParseTooLong(t *testing.T) {
	const head, tail = "SELECT name FROM singer WHERE name = '", "'"
	sized := func(n int) string { return head + strings.Repeat("x", n-len(head)-len(tail)) + tail }
	s := concertSchema()
	tests := []struct {
		name string
		n    int
		ok   bool
	}{
		{"at the limit", sqlscan.MaxAnalysed, true},
		{"one byte over", sqlscan.MaxAnalysed + 1, false},
		{"two megabytes", 2 << 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sql := sized(tt.n)
			q, err := Parse(sql, s)
			h, herr := HardnessOf(sql, s)
			if tt.ok {
				if err != nil || herr != nil || h != "easy" || len(q.Where) == 0 {
					t.Fatalf("Parse = %v, HardnessOf = %q, %v; want a parse, easy", err, h, herr)
				}
				return
			}
			for _, e := range []error{err, herr} {
				if !errors.Is(e, ErrParse) || !errors.Is(e, sqlscan.ErrTooLong) || !strings.Contains(e.Error(), "not analysed") {
					t.Fatalf("err = %v, want ErrParse wrapping sqlscan.ErrTooLong", e)
				}
			}
		})
	}
}
