package report

import (
	"strings"
	"unicode"
)

// clauseWords start a new line when FormatSQL lays out a query. Longest first, so
// "GROUP BY" wins over "GROUP".
var clauseWords = []string{
	"UNION ALL", "LEFT OUTER JOIN", "LEFT JOIN", "INNER JOIN", "CROSS JOIN", "NATURAL JOIN", "GROUP BY", "ORDER BY",
	"SELECT", "FROM", "WHERE", "HAVING", "LIMIT", "JOIN", "UNION", "INTERSECT", "EXCEPT",
}

// FormatSQL lays a query out one clause per line, for reading. It only inserts line
// breaks before clause keywords outside quotes and at parenthesis depth 0 or 1 and
// collapses runs of whitespace outside quotes; it never changes the query's tokens.
func FormatSQL(sql string) string {
	var b strings.Builder
	depth := 0
	var quote rune
	rs := []rune(strings.TrimSpace(sql))
	lastSpace := false
	skip := 0 // inside a keyword just matched: no break before its second word
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if quote != 0 {
			b.WriteRune(c)
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"', '`':
			quote = c
		case '[':
			quote = ']'
		case '(':
			depth++
		case ')':
			depth--
		}
		if unicode.IsSpace(c) {
			if !lastSpace {
				b.WriteByte(' ')
			}
			lastSpace = true
			continue
		}
		if i >= skip && depth <= 1 && b.Len() > 0 && (i == 0 || !isIdent(rs[i-1])) {
			for _, w := range clauseWords {
				if end := wordEnd(rs, i, w); end > 0 {
					skip = end
					s := strings.TrimRight(b.String(), " ")
					b.Reset()
					b.WriteString(s)
					b.WriteByte('\n')
					if depth == 1 {
						b.WriteString("  ")
					}
					break
				}
			}
		}
		lastSpace = false
		b.WriteRune(c)
	}
	return b.String()
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' }

// wordEnd returns where the keyword w (spaces matching any whitespace run) ends if it starts
// at rs[i] and ends at a word boundary, else 0.
func wordEnd(rs []rune, i int, w string) int {
	j := i
	for _, part := range strings.Fields(w) {
		if j > i {
			if j >= len(rs) || !unicode.IsSpace(rs[j]) {
				return 0
			}
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				j++
			}
		}
		for _, pc := range part {
			if j >= len(rs) || unicode.ToUpper(rs[j]) != pc {
				return 0
			}
			j++
		}
	}
	if j < len(rs) && isIdent(rs[j]) {
		return 0
	}
	return j
}
