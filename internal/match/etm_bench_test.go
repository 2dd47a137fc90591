package match

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkESMPlusETMSpider: ESM and ETM of one system's 972 executable Spider dev
// questions (DAIL), gold queries included, databases and schemas already open (as in a
// run, where they are opened once and shared by all systems). One op = 972 questions.
func BenchmarkESMPlusETMSpider(b *testing.B) {
	cases := etmSpiderCases(b, "DAIL")
	dbs := etmDBs(b, cases)
	fks, err := ReadFKMaps(testutil.Shared(b, "data/spider/tables.json"))
	if err != nil {
		b.Fatal(err)
	}
	schemas := map[string]*spidersql.Schema{}
	for _, c := range cases {
		if _, ok := schemas[c.dbPath]; !ok {
			if schemas[c.dbPath], err = SchemaFromSQLite(context.Background(), c.dbPath); err != nil {
				b.Fatal(err)
			}
		}
	}
	dbID := func(path string) string { return strings.TrimSuffix(filepath.Base(path), ".sqlite") }
	ctx := context.Background()
	b.ResetTimer()
	defer reportCPU(b)()
	for range b.N {
		for _, c := range cases {
			ExactSetMatch(c.pred, c.gold, schemas[c.dbPath], fks[dbID(c.dbPath)], Options{})
			dbs[c.dbPath].Compare(ctx, c.pred, c.gold)
		}
	}
}

// BenchmarkESMPlusETMSpiderCorrected is BenchmarkESMPlusETMSpider under --etm-mode
// corrected, which also computes the official verdict (and, where they differ, which
// quirk decided): CompareModes.
func BenchmarkESMPlusETMSpiderCorrected(b *testing.B) {
	cases := etmSpiderCases(b, "DAIL")
	dbs := etmDBs(b, cases)
	fks, err := ReadFKMaps(testutil.Shared(b, "data/spider/tables.json"))
	if err != nil {
		b.Fatal(err)
	}
	schemas := map[string]*spidersql.Schema{}
	for _, c := range cases {
		if _, ok := schemas[c.dbPath]; !ok {
			if schemas[c.dbPath], err = SchemaFromSQLite(context.Background(), c.dbPath); err != nil {
				b.Fatal(err)
			}
		}
	}
	dbID := func(path string) string { return strings.TrimSuffix(filepath.Base(path), ".sqlite") }
	ctx := context.Background()
	b.ResetTimer()
	defer reportCPU(b)()
	for range b.N {
		for _, c := range cases {
			ExactSetMatch(c.pred, c.gold, schemas[c.dbPath], fks[dbID(c.dbPath)], Options{})
			dbs[c.dbPath].CompareModes(ctx, c.pred, c.gold)
		}
	}
}

// BenchmarkETMSpider: ETM alone on the same 972 questions.
func BenchmarkETMSpider(b *testing.B) {
	cases := etmSpiderCases(b, "DAIL")
	dbs := etmDBs(b, cases)
	ctx := context.Background()
	b.ResetTimer()
	defer reportCPU(b)()
	for range b.N {
		for _, c := range cases {
			dbs[c.dbPath].Compare(ctx, c.pred, c.gold)
		}
	}
}

// reportCPU adds the process's CPU time per op (user + system) to the benchmark's
// output: on a machine shared with other work, wall time per op mostly measures the
// wait for a core.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}

// BenchmarkETMInList: a query with an IN list of n values against itself, in each mode.
// Rule 18 makes it an OR of n comparisons that P5 sorts: time per op should grow as
// n log n (x4 values: a little over x4 time), never as n² (x16). The largest fits in
// sqlscan.MaxAnalysed, the longest query parsed.
func BenchmarkETMInList(b *testing.B) {
	d := etmTestDB(b)
	for _, n := range []int{9_000, 36_000} {
		q := testutil.InList("t1", "age", n)
		for _, m := range ETMModes {
			b.Run(fmt.Sprintf("%s/n=%d", m, n), func(b *testing.B) {
				defer reportCPU(b)()
				for range b.N {
					if v := d.CompareMode(context.Background(), q, q, m); !v.Match {
						b.Fatalf("no match: %v", v.Err)
					}
				}
			})
		}
	}
}
