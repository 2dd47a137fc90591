package judge

import (
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// lexGuardEdges start tokens with each guarded pattern's first characters, including the
// non-ASCII letters Go's case folding pairs with ASCII ones (ſ with S, K with K).
var lexGuardEdges = []string{
	"", "SELECT DISTINCT a FROM t; SELECT 1", "ſtraight_join x", "SELECT a ſtraight JOIN b",
	"`a``b` ´c´ %s %(x)s 'it''s' \"a\"\"b\" \"\" \"x\\\"y\"", "NOT IN (1) not  in", "END IF end loop END",
	"LEFT OUTER JOIN t NATURAL JOIN u CROSS JOIN v STRAIGHT_JOIN w", "NOT NULL NULLS FIRST UNION ALL",
	"CREATE OR REPLACE DOUBLE PRECISION GROUP BY ORDER BY HANDLER FOR LATERAL VIEW explode",
	"NOT LIKE ilike rlike NOT REGEXP", "AT TIME ZONE 'UTC' WITH' TIME ZONE 'x'", "Kelvin KASE",
	"select distinct ´x", "a; b; c",
}

// checkLexGuards fails when skipping patterns by their first character changes sqlparse's
// tokens of s.
func checkLexGuards(tb testing.TB, s string) {
	tb.Helper()
	if got, want := sqlparseTokensGuarded(s, true), sqlparseTokensGuarded(s, false); !slices.Equal(got, want) {
		tb.Fatalf("sqlparse tokens of %q: guarded %v, every pattern tried %v", s, got, want)
	}
}

// TestLexGuards: the first-character guards of the sqlparse lexer never change a token, on
// every SQL string of the real data and on each pattern's corners.
func TestLexGuards(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing: beside the package's other slow tests (issue 44)
	if testing.Short() {
		t.Skip("the whole query corpus is slow for -short; go test ./... runs it")
	}
	for _, s := range lexGuardEdges {
		checkLexGuards(t, s)
	}
	corpus := testutil.SQLCorpus(t)
	for _, s := range corpus {
		checkLexGuards(t, s)
	}
	t.Logf("%d SQL strings compared", len(corpus)+len(lexGuardEdges))
}

// FuzzLexGuards: as TestLexGuards, on any text.
func FuzzLexGuards(f *testing.F) {
	for _, s := range lexGuardEdges {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLexGuards(t, s)
	})
}
