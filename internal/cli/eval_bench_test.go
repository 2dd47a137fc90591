package cli

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkEvalSpider is a whole eval run on Spider dev (../shared), in-process: loading,
// judging, annotating, summarising and writing the run directory. It is what pprof
// profiles to find a run's fixed costs (docs/performance.md):
//
//	go test ./internal/cli -run '^$' -bench 'EvalSpider/one/ex$' -benchtime 5x -cpuprofile cpu.out
//
// Sub-benchmarks: one system (DAIL) or the seven, with --metrics ex or every metric.
func BenchmarkEvalSpider(b *testing.B) {
	spider := testutil.Shared(b, "data/spider")
	seven := []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"}
	for _, sys := range []struct {
		name  string
		preds []string
	}{{"one", []string{"DAIL"}}, {"seven", seven}} {
		for _, m := range []string{"ex", "all"} {
			b.Run(sys.name+"/"+m, func(b *testing.B) {
				args := []string{"eval", "--dataset", "spider:" + spider, "--json", "--metrics", m}
				for _, s := range sys.preds {
					args = append(args, "--pred", s+"="+filepath.Join(spider, "predictions", s+".txt"))
				}
				for i := 0; i < b.N; i++ {
					out := filepath.Join(b.TempDir(), "run")
					var errb strings.Builder
					if code := Run(context.Background(), cmdline(append(args, "--out", out)...), strings.NewReader(""), io.Discard, &errb); code != 0 {
						b.Fatalf("exit %d: %s", code, errb.String())
					}
				}
			})
		}
	}
}
