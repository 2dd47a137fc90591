package livesql

import "testing"

func TestRemoveComments(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"block", "SELECT /* x */ 1", "SELECT  1"},
		{"block over lines", "SELECT /* a\nb */ 1", "SELECT  1"},
		{"shortest block", "/* a */ 1 /* b */", "1"},
		{"unclosed block stays", "SELECT 1 /* open", "SELECT 1 /* open"},
		{"line comment keeps its break", "SELECT 1 -- one\nFROM t", "SELECT 1 \nFROM t"},
		{"last-line comment stays (no break after it)", "SELECT 1 -- tail", "SELECT 1 -- tail"},
		{"crlf", "a -- x\r\nb", "a \r\nb"},
		{"inside a string too", "SELECT '--x\n'", "SELECT '\n'"},
		{"blank lines collapse", "a\n\n  \n\nb", "a\nb"},
		{"white space after the last break stays", "a\n\n    b", "a\n    b"},
		{"strip", " \n a \n ", "a"},
		{"python strips \\x1c", "\x1ca\x1f", "a"},
	}
	for _, tc := range cases {
		if got := RemoveComments(tc.in); got != tc.want {
			t.Errorf("%s: RemoveComments(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestRemoveDistinct(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"keyword", "SELECT DISTINCT a FROM t", "SELECT a FROM t"},
		{"any case", "select Distinct a", "select a"},
		{"DISTINCT ON breaks", "SELECT DISTINCT ON (a) a, b FROM t", "SELECT ON (a) a, b FROM t"},
		{"inside parentheses stays", "SELECT COUNT(DISTINCT a)", "SELECT COUNT(DISTINCT a)"},
		{"next to a line break stays", "SELECT\nDISTINCT a", "SELECT\nDISTINCT a"},
		{"next to a tab stays", "SELECT\tDISTINCT a", "SELECT\tDISTINCT a"},
		{"a string's word goes too", "SELECT ' distinct ' AS x", "SELECT ' ' AS x"},
		{"runs of spaces", "SELECT  DISTINCT  a", "SELECT   a"},
		{"long s is not s", "SELECT DIſTINCT a", "SELECT DIſTINCT a"},
	}
	for _, tc := range cases {
		if got := RemoveDistinct(tc.in); got != tc.want {
			t.Errorf("%s: RemoveDistinct(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestRemoveRound(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"call", "SELECT ROUND(a, 2) FROM t", "SELECT a FROM t"},
		{"one argument", "SELECT round(a)", "SELECT a"},
		{"nested", "SELECT ROUND(ROUND(a, 2), 1)", "SELECT a"},
		{"inner call kept whole", "SELECT ROUND(AVG(x * (1 + y)), 2)", "SELECT AVG(x * (1 + y))"},
		{"space before the parenthesis", "SELECT ROUND  (a,2)", "SELECT a"},
		{"cast stays", "SELECT ROUND(a::numeric, 2)::text", "SELECT a::numeric::text"},
		{"argument stripped", "SELECT ROUND( a , 2)", "SELECT a"},
		{"a longer name loses it too", "SELECT MY_ROUND(a, 2)", "SELECT MY_a"},
		{"string literal commas break it", "SELECT ROUND(',', 2)", "SELECT '"},
		{"unclosed stops everything", "SELECT ROUND(a, 2), ROUND(b", "SELECT a, ROUND(b"},
		{"first unclosed stops the rest", "SELECT ROUND(b, ROUND(c, 1)", "SELECT ROUND(b, ROUND(c, 1)"},
		{"no round", "SELECT a", "SELECT a"},
	}
	for _, tc := range cases {
		if got := RemoveRound(tc.in); got != tc.want {
			t.Errorf("%s: RemoveRound(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestCheckSQLFunctionUsage(t *testing.T) {
	cases := []struct {
		name     string
		sqls, kw []string
		want     int
	}{
		{"all there", []string{"SELECT COALESCE(a, 0)", "UPDATE t SET x = NOW()"}, []string{"coalesce", "now()"}, 1},
		{"one missing", []string{"SELECT a"}, []string{"coalesce"}, 0},
		{"no sql", nil, []string{"a"}, 0},
		{"in a comment counts", []string{"SELECT 1 -- uses LAG"}, []string{"lag"}, 1},
		{"no keywords", []string{"SELECT 1"}, nil, 1},
	}
	for _, tc := range cases {
		if got := CheckSQLFunctionUsage(tc.sqls, tc.kw); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}
