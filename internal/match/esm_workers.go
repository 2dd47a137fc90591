package match

import (
	"context"
	"runtime"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// Annotate runs each comparison in another goroutine so that a deadline stops the waiting
// at once (the parse itself stops soon after: it takes the record's ctx). A fresh goroutine per record starts on the
// runtime's smallest stack, and Spider's recursive parser then grows it by copying, again
// and again, a large share of ESM's CPU in a seven-system Spider run. So the
// comparisons run on a few reused workers instead, whose stacks have already grown.
//
// A worker is started whenever no idle one takes a job at once, up to maxESMWorkers: ESM
// only uses CPU, so more workers than a few per core would not finish sooner. Past that a
// job waits for a worker under its own deadline. A worker idle for esmWorkerIdle ends, so
// an annotator that is no longer used leaves no goroutine behind for long.

// esmWorkerIdle is how long an idle worker waits for its next job before it ends.
const esmWorkerIdle = 2 * time.Second

// esmJob is one record's comparison; its result goes to done (buffered: the worker never
// blocks on a caller that stopped waiting).
type esmJob struct {
	ctx  context.Context
	q    *dataset.Question
	pred string
	s    *spidersql.Schema
	fk   FKMap
	done chan esmResult
}

// maxESMWorkers bounds an annotator's workers.
func maxESMWorkers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// startESM runs j on an idle worker, or on a new one when none is idle and there are
// fewer than maxESMWorkers, else on the first worker that comes free. It returns false,
// running nothing, when j's ctx ends first.
func (a *Annotator) startESM(j esmJob) bool {
	select {
	case a.jobs <- j:
		return true
	default:
	}
	select {
	case a.jobs <- j:
	case a.workers <- struct{}{}:
		go a.esmWorker(j)
	case <-j.ctx.Done():
		return false
	}
	return true
}

// esmWorker runs j, then the jobs handed to it, until it has been idle for esmWorkerIdle.
func (a *Annotator) esmWorker(j esmJob) {
	defer func() { <-a.workers }()
	t := time.NewTimer(esmWorkerIdle)
	defer t.Stop()
	for {
		j.done <- a.esm(j.ctx, j.q, j.pred, j.s, j.fk)
		j = esmJob{} // drop the record's references while idle
		t.Reset(esmWorkerIdle)
		select {
		case j = <-a.jobs:
		case <-t.C:
			return
		}
	}
}
