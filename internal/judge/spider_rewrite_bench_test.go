package judge

import (
	"path/filepath"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkSpiderRewritePred: the text Spider executes, for every line of the seven
// Spider dev prediction files (7 x 1034) per op.
func BenchmarkSpiderRewritePred(b *testing.B) {
	dir := testutil.Shared(b, "data/spider/predictions")
	var preds []string
	for _, s := range []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"} {
		preds = append(preds, readLines(b, filepath.Join(dir, s+".txt"))...)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range preds {
			SpiderRewritePred(p)
		}
	}
}
