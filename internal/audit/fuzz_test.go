package audit

import (
	"strings"
	"testing"
)

// FuzzAnalyse: the top-level scanner never panics on any text, and a probe it builds
// keeps the query's text before the result list's end and from FROM on.
func FuzzAnalyse(f *testing.F) {
	for _, s := range []string{
		"SELECT a FROM t ORDER BY b DESC LIMIT 3",
		"SELECT a, count(*) AS c FROM t GROUP BY a ORDER BY c DESC, 1 LIMIT 2, 5;",
		"SELECT DISTINCT a FROM t ORDER BY a NULLS LAST LIMIT 1 OFFSET 4",
		"WITH w AS (SELECT 1) SELECT * FROM w UNION SELECT 2 ORDER BY 1",
		"SELECT 'it''s' \"x\" FROM [t] -- c\n ORDER BY `x` /* c */ LIMIT 1",
		"SELECT (", ")))", "LIMIT 1 SELECT a ORDER BY", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		sh := analyse(sql)
		if p, ok := keyProbe(sql, sh, 10); ok {
			if !strings.HasPrefix(p, sql[:sh.listEnd]) || !strings.Contains(p, "__audit_key0") {
				t.Errorf("probe %q of %q", p, sql)
			}
		}
	})
}

// FuzzGoldText: the readers of the new checks never panic on any text: the filter
// rewrite (which keeps the query's text up to its WHERE or its end), the column
// references, the select items, the ratio's parts and the question readers.
func FuzzGoldText(f *testing.F) {
	for _, s := range []string{
		"SELECT CAST(SUM(height_cm) AS REAL) / COUNT(id) FROM superhero",
		"SELECT a FROM t AS x JOIN u y ON x.a = y.b WHERE x.c >= 3 AND y.d BETWEEN 1 AND 2 ORDER BY x.e DESC LIMIT 1",
		"SELECT CAST(COUNT(CASE WHEN g = 'F' THEN 1 END) AS REAL) * 100 / COUNT(IIF(p = 'M', 1, NULL)) FROM t",
		"Which publisher has more heroes? Find the difference.", "List the name and height, and how many.",
		"SELECT (", "WHERE", "CASE WHEN", "IIF(", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, ok := withFilter(s, "x"); ok && !strings.Contains(p, "x") {
			t.Errorf("filter lost: %q of %q", p, s)
		}
		for _, r := range valueRefs(s) {
			if r.start < 0 || r.end > len(s) || s[r.start:r.end] != r.text {
				t.Errorf("ref %+v not where it is written in %q", r, s)
			}
		}
		selectItems(s)
		tableRefs(lex(s))
		toks := lex(s)
		caseCond(s, toks)
		population(s)
		literals(toks)
	})
}
