package report

import (
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// clauseWords start a new line when FormatSQL lays out a query. Longest first, so
// "GROUP BY" wins over "GROUP".
var clauseWords = []string{
	"UNION ALL", "LEFT OUTER JOIN", "LEFT JOIN", "INNER JOIN", "CROSS JOIN", "NATURAL JOIN", "GROUP BY", "ORDER BY",
	"SELECT", "FROM", "WHERE", "HAVING", "LIMIT", "JOIN", "UNION", "INTERSECT", "EXCEPT",
}

// FormatSQL lays a query out one clause per line, for reading. It only inserts line
// breaks before clause keywords outside quotes and comments and at parenthesis depth 0 or
// 1, and collapses runs of white space outside quotes (keeping the line break that ends a
// -- comment); it never changes the query's tokens.
func FormatSQL(sql string) string {
	sql = strings.TrimSpace(sql)
	toks := sqlscan.All(sql)
	var b strings.Builder
	depth := 0
	skip := 0 // inside a keyword just matched: no break before its later words
	for i, t := range toks {
		text := t.Text(sql)
		switch t.Kind {
		case sqlscan.Space:
			if i > 0 && toks[i-1].Kind == sqlscan.Comment && sql[toks[i-1].Start+1] == '-' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
			continue
		case sqlscan.Punct:
			switch text {
			case "(":
				depth++
			case ")":
				depth--
			}
		case sqlscan.Word:
			if i >= skip && depth <= 1 && b.Len() > 0 && !(i > 0 && toks[i-1].Kind == sqlscan.Punct && sql[toks[i-1].Start] == '.') {
				if n := clauseAt(sql, toks, i); n > 0 {
					skip = n
					s := strings.TrimRight(b.String(), " ")
					b.Reset()
					b.WriteString(s)
					b.WriteByte('\n')
					if depth == 1 {
						b.WriteString("  ")
					}
				}
			}
		}
		b.WriteString(text)
	}
	return b.String()
}

// clauseAt returns the index of the token after the clause keyword that starts at
// toks[i] (its words separated by white space, and not followed by a dot), else 0.
func clauseAt(sql string, toks []sqlscan.Token, i int) int {
	for _, w := range clauseWords {
		j := i
		for k, part := range strings.Fields(w) {
			if k > 0 {
				if j >= len(toks) || toks[j].Kind != sqlscan.Space {
					j = -1
					break
				}
				j++
			}
			if j >= len(toks) || toks[j].Kind != sqlscan.Word || !strings.EqualFold(toks[j].Text(sql), part) {
				j = -1
				break
			}
			j++
		}
		if j > 0 && (j >= len(toks) || sql[toks[j].Start] != '.') {
			return j
		}
	}
	return 0
}
