package livesql

import (
	"context"
	"errors"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// TestError is the failure of a turn whose test code itself failed to run (an exception
// other than an assertion, code that does not compile): the official evaluator counts it
// as a failed test case.
const TestError Failure = "test_error"

// TestRunner runs a turn's own test cases (Python functions test_case(pred_sqls,
// sol_sqls, db_name, conn) from the dataset) against the task's database copy. The
// sandboxed runner of --task-code python (package taskcode) implements it; a run without
// one leaves every turn that needs its test code not judged, never wrong.
//
// Run is called after RunWithTests ran the preprocess and the prediction on db without
// an error, on the same copy; the test code reaches the database only through db. It
// returns the turn's verdict: Pass, or Failure Assertion (an assertion failed) or
// TestError (the test code raised anything else), with the message in Detail. Its
// error is an infrastructure fault (python3 missing, the sandbox failed), never a verdict.
type TestRunner interface {
	Run(ctx context.Context, call TestCall, db Execer) (Verdict, error)
}

// TestCall is what a turn's test cases are called with.
type TestCall struct {
	TaskID    string
	DBName    string   // db_name as the test code sees it (the benchmark's database name)
	TestCases []string // Python source, each defining test_case, run in order
	Pred      []string // pred_sqls
	Gold      []string // sol_sqls
	Order     bool     // conditions.order, for the test code's ex_base calls
	Timeout   time.Duration
	// PredResult is the prediction's last result (the test code's global
	// pred_query_result); RunWithTests sets it. nil: None.
	PredResult *taskdb.Result
}

// RunWithTests judges a turn by its test cases as the official evaluator does: on db (a
// fresh copy), the preprocess (errors ignored), then the prediction (an error or a
// timeout fails it and no test runs), then runner's test cases.
func RunWithTests(ctx context.Context, db Execer, runner TestRunner, preprocess []string, call TestCall) (Verdict, error) {
	if call.Timeout <= 0 {
		call.Timeout = OfficialTimeout
	}
	lim := taskdb.ExecLimits{Timeout: call.Timeout, KeepRows: OfficialRows}
	rec := &recorder{db: db}
	if _, _, err := executeQueries(ctx, rec.as("preprocess"), preprocess, lim); err != nil {
		return Verdict{}, err
	}
	res, fail, err := executeQueries(ctx, rec.as("prediction"), call.Pred, lim)
	if err != nil {
		return Verdict{}, err
	} else if fail != nil {
		kind := ExecutionError
		if errors.Is(fail, taskdb.ErrTimeout) {
			kind = Timeout
		}
		return Verdict{Failure: kind, Detail: fail.Error(), Ran: rec.ran}, nil
	}
	call.PredResult = res
	v, err := runner.Run(ctx, call, rec.as("test"))
	if err != nil {
		return Verdict{}, err
	}
	v.Ran = append(rec.ran, v.Ran...)
	return v, nil
}

// Replay runs sqls on db, each stopping at the first that fails, as the official
// execute_queries does, and returns what ran: how the orchestrator applies a turn's
// prediction to a fresh copy before the next turn (BIRD-Interact's phase-1 snapshot).
// err is an infrastructure fault; a failing statement is in the last Ran's Error.
func Replay(ctx context.Context, db Execer, step string, sqls []string, timeout time.Duration) ([]Ran, error) {
	if timeout <= 0 {
		timeout = OfficialTimeout
	}
	rec := &recorder{db: db, step: step}
	_, _, err := executeQueries(ctx, rec, sqls, taskdb.ExecLimits{Timeout: timeout, KeepRows: OfficialRows})
	return rec.ran, err
}
