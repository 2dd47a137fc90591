package judge

import (
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestNormalizeSQLMatchesOldOnDatasets: on every SQL string of the real data without a
// comment or a form feed (which the old scanner did not know), normalizeSQL (now on
// sqlscan) gives what its own scanner gave before (kept below as the oracle). Skips
// without ../shared.
func TestNormalizeSQLMatchesOldOnDatasets(t *testing.T) {
	n := 0
	for _, q := range testutil.SQLCorpus(t) {
		if strings.Contains(q, "--") || strings.Contains(q, "/*") || strings.Contains(q, "\f") {
			continue
		}
		n++
		for _, s := range []string{q, " " + strings.ToUpper(q) + " ;\n"} {
			if got, want := normalizeSQL(s), oldNormalizeSQL(s); got != want {
				t.Fatalf("normalizeSQL(%q) = %q, the old scanner %q", s, got, want)
			}
		}
	}
	t.Logf("%d queries compared", n)
}

// oldNormalizeSQL is normalizeSQL before sqlscan.
func oldNormalizeSQL(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), "; \t\r\n")
	var b strings.Builder
	b.Grow(len(s))
	var quote byte
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			b.WriteByte(c)
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			space = true
			continue
		case '\'', '"', '`':
			quote = c
		case '[':
			quote = ']'
		}
		if space {
			if b.Len() > 0 && !isSQLPunct(c) && !isSQLPunct(lastByte(&b)) {
				b.WriteByte(' ')
			}
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
