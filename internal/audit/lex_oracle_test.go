package audit

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestLexMatchesOldOnDatasets: on every SQL string of the real data, lex (now on
// sqlscan) gives the tokens, kinds and depths the audit's own lexer gave before (kept
// below as the oracle). Skips without ../shared.
func TestLexMatchesOldOnDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("every dataset's queries is slow for -short; go test ./... runs it")
	}
	corpus := testutil.SQLCorpus(t)
	for _, q := range corpus {
		for _, s := range []string{q, "/* c */ " + q + " -- end"} {
			old, got := oldLex(s), lex(s)
			// slices.Equal first: cmp.Diff's reflection over the whole corpus took 36 s;
			// it only explains a difference.
			if slices.Equal(old, got) {
				continue
			}
			if diff := cmp.Diff(old, got, cmp.AllowUnexported(token{}), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("lex(%q) differs from the old lexer (-old +new):\n%s", s, diff)
			}
		}
	}
	t.Logf("%d queries compared", len(corpus))
}

// oldLex is the audit's lexer before sqlscan.
func oldLex(sql string) []token {
	var out []token
	depth := 0
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				i = len(sql)
			} else {
				i += j + 4
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			j := i + 1
			for j < len(sql) {
				if sql[j] == closer {
					if closer != ']' && j+1 < len(sql) && sql[j+1] == closer {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(sql))
			kind := byte('q')
			if c == '\'' {
				kind = 's'
			}
			out = append(out, token{text: sql[i:end], start: i, end: end, depth: depth, kind: kind})
			i = end
		case oldIsWordByte(c):
			j := i
			for j < len(sql) && oldIsWordByte(sql[j]) {
				j++
			}
			kind := byte('w')
			if c >= '0' && c <= '9' {
				kind = 'n'
				for j < len(sql) && (oldIsWordByte(sql[j]) || sql[j] == '.') {
					j++
				}
			}
			out = append(out, token{text: sql[i:j], start: i, end: j, depth: depth, kind: kind})
			i = j
		default:
			if c == ')' {
				depth--
			}
			out = append(out, token{text: sql[i : i+1], start: i, end: i + 1, depth: depth, kind: 'p'})
			if c == '(' {
				depth++
			}
			i++
		}
	}
	return out
}
func oldIsWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
