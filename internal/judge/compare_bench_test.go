package judge

import (
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// millionRows is a 1,000,000 x 3 result (id, name, score) and the same rows reversed:
// the shape of the memory benchmark in scripts/bench.sh.
func millionRows() (gold, pred *engine.Result) {
	const n = 1000000
	g, p := engine.NewResultBuilder([]string{"id", "name", "score"}), engine.NewResultBuilder([]string{"id", "name", "score"})
	for i := range n {
		g.AppendInt(int64(i))
		g.AppendText(fmt.Sprintf("name %d", i))
		g.AppendFloat(float64(i) / 7)
		_ = g.EndRow()
		k := n - 1 - i
		p.AppendInt(int64(k))
		p.AppendText(fmt.Sprintf("name %d", k))
		p.AppendFloat(float64(k) / 7)
		_ = p.EndRow()
	}
	return g.Result(), p.Result()
}

// BenchmarkCompareMillion runs what the judge runs on a correct prediction of a
// million-row gold in another order: BIRD's set comparison, Spider's bag comparison and
// Soft-F1 (B/op is the memory the comparators take on top of the results).
func BenchmarkCompareMillion(b *testing.B) {
	gold, pred := millionRows()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if !BirdEqual(pred, gold) || !SpiderEqual(gold, pred, false) {
			b.Fatal("not equal")
		}
		SoftF1(pred, gold)
	}
}
