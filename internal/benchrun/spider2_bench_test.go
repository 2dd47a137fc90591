package benchrun

import (
	"context"
	"testing"
)

// BenchmarkSpider2Suite: a whole 547-task Spider 2.0 suite answered with result CSVs
// (each task's own gold, so every task is judged on its full table in both modes),
// loaded, paired and judged as eval does, on 2 workers. The issue asks under 2 s:
//
//	go test ./internal/benchrun -run XXX -bench Spider2Suite -benchtime 1x -count 7
func BenchmarkSpider2Suite(b *testing.B) {
	for _, suite := range []string{"lite", "snow"} {
		b.Run(suite, func(b *testing.B) {
			dir := spider2Suite(b, suite)
			preds := goldAsPredictions(b, dir)
			cfg := Config{DatasetSpec: "spider2:" + dir, Workers: 2, Preds: []string{"gold=" + preds}}
			b.ResetTimer()
			for range b.N {
				p, err := Prepare(context.Background(), cfg, nil)
				if err != nil {
					b.Fatal(err)
				}
				res, err := Eval(context.Background(), p, nil, newMemSink(1), nil)
				if err != nil {
					b.Fatal(err)
				}
				if res.Summary.Spider2[0].Official < 540 {
					b.Fatalf("only %d correct", res.Summary.Spider2[0].Official)
				}
			}
		})
	}
}
