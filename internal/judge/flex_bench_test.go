package judge

import (
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// flexBenchResults is a 10,000-row, 5-column gold result and a prediction holding the
// same rows in reverse order, with columns reordered, renamed and differently typed
// (floats for ints, numeric text, other case): the full normalise, map, sort path.
func flexBenchResults() (gold, pred *engine.Result) {
	const n = 10000
	gold = &engine.Result{Columns: []string{"id", "name", "score", "city", "count"}}
	pred = &engine.Result{Columns: []string{"City", "hero_name", "id", "cnt", "avg_score"}}
	for i := range n {
		name := fmt.Sprintf("Hero %d", i)
		city := fmt.Sprintf("City %d", i%97)
		score := float64(i) / 7
		gold.Rows = append(gold.Rows, []any{int64(i), name, score, city, int64(i % 13)})
	}
	for i := n - 1; i >= 0; i-- {
		name := fmt.Sprintf(" hero %d", i)
		city := fmt.Sprintf("CITY %d", i%97)
		score := float64(i)/7 + 1e-9
		pred.Rows = append(pred.Rows, []any{city, name, float64(i), fmt.Sprint(i % 13), score})
	}
	return gold, pred
}

func BenchmarkFlexCompare(b *testing.B) {
	gold, pred := flexBenchResults()
	if got := FlexCompare(gold, pred); got.Verdict != FlexExact {
		b.Fatalf("benchmark input: %+v, want exact", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		FlexCompare(gold, pred)
	}
}
