package match

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkSpiderAnnotator is ESM and partial match as eval runs them: through the
// annotator, one record at a time under a per-record deadline, for three systems' Spider
// predictions. Schemas and gold queries are prepared before the timer starts (a real run
// shares them across systems), so this is the per-record cost.
func BenchmarkSpiderAnnotator(b *testing.B) {
	dir := testutil.Shared(b, "data/spider")
	ctx := context.Background()
	ds, err := dataset.Load(ctx, "spider:"+dir, dataset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var preds []string
	for _, system := range []string{"DAIL", "C3", "DIN"} {
		set, err := predict.ReadFor(testutil.Shared(b, "data/spider/predictions/"+system+".txt"), len(ds.Questions))
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range set.Items {
			preds = append(preds, it.SQL)
		}
	}
	paths := make([]string, len(ds.Questions))
	for i := range ds.Questions {
		paths[i], _ = ds.DBPath(ds.Questions[i].DBID)
	}
	a := NewAnnotator(ds.Tables, Options{})
	run := func() {
		for i, pred := range preds {
			qi := i % len(ds.Questions)
			rctx, cancel := context.WithTimeout(ctx, time.Minute)
			rec := &record.Record{PredSQL: pred}
			if err := a.Annotate(rctx, &ds.Questions[qi], paths[qi], rec); err != nil {
				b.Fatal(err)
			}
			cancel()
		}
	}
	run() // schemas and gold queries
	b.ResetTimer()
	for b.Loop() {
		run()
	}
}
