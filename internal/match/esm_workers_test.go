package match

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestESMWorkerReused: after a comparison the worker waits for the next job, so a
// second record is handed to it rather than to a new goroutine, and its verdict arrives.
func TestESMWorkerReused(t *testing.T) {
	db := makeDB(t)
	a := NewAnnotator("", Options{})
	q := &dataset.Question{Index: 1, DBID: "shop", Gold: []string{"SELECT Name FROM Customer"}}
	rec := &record.Record{PredSQL: "SELECT name FROM customer"}
	if err := a.Annotate(context.Background(), q, db, rec); err != nil {
		t.Fatal(err)
	}
	if rec.ESM == nil || *rec.ESM != 1 {
		t.Fatalf("esm = %v, want 1", rec.ESM)
	}
	s, err := a.schema(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan esmResult, 1)
	select {
	case a.jobs <- esmJob{ctx: context.Background(), q: q, pred: "SELECT City FROM Customer", s: s, done: done}:
	case <-time.After(esmWorkerIdle / 2):
		t.Fatal("no idle worker took the second job")
	}
	if res := <-done; res.verdict == nil || *res.verdict != 0 {
		t.Fatalf("second job: verdict %v, want 0", res.verdict)
	}
}

// TestESMWorkersConcurrent: records annotated from many goroutines at once get the
// verdicts they get one at a time.
func TestESMWorkersConcurrent(t *testing.T) {
	db := makeDB(t)
	a := NewAnnotator("", Options{})
	q := &dataset.Question{Index: 2, DBID: "shop", Gold: []string{"SELECT Name FROM Customer WHERE City = 'x'"}}
	preds := []string{"SELECT name FROM customer WHERE city = 'y'", "SELECT City FROM Customer", "SELEC nonsense"}
	want := []int{1, 0, 0}
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := &record.Record{PredSQL: preds[i%len(preds)]}
			if err := a.Annotate(context.Background(), q, db, rec); err != nil {
				t.Error(err)
				return
			}
			if rec.ESM == nil || *rec.ESM != want[i%len(preds)] {
				t.Errorf("record %d: esm %v, want %d", i, rec.ESM, want[i%len(preds)])
			}
		}()
	}
	wg.Wait()
}
