package match

import (
	"context"
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
