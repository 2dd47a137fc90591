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
	var grows, prows [][]any
	for i := range n {
		name := fmt.Sprintf("Hero %d", i)
		city := fmt.Sprintf("City %d", i%97)
		score := float64(i) / 7
		grows = append(grows, []any{int64(i), name, score, city, int64(i % 13)})
	}
	for i := n - 1; i >= 0; i-- {
		name := fmt.Sprintf(" hero %d", i)
		city := fmt.Sprintf("CITY %d", i%97)
		score := float64(i)/7 + 1e-9
		prows = append(prows, []any{city, name, float64(i), fmt.Sprint(i % 13), score})
	}
	return engine.NewResult([]string{"id", "name", "score", "city", "count"}, grows),
		engine.NewResult([]string{"City", "hero_name", "id", "cnt", "avg_score"}, prows)
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
