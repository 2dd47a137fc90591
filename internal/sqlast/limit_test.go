package sqlast

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// sizedQuery is a valid query exactly n bytes long: its string literal pads it.
func sizedQuery(n int) string {
	const head, tail = "SELECT name FROM customers WHERE city = '", "'"
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

// TestParseTooLong: a query over sqlscan.MaxAnalysed bytes is not parsed (its tree would
// cost hundreds of bytes per byte of SQL); one of exactly that length still is.
func TestParseTooLong(t *testing.T) {
	s := testSchema(t)
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
			sql := sizedQuery(tt.n)
			if len(sql) != tt.n {
				t.Fatalf("sizedQuery(%d) is %d bytes", tt.n, len(sql))
			}
			u, err := ExtractSchema(sql, s)
			if tt.ok {
				if err != nil || len(u.Columns) != 2 {
					t.Fatalf("ExtractSchema = %v, %v; want customers.city and customers.name", u, err)
				}
				return
			}
			if !errors.Is(err, ErrParse) || !errors.Is(err, sqlscan.ErrTooLong) || !strings.Contains(err.Error(), "not analysed") {
				t.Fatalf("ExtractSchema = %v, want ErrParse wrapping sqlscan.ErrTooLong", err)
			}
			if _, err := ParseShared(sql); !errors.Is(err, sqlscan.ErrTooLong) {
				t.Fatalf("ParseShared = %v, want sqlscan.ErrTooLong", err)
			}
		})
	}
}
