package spidersql

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// devGoldSQL is every query of Spider's dev_gold.sql.
func devGoldSQL(tb testing.TB) []string {
	tb.Helper()
	f, err := os.Open(testutil.Shared(tb, "data/spider/dev_gold.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sql, _, _ := strings.Cut(sc.Text(), "\t")
		out = append(out, sql)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkTokenize: every Spider dev gold query (1034) tokenized once per op, by the
// hand-written scanner and by the regular-expression oracle it replaced, in one run so
// their ratio is measured under the same load.
func BenchmarkTokenize(b *testing.B) {
	qs := devGoldSQL(b)
	for _, impl := range []struct {
		name string
		f    func(string) ([]string, error)
	}{{"scan", Tokenize}, {"regex", regexTokenize}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, q := range qs {
					if _, err := impl.f(q); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkParseDevGold: every Spider dev gold query parsed once per op (tokenizing
// included), schemas read beforehand.
func BenchmarkParseDevGold(b *testing.B) {
	schemas := spiderSchemas(b)
	qs := testutil.SpiderDev(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range qs {
			if _, err := Parse(q.Query, schemas[q.DBID]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
