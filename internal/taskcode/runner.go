package taskcode

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
)

// Runner is the livesql.TestRunner of --task-code python: each of a turn's test cases
// in a fresh sandbox of P, in order, on the turn's database copy, as the official
// run_test_case calls them (pred_sqls, sol_sqls, db_name, conn and no keyword arguments
// for a task's own test cases; the global pred_query_result is the prediction's last
// result).
//
// The official evaluator runs every test case and fails the turn when any did not
// pass; the first that does not pass decides the verdict here (the rest could only run
// more SQL on a copy that is dropped). Whatever the test code does (an assertion, an
// exception, code that does not compile, a timeout, a limit) is the turn's verdict: an
// assertion is livesql.Assertion, anything else livesql.TestError, each with what the
// sandbox said. Only the caller's own faults (a lost connection, a sandbox that cannot
// start, the run stopped) are errors.
type Runner struct {
	P *Python
}

var _ livesql.TestRunner = Runner{}

// Run runs call's test cases on db.
func (r Runner) Run(ctx context.Context, call livesql.TestCall, db livesql.Execer) (livesql.Verdict, error) {
	p := *r.P
	if call.Timeout > 0 {
		p.Limits.Statement = call.Timeout
	}
	for i, code := range call.TestCases {
		o, err := p.Run(ctx, db, Case{Code: code, PredSQLs: call.Pred, SolSQLs: call.Gold, DBName: call.DBName,
			Kwargs: map[string]any{}, PredResult: call.PredResult})
		if err != nil {
			return livesql.Verdict{}, fmt.Errorf("test case %d: %w", i+1, err)
		}
		if o.Status == Passed {
			continue
		}
		v := livesql.Verdict{Failure: livesql.TestError, Detail: describe(i+1, len(call.TestCases), o)}
		if o.Status == Assertion {
			v.Failure = livesql.Assertion
		}
		return v, nil
	}
	return livesql.Verdict{Pass: true}, nil
}

// describe is a failed test case's outcome as a record's message: which test case, how
// it ended and the message, e.g. "test case 1 of 2: assertion: expected 3 rows".
func describe(i, n int, o Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "test case %d of %d: ", i, n)
	switch {
	case o.Status == Assertion:
		b.WriteString("assertion")
	case o.Compile:
		b.WriteString("does not compile")
	case o.Status == TestError:
		b.WriteString("error")
	default:
		b.WriteString(string(o.Status))
	}
	if o.Class != "" && o.Status != Assertion {
		b.WriteString(": " + o.Class)
	}
	if msg := strings.TrimSpace(o.Message); msg != "" {
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		b.WriteString(": " + msg)
	}
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}
