package match

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// TestESMStopsAtDeadline: a comparison whose prediction takes long to parse stops soon
// after its record's deadline, so its worker is free again (it takes the next job) well
// before the whole comparison would have ended; and no worker starts past maxESMWorkers.
func TestESMStopsAtDeadline(t *testing.T) {
	s := spidersql.NewSchema(map[string][]string{"singer": {"singer_id", "name", "age"}})
	q := &dataset.Question{Index: 0, DBID: "concert", Gold: []string{"SELECT name FROM singer WHERE age > 1"}}
	// As many conditions as a query parsed at all may hold (sqlscan.MaxAnalysed).
	const prefix, cond = "SELECT name FROM singer WHERE ", "age > 1 AND "
	pred := prefix + strings.Repeat(cond, (sqlscan.MaxAnalysed-len(prefix)-len(cond))/len(cond)) + "age > 1"
	a := NewAnnotator("", Options{})

	// The fastest of three runs: one slowed by load made the deadline long enough for the
	// stopped comparison to finish (a CI flake: 141 ms measured, done within its 7 ms).
	full := time.Duration(math.MaxInt64)
	for range 3 {
		start := time.Now()
		if res := a.esm(context.Background(), q, pred, s, nil); res.verdict == nil {
			t.Fatal("esm of the long prediction gave no verdict")
		}
		full = min(full, time.Since(start))
	}

	// Up to three tries: the worker's release is timed in milliseconds, and one scheduling
	// pause under load (13.7 ms against a 10 ms line in an uncached -short run) is not a
	// parse that went on. A parse that does not stop fails every try.
	var freed time.Duration
	for try := 1; try <= 3; try++ {
		if freed = stopAtDeadline(t, a, q, pred, s, full); freed <= full/2 {
			break
		}
		t.Logf("try %d: the worker came free after %v (deadline %v), the whole comparison takes %v", try, freed, full/20, full)
	}
	if freed > full/2 {
		t.Errorf("the worker came free after %v (deadline %v), the whole comparison takes %v: the parse did not stop", freed, full/20, full)
	}
	t.Logf("whole comparison %v; with a deadline of %v the worker was free after %v", full, full/20, freed)

	// With maxESMWorkers running and none idle, a job starts no worker: it waits, and
	// gives up when its own deadline passes.
	b := NewAnnotator("", Options{})
	for range maxESMWorkers() {
		b.workers <- struct{}{}
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer wcancel()
	if b.startESM(esmJob{ctx: wctx, q: q, pred: pred, s: s, done: make(chan esmResult, 1)}) {
		t.Error("startESM started a job past maxESMWorkers")
	}
}

// stopAtDeadline runs the comparison of pred with a deadline of a twentieth of full and
// returns when its worker took the next job; the stopped comparison must give no verdict.
func stopAtDeadline(t *testing.T, a *Annotator, q *dataset.Question, pred string, s *spidersql.Schema, full time.Duration) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), full/20)
	defer cancel()
	done := make(chan esmResult, 1)
	start := time.Now()
	if !a.startESM(esmJob{ctx: ctx, q: q, pred: pred, s: s, done: done}) {
		t.Fatal("startESM refused a job with time left")
	}
	<-ctx.Done()
	// The worker takes the next job once it has given up the first one.
	probe := esmJob{ctx: context.Background(), q: &dataset.Question{}, done: make(chan esmResult, 1)}
	select {
	case a.jobs <- probe:
	case <-time.After(full):
		t.Fatalf("the worker was still busy %v after its job's deadline (%v); the whole comparison takes %v", time.Since(start), full/20, full)
	}
	freed := time.Since(start)
	if res := <-done; res.verdict != nil {
		t.Error("a comparison stopped by its deadline gave a verdict")
	}
	<-probe.done
	return freed
}
