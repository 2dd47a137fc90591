package livesql

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// Execer runs SQL on a task's database copy (taskdb.Copy is one).
type Execer interface {
	Exec(ctx context.Context, sql string, lim taskdb.ExecLimits) (*taskdb.Result, error)
}

// Failure is the kind of a failed verdict, as the official evaluator counts them.
type Failure string

// The failures. An infrastructure fault (a lost connection) is not a verdict: RunQuery
// returns it as an error.
const (
	ExecutionError Failure = "execution_error" // the prediction failed to run
	Timeout        Failure = "timeout"         // the prediction ran past the statement timeout
	Assertion      Failure = "assertion"       // the test case failed (ex_base returned 0 or raised)
)

// Verdict is one turn's judgement.
type Verdict struct {
	Pass    bool
	Failure Failure
	Detail  string // why, when it failed
	Ran     []Ran  // every statement run on the copy, in order
	// Corrected mode only (corrected.go): the official default test case's verdict
	// (nil: not judged both ways), the corrections that applied to the turn, and a
	// failed clean-up's error.
	OfficialPass *bool
	Corrections  []Correction
	// ChangedBy (corrected mode, when the verdict differs from the official one) are the
	// corrections that made the difference: each that alone turns the official verdict
	// into the corrected one, or, when none does alone, every one that applied to the
	// comparison (together). clean_up_sqls never changes a verdict.
	ChangedBy    []Correction
	CleanUpError string
}

// Ran is one statement run on a task's copy: the step that ran it (preprocess,
// prediction, test: the default test case's cleaned prediction, gold: its cleaned
// gold), and its row count or error.
type Ran struct {
	Step  string
	SQL   string
	Rows  int
	Error string
}

// Official limits: psycopg2's statement_timeout of 60 s before every statement, and
// fetchmany(10001) cut to 10000 rows.
const (
	OfficialTimeout = 60 * time.Second
	OfficialRows    = 10000
)

// RunQuery judges a Query task's turn as the official evaluator does, on db (a fresh
// copy): preprocess (its errors ignored), the prediction as given (an error or a
// timeout fails it), then the default test case on the same connection: the
// prediction and the gold, each cleaned (RemoveComments, RemoveDistinct, RemoveRound),
// run again in that order and compared by ex_base. Note the prediction runs twice, the
// second time after its own first run's effects.
func RunQuery(ctx context.Context, db Execer, preprocess, pred, gold []string, order bool, timeout time.Duration) (Verdict, error) {
	if timeout <= 0 {
		timeout = OfficialTimeout
	}
	lim := taskdb.ExecLimits{Timeout: timeout, KeepRows: OfficialRows}
	rec := &recorder{db: db}
	if _, _, err := executeQueries(ctx, rec.as("preprocess"), preprocess, lim); err != nil {
		return Verdict{}, err
	}
	if _, fail, err := executeQueries(ctx, rec.as("prediction"), pred, lim); err != nil {
		return Verdict{}, err
	} else if fail != nil {
		kind := ExecutionError
		if errors.Is(fail, taskdb.ErrTimeout) {
			kind = Timeout
		}
		return Verdict{Failure: kind, Detail: fail.Error(), Ran: rec.ran}, nil
	}
	ok, detail, err := exBase(ctx, rec, clean(pred), clean(gold), order, lim)
	if err != nil {
		return Verdict{}, err
	}
	if !ok {
		return Verdict{Failure: Assertion, Detail: detail, Ran: rec.ran}, nil
	}
	return Verdict{Pass: true, Ran: rec.ran}, nil
}

// recorder is an Execer that notes each statement it runs under the current step.
type recorder struct {
	db   Execer
	step string
	ran  []Ran
}

func (r *recorder) as(step string) *recorder { r.step = step; return r }

func (r *recorder) Exec(ctx context.Context, sql string, lim taskdb.ExecLimits) (*taskdb.Result, error) {
	res, err := r.db.Exec(ctx, sql, lim)
	x := Ran{Step: r.step, SQL: sql}
	if err != nil {
		x.Error = err.Error()
	} else if res != nil {
		x.Rows = res.TotalRows
	}
	r.ran = append(r.ran, x)
	return res, err
}

