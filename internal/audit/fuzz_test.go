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
