package judge

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestRemoveDistinctFastPath: the fast path must never change what removeDistinct returns.
func TestRemoveDistinctFastPath(t *testing.T) {
	corpus := []string{
		"", " ", "SELECT 1", "SELECT a FROM t WHERE b = 'x'", "select count(*) from t -- note",
		"SELECT DISTINCT a FROM t", "SELECT a FROM t; DROP TABLE t", "SELECT \"distinct\" FROM t",
		"SELECT 'Distinct' FROM t", "SELECT distinct_id FROM t", "/* ; */ SELECT 1",
		"SELECT 1;", "SELECT 1; ", "SELECT 1;\n", "SELECT 1;\t\r\n", ";", " ; ", "SELECT 1;;", "SELECT 'a;",
		"SELECT 'a;b'", "SELECT 1; -- c", "SELECT 1 -- ;", "SELECT 1; SELECT 2;", "SELECT a FROM t WHERE b = ';'",
		"SELECT 1;\v", "SELECT 1;\u00a0", "BEGIN; SELECT 1;", "CREATE TABLE t (a); ",
	}
	if spider, ok := testutil.SharedIfPresent(t, "data/spider/predictions"); ok {
		for _, s := range []string{"DAIL", "C3", "DIN", "RESDSQL", "SuperSQL", "codeS", "RASAT+PICARD"} {
			corpus = append(corpus, readLines(t, filepath.Join(spider, s+".txt"))...)
		}
	}
	for _, s := range corpus {
		if got, want := removeDistinct(s), removeDistinctTokens(s); got != want {
			t.Errorf("removeDistinct(%q) = %q, without the fast path %q", s, got, want)
		}
	}
	t.Logf("checked %d strings", len(corpus))
}

func readLines(tb testing.TB, path string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// FuzzRemoveDistinctFastPath: on any text, the fast path agrees with tokenising.
func FuzzRemoveDistinctFastPath(f *testing.F) {
	for _, s := range []string{"SELECT 1;", "SELECT 1; \t", "SELECT 1;\n", "SELECT DISTINCT a FROM t;", "SELECT 'a;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := removeDistinct(s), removeDistinctTokens(s); got != want {
			t.Errorf("removeDistinct(%q) = %q, without the fast path %q", s, got, want)
		}
	})
}
