package counterex

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestSplitTopLevelMatchesOldOnDatasets: on every SQL string of the real data without a
// comment (which the old scanner did not know), splitTopLevel (now on sqlscan)
// cuts as its own scanner did before (kept below as the oracle). Skips without
// ../shared.
func TestSplitTopLevelMatchesOldOnDatasets(t *testing.T) {
	n := 0
	for _, q := range testutil.SQLCorpus(t) {
		if strings.Contains(q, "--") || strings.Contains(q, "/*") {
			continue
		}
		n++
		got, want := splitTopLevel(q), oldSplitTopLevel(q)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("splitTopLevel(%q) differs from the old one (-old +new):\n%s", q, diff)
		}
	}
	t.Logf("%d queries compared", n)
}

// oldSplitTopLevel splits s at commas outside parentheses and quotes.
func oldSplitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '[':
			quote = ']'
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return append(out, s[start:i])
			}
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
