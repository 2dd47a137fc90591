package report

import (
	"strings"
	"testing"
	"unicode"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestFormatSQLMatchesOldOnDatasets: on every SQL string of the real data without a
// comment (the old layout did not know them, and ran a -- comment into the next line),
// FormatSQL (now on sqlscan) lays the query out as its own scanner did before (kept below
// as the oracle). Skips without ../shared.
func TestFormatSQLMatchesOldOnDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("every dataset's queries is slow for -short; go test ./... runs it")
	}
	n := 0
	for _, q := range testutil.SQLCorpus(t) {
		if strings.Contains(q, "--") || strings.Contains(q, "/*") {
			continue
		}
		n++
		if got, want := FormatSQL(q), oldFormatSQL(q); got != want {
			t.Fatalf("FormatSQL(%q) =\n%s\nthe old layout:\n%s", q, got, want)
		}
	}
	t.Logf("%d queries compared", n)
}

// oldFormatSQL is FormatSQL before sqlscan.
func oldFormatSQL(sql string) string {
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
		if i >= skip && depth <= 1 && b.Len() > 0 && (i == 0 || !oldIsIdent(rs[i-1])) {
			for _, w := range clauseWords {
				if end := oldWordEnd(rs, i, w); end > 0 {
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

func oldIsIdent(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.'
}

// oldWordEnd returns where the keyword w (spaces matching any whitespace run) ends if it starts
// at rs[i] and ends at a word boundary, else 0.
func oldWordEnd(rs []rune, i int, w string) int {
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
	if j < len(rs) && oldIsIdent(rs[j]) {
		return 0
	}
	return j
}
