package benchrun

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkSummarizeSpider is the summary phase alone (every system's statistics.json
// and summary.json, summarizeResult) of the seven-system Spider dev run with every
// metric: the records are judged once, then only summarised in the loop.
//
//	go test ./internal/benchrun -run XXX -bench SummarizeSpider -count 7
func BenchmarkSummarizeSpider(b *testing.B) {
	spider := testutil.Shared(b, "data/spider")
	cfg := Config{DatasetSpec: "spider:" + spider, Timeout: 30 * time.Second, MaxRows: 1_000_000, Workers: 2}
	for _, s := range []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"} {
		cfg.Preds = append(cfg.Preds, s+"="+filepath.Join(spider, "predictions", s+".txt"))
	}
	p, err := Prepare(context.Background(), cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	res, err := Eval(context.Background(), p, nil, newMemSink(len(cfg.Preds)), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		summarizeResult(context.Background(), p, res)
	}
	// CPU (every thread, GC included) per summary: the machine is shared, so wall time
	// alone says little about what a change saves.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
