package match

import (
	"context"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// Annotate runs each comparison in a goroutine of its own so that a deadline can stop
// waiting for it (spidersql takes no context). A fresh goroutine per record starts on the
// runtime's smallest stack, and Spider's recursive parser then grows it by copying, again
// and again: in a seven-system Spider run that copying was a fifth of ESM's CPU. So the
// comparisons run on a few reused workers instead, whose stacks have already grown.
//
// A worker is started whenever no idle one takes a job at once (the send below does not
// wait), so a comparison never waits for another one, and a worker stuck past its
// record's deadline holds up nothing. A worker idle for esmWorkerIdle ends, so an
// annotator that is no longer used leaves no goroutine behind for long.

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

// startESM runs j on an idle worker, or on a new one when none is idle.
func (a *Annotator) startESM(j esmJob) {
	select {
	case a.jobs <- j:
	default:
		go a.esmWorker(j)
	}
}

// esmWorker runs j, then the jobs handed to it, until it has been idle for esmWorkerIdle.
func (a *Annotator) esmWorker(j esmJob) {
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