func clean(sqls []string) []string {
	out := make([]string, len(sqls))
	for i, s := range sqls {
		out[i] = RemoveRound(RemoveDistinct(RemoveComments(s)))
	}
	return out
}

// exBase is ex_base: run the prediction's statements, then the gold's, each list
// stopping at its first error; any error or timeout is 0; then Compare the two lists'
// last results. A last statement without rows (an UPDATE) is a TypeError in
// preprocess_results, which fails the test case as 0 would.
func exBase(ctx context.Context, db Execer, pred, gold []string, order bool, lim taskdb.ExecLimits) (bool, string, error) {
	ok, why, _, err := exBaseRows(ctx, db, pred, gold, order, lim)
	return ok, why, err
}

// resultPair is the two results a default test case compares; nil when one side failed
// or returned no result set before the comparison (the turn fails whatever is corrected).
type resultPair struct{ pred, gold [][]Value }

// exBaseRows is exBase, with the results it compared (nil: none, it failed before).
func exBaseRows(ctx context.Context, db Execer, pred, gold []string, order bool, lim taskdb.ExecLimits) (bool, string, *resultPair, error) {
	ok, why, pair, err := exBaseRun(ctx, db, pred, gold, lim)
	if err != nil || pair == nil {
		return ok, why, nil, err
	}
	ok, why, err = Compare(pair.pred, pair.gold, order)
	if err != nil {
		return false, err.Error(), pair, nil
	}
	return ok, why, pair, nil
}

// exBaseRun runs the cleaned prediction and gold as ex_base does and reads their rows;
// pair is nil when the turn fails before any comparison (why says how).
func exBaseRun(ctx context.Context, db Execer, pred, gold []string, lim taskdb.ExecLimits) (bool, string, *resultPair, error) {
	if len(pred) == 0 || len(gold) == 0 {
		return false, "no SQL", nil, nil
	}
	if r, ok := db.(*recorder); ok {
		db = r.as("test")
	}
	pres, pfail, err := executeQueries(ctx, db, pred, lim)
	if err != nil {
		return false, "", nil, err
	}
	if r, ok := db.(*recorder); ok {
		db = r.as("gold")
	}
	gres, gfail, err := executeQueries(ctx, db, gold, lim)
	if err != nil {
		return false, "", nil, err
	}
	switch {
	case pfail != nil:
		return false, "cleaned prediction failed: " + pfail.Error(), nil, nil
	case gfail != nil:
		return false, "cleaned gold failed: " + gfail.Error(), nil, nil
	case pres == nil || !pres.HasRows:
		return false, "prediction returned no result set (TypeError in preprocess_results)", nil, nil
	case !gres.HasRows:
		return false, "gold returned no result set (TypeError in preprocess_results)", nil, nil
	}
	p, err := FromPostgres(pres)
	if err != nil {
		return false, "prediction: " + err.Error(), nil, nil
	}
	g, err := FromPostgres(gres)
	if err != nil {
		return false, "gold: " + err.Error(), nil, nil
	}
	return false, "", &resultPair{p, g}, nil
}

// executeQueries is execute_queries: each statement in order on the same connection,
// stopping at the first that fails (fail: an SQL error or a timeout); res is the last
// result that ran. err is an infrastructure fault, never a verdict.
func executeQueries(ctx context.Context, db Execer, sqls []string, lim taskdb.ExecLimits) (res *taskdb.Result, fail, err error) {
	for i, q := range sqls {
		r, err := db.Exec(ctx, q, lim)
		var se *taskdb.SQLError
		switch {
		case err == nil:
			res = r
			continue
		case errors.As(err, &se), errors.Is(err, taskdb.ErrTimeout), errors.Is(err, taskdb.ErrTooLarge):
			return res, fmt.Errorf("statement %d: %w", i+1, err), nil
		}
		return nil, nil, err
	}
	return res, nil, nil
}
