package judge

import (
	"slices"
	"testing"
)

// TestSQLParseSplit: statements as sqlparse.split gives them (stripped, a line comment
// after a semicolon kept with its statement, white space alone no statement).
func TestSQLParseSplit(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"SELECT 1", []string{"SELECT 1"}},
		{"SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}},
		{"SELECT ';'; SELECT (1;2)", []string{"SELECT ';';", "SELECT (1;2)"}},
		{"UPDATE t SET a = 1; -- done\nSELECT 2", []string{"UPDATE t SET a = 1; -- done", "SELECT 2"}},
		{"  \n ", nil},
		{"SELECT 1;\n\n", []string{"SELECT 1;"}},
	}
	for _, c := range cases {
		if got := SQLParseSplit(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
