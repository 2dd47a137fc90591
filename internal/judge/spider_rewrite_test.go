package judge

import "testing"

// Expected texts were checked against sqlparse's remove_distinct and exec_eval.py's
// rewrites run on the same input.
func TestSpiderRewrite(t *testing.T) {
	tests := []struct {
		name, in, pred, gold string
	}{
		{"select distinct", "SELECT DISTINCT name FROM t", "SELECT  name FROM t", "SELECT  name FROM t"},
		{"count distinct", "SELECT count(DISTINCT name) FROM t", "SELECT count( name) FROM t", "SELECT count( name) FROM t"},
		{"white space around distinct stays", "  SELECT\tDISTINCT\na FROM t  ", "  SELECT\t\na FROM t  ", "  SELECT\t\na FROM t  "},
		{"longer word kept", "select distinct_id from t", "select distinct_id from t", "select distinct_id from t"},
		{"string kept", "SELECT * FROM t WHERE a = 'distinct'", "SELECT * FROM t WHERE a = 'distinct'", "SELECT * FROM t WHERE a = 'distinct'"},
		{"backslash-escaped quote stays in the string", `SELECT 'it\'s distinct' FROM t`, `SELECT 'it\'s distinct' FROM t`, `SELECT 'it\'s distinct' FROM t`},
		{"double-quoted kept", `SELECT "distinct" FROM t`, `SELECT "distinct" FROM t`, `SELECT "distinct" FROM t`},
		{"bracketed kept", "SELECT [distinct] FROM t", "SELECT [distinct] FROM t", "SELECT [distinct] FROM t"},
		{"backticked kept", "SELECT `distinct` FROM t", "SELECT `distinct` FROM t", "SELECT `distinct` FROM t"},
		{"placeholders kept", "SELECT @distinct, :distinct, $distinct FROM t", "SELECT @distinct, :distinct, $distinct FROM t", "SELECT @distinct, :distinct, $distinct FROM t"},
		{"line comment kept", "SELECT a FROM t -- distinct", "SELECT a FROM t -- distinct", "SELECT a FROM t -- distinct"},
		{"hash comment kept", "SELECT x FROM t WHERE a = 1 # distinct", "SELECT x FROM t WHERE a = 1 # distinct", "SELECT x FROM t WHERE a = 1 # distinct"},
		{"block comment kept", "SELECT a FROM t /* DISTINCT */", "SELECT a FROM t /* DISTINCT */", "SELECT a FROM t /* DISTINCT */"},
		{"non-Latin letter joins the word", "SELECT 名distinct FROM t", "SELECT 名distinct FROM t", "SELECT 名distinct FROM t"},
		// Quirk (Spider-distinct): any token spelled distinct goes.
		{"quirk: column named distinct", "SELECT t.distinct FROM t", "SELECT t. FROM t", "SELECT t. FROM t"},
		{"quirk: distinct after a number with exponent", "SELECT 1e5distinct", "SELECT 1e5", "SELECT 1e5"},
		{"quirk: distinct anywhere", "SELECT a FROM t ORDER BY DISTINCT", "SELECT a FROM t ORDER BY ", "SELECT a FROM t ORDER BY "},
		{"only distinct", "Distinct", "", ""},
		{"operators joined", "SELECT a FROM t WHERE b > = 1 AND c < = 2 AND d ! = 3",
			"SELECT a FROM t WHERE b >= 1 AND c <= 2 AND d != 3", "SELECT a FROM t WHERE b >= 1 AND c <= 2 AND d != 3"},
		{"current year", "SELECT a FROM t WHERE y = YEAR(CURDATE())", "SELECT a FROM t WHERE y = 2020", "SELECT a FROM t WHERE y = 2020"},
		// Quirk (Spider-curdate): the trailing white space goes too.
		{"quirk: current year eats spaces", "SELECT YEAR ( curdate ( ) )  - age FROM t", "SELECT 2020- age FROM t", "SELECT 2020- age FROM t"},
		{"quirk: current year glued to a keyword", "SELECT a FROM t WHERE YEAR(CURDATE()) AND 1", "SELECT a FROM t WHERE 2020AND 1", "SELECT a FROM t WHERE 2020AND 1"},
		// Quirk (Spider-value): prediction only, case-sensitive, substrings too.
		{"quirk: value", "SELECT value FROM t WHERE v = 'value' AND VALUE = 1 AND values > 0",
			"SELECT 1 FROM t WHERE v = '1' AND VALUE = 1 AND 1s > 0", "SELECT value FROM t WHERE v = 'value' AND VALUE = 1 AND values > 0"},
		{"value then distinct", "SELECT DISTINCT value FROM t", "SELECT  1 FROM t", "SELECT  value FROM t"},
		// Quirk (Spider-first-statement): only the first statement survives.
		{"trailing semicolon", "SELECT a FROM t;", "SELECT a FROM t;", "SELECT a FROM t;"},
		{"quirk: two statements", "SELECT 1; SELECT 2", "SELECT 1; ", "SELECT 1; "},
		{"quirk: two lines", "SELECT 1;\nSELECT 2", "SELECT 1;", "SELECT 1;"},
		{"quirk: comment after semicolon kept", "SELECT 1; -- c\nSELECT 2", "SELECT 1; -- c\n", "SELECT 1; -- c\n"},
		{"quirk: CASE END nests below zero", "SELECT CASE WHEN a THEN 1 END FROM t; SELECT 2",
			"SELECT CASE WHEN a THEN 1 END FROM t; ", "SELECT CASE WHEN a THEN 1 END FROM t; "},
		{"no split inside parentheses", "SELECT (1; SELECT 2", "SELECT (1; SELECT 2", "SELECT (1; SELECT 2"},
		{"empty", "", "", ""},
		{"blank (the reference raises)", " \n ", " \n ", " \n "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SpiderRewritePred(tc.in); got != tc.pred {
				t.Errorf("SpiderRewritePred(%q) = %q, want %q", tc.in, got, tc.pred)
			}
			if got := SpiderRewriteGold(tc.in); got != tc.gold {
				t.Errorf("SpiderRewriteGold(%q) = %q, want %q", tc.in, got, tc.gold)
			}
		})
	}
}

func TestSqlparseTokensCoverText(t *testing.T) {
	inputs := []string{
		"SELECT a, b FROM t WHERE x = 'q''s' AND y > -1.5e-3 -- c\nORDER BY 1",
		"select $$a;b$$ , [x y], `z`, \"w\", @v, ?, %s, %(n)s, ::, :=, 0x1F, .5, 1., 名字",
		"unterminated 'string and /* comment",
		"\xff\xfe invalid utf-8 distinct",
	}
	for _, in := range inputs {
		toks := sqlparseTokens(in)
		pos := 0
		for _, tk := range toks {
			if tk.start != pos || tk.end <= tk.start {
				t.Fatalf("%q: token %+v does not continue at %d", in, tk, pos)
			}
			pos = tk.end
		}
		if pos != len(in) {
			t.Errorf("%q: tokens cover %d of %d bytes", in, pos, len(in))
		}
	}
}
