package judge

import (
	"errors"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Infrastructure faults (engine.ErrInfrastructure: a lost connection, a server that stopped
// answering, a database file that went away) are not verdicts. A query that fails with one
// is tried again, FaultTries times in all with a doubling wait; if it still fails, the
// question gets no record, nor does any question after it, and Run returns a *FaultError.
// The records emitted before it are complete, so a resumed run judges from that question.

// Default retry policy for infrastructure faults: 3 tries, waiting 1 s then 2 s.
const (
	DefaultFaultTries   = 3
	DefaultFaultBackoff = time.Second
)

// FaultError is Run's error when an infrastructure fault outlasted its retries: Index
// and QuestionID name the first question left unjudged.
type FaultError struct {
	Index      int
	QuestionID string
	Tries      int
	Err        error
}

// Error reads "lost connection to postgres at question 41 (1234), after 3 tries: unexpected EOF".
func (e *FaultError) Error() string {
	op, cause := "infrastructure fault", e.Err
	if fe := (*engine.FaultError)(nil); errors.As(e.Err, &fe) {
		op, cause = fe.Op, fe.Err
	}
	return fmt.Sprintf("%s at question %d (%s), after %d tries: %v", op, e.Index, e.QuestionID, e.Tries, cause)
}

func (e *FaultError) Unwrap() error { return e.Err }

// retryPolicy is Options' fault retry settings with defaults filled in.
type retryPolicy struct {
	tries   int
	backoff time.Duration
	warn    func(string)
}

func newRetryPolicy(opt Options) retryPolicy {
	r := retryPolicy{tries: opt.FaultTries, backoff: opt.FaultBackoff, warn: opt.Warn}
	if r.tries <= 0 {
		r.tries = DefaultFaultTries
	}
	if r.backoff <= 0 {
		r.backoff = DefaultFaultBackoff
	}
	if r.warn == nil {
		r.warn = func(string) {}
	}
	return r
}

// query runs sql, trying again after an infrastructure fault. dur is the last try's.
// Once the question has a fault, nothing more runs for it.
func (qj *questionJob) query(eng engine.Engine, db, sql string) (res *engine.Result, dur time.Duration, err error) {
	if qj.fault != nil {
		return nil, 0, qj.fault
	}
	wait := qj.retry.backoff
	for try := 1; ; try++ {
		t0 := time.Now()
		res, err = eng.Query(qj.ctx, db, sql, qj.lim)
		dur = time.Since(t0)
		if !errors.Is(err, engine.ErrInfrastructure) {
			return res, dur, err
		}
		if try >= qj.retry.tries || qj.ctx.Err() != nil {
			qj.fault, qj.faultTries = err, try
			return nil, dur, err
		}
		qj.retry.warn(fmt.Sprintf("question %d: %v; trying again in %s (%d of %d)", qj.index, err, wait, try+1, qj.retry.tries))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-qj.ctx.Done():
			t.Stop()
		}
		wait *= 2
	}
}
