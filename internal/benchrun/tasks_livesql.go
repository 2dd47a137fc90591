package benchrun

import (
	"cmp"
	"context"
	"regexp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// BIRD-Interact's rewards for a turn passed on a first try (db_environment/server.py,
// phase_rewards_first).
const (
	rewardPhase1 = 0.7
	rewardPhase2 = 0.3
)

// byComparison reports whether a turn is judged by the default test case (ex_base on
// the prediction's and the gold's results) rather than by its own test code. The
// official LiveSQLBench evaluator gives every Query task the default test case (its own
// test cases, if any, are not run); BIRD-Interact's server does the same for a turn
// whose category is Query or that has no test cases, which is the rule for both turns
// here (on bat-interact the two agree for every first turn).
func byComparison(cat taskset.Category, testCases []string) bool {
	return cat == taskset.Query || len(testCases) == 0
}

// judgeLiveSQL judges a BIRD-Interact / LiveSQLBench task into r, as the official
// evaluator judges the first turn and BIRD-Interact the follow-up:
//
//   - turn 1, on a fresh copy: preprocess_sql, the prediction, then the default test
//     case (livesql.RunQuery) or the task's test code (livesql.RunWithTests, only with
//     a TestRunner: without one the turn is not judged).
//   - turn 2, only when turn 1 passed: a fresh copy where preprocess_sql and turn 1's
//     PREDICTED statements ran (BIRD-Interact's phase-1 snapshot: what the prediction
//     left, not the gold), then the follow-up's prediction, judged the same way.
//   - the reward: 0.7 for turn 1 passed plus 0.3 for turn 2 passed (a first try).
//
// clean_up_sqls do not run: each turn's copy is dropped after it.
func judgeLiveSQL(ctx context.Context, p *Plan, tmpl templater, t taskset.Task, pred *predict.TaskPred, r *record.Record) error {
	cfg := p.Config
	r.TaskCategory = string(t.Category)
	phase1, judged, err := liveSQLTurn(ctx, cfg, tmpl, t, t.Preprocess, nil, turnOf(t, pred), turnFields{&r.Verdict, &r.ErrorCategory, &r.ErrorMessage, &r.TaskFailure, &r.TaskNotJudged, &r.TaskRan, &r.TaskOfficialVerdict, &r.TaskCorrections, &r.TaskChangedBy})
	if err != nil {
		return err
	}
	if phase1 {
		r.ExBird, r.ExSpider = 1, 1
	}
	reward := 0.0
	known := judged
	if phase1 {
		reward = rewardPhase1
	}
	if f := t.FollowUp; f != nil {
		fu := &record.FollowUp{Category: string(f.Category), Difficulty: f.Difficulty, Question: f.Query, GoldSQL: joinSQL(f.SolSQL)}
		r.FollowUp = fu
		if pred != nil && pred.FollowUp != nil {
			fu.PredSQL = joinSQL(pred.FollowUp)
		}
		switch {
		case !judged:
			fu.Verdict, fu.NotJudged = record.Skipped, "the first turn is not judged"
		case !phase1:
			fu.Verdict, fu.NotJudged = record.Skipped, "not reached: the first turn did not pass"
		case pred == nil || pred.FollowUp == nil:
			fu.Verdict, fu.NotJudged = record.Skipped, "not reached: no follow_up_pred_sqls"
		default:
			// Turn 1's prediction, replayed on the snapshot: its statements as given.
			setup := append(append([]string{}, t.Preprocess...), pred.SQL...)
			turn := liveTurn{Category: f.Category, Gold: f.SolSQL, Tests: f.TestCases, Order: f.Conditions.Order, Decimal: f.Conditions.Decimal, Pred: pred.FollowUp, Has: true}
			pass, ok, err := liveSQLTurn(ctx, cfg, tmpl, t, nil, setup, turn, turnFields{&fu.Verdict, &fu.ErrorCategory, &fu.ErrorMessage, &fu.Failure, &fu.NotJudged, &fu.Ran, &fu.OfficialVerdict, &fu.Corrections, &fu.ChangedBy})
			if err != nil {
				return err
			}
			known = ok
			if pass {
				reward += rewardPhase2
			}
		}
	}
	if known {
		r.TaskReward = &reward
	}
	return nil
}

// liveTurn is one turn to judge.
type liveTurn struct {
	Category taskset.Category
	Gold     []string
	Tests    []string
	Order    bool
	Decimal  int      // conditions.decimal (-1: none); corrected mode reads it
	CleanUp  []string // clean_up_sqls; corrected mode runs them (the first turn's only)
	Pred     []string
	Has      bool // a prediction was given
}

func turnOf(t taskset.Task, pred *predict.TaskPred) liveTurn {
	lt := liveTurn{Category: t.Category, Gold: t.SolSQL, Tests: t.TestCases, Order: t.Conditions.Order, Decimal: t.Conditions.Decimal, CleanUp: t.CleanUp}
	if pred != nil {
		lt.Pred, lt.Has = pred.SQL, true
	}
	return lt
}

// turnFields are where a turn's outcome goes: the record's own fields or its follow_up's.
type turnFields struct {
	verdict   *record.Verdict
	cat       *record.ErrorCategory
	msg       *string
	failure   *string
	notJudged *string
	ran       *[]record.TaskStep
	official  *record.Verdict // corrected mode: the official verdict where it differs
	corr      *[]string       // corrected mode: the corrections that applied
	changedBy *[]string       // corrected mode: those that made the verdict differ
}

// liveSQLTurn judges one turn on a fresh copy: snapshot (the earlier turn's statements,
// replayed), then preprocess, the prediction and the test. pass: it passed; judged: it
// has a verdict.
func liveSQLTurn(ctx context.Context, cfg Config, tmpl templater, t taskset.Task, preprocess, snapshot []string, turn liveTurn, out turnFields) (pass, judged bool, err error) {
	if !turn.Has {
		noPrediction(out.verdict, out.cat, out.msg)
		*out.failure = record.FailPrediction
		return false, true, nil
	}
	tests := !byComparison(turn.Category, turn.Tests)
	if tests && cfg.TestRunner == nil {
		*out.verdict, *out.notJudged = record.Skipped, cmp.Or(cfg.noTestsWhy, record.NotJudgedTaskCode)
		return false, false, nil
	}
	var v livesql.Verdict
	err = withCopy(ctx, tmpl, func(c taskdb.Copy) error {
		var ran []livesql.Ran
		if len(snapshot) > 0 {
			var err error
			if ran, err = livesql.Replay(ctx, c, "first turn", snapshot, cfg.Timeout); err != nil {
				return err
			}
		}
		var err error
		if tests {
			v, err = livesql.RunWithTests(ctx, c, cfg.TestRunner, preprocess, livesql.TestCall{TaskID: t.ID, DBName: t.DB,
				TestCases: turn.Tests, Pred: turn.Pred, Gold: turn.Gold, Order: turn.Order, Timeout: cfg.Timeout})
		} else if cfg.LiveSQLMode == LiveSQLCorrected {
			v, err = livesql.RunQueryCorrected(ctx, c, preprocess, turn.Pred, turn.Gold, turn.CleanUp,
				livesql.Conditions{Order: turn.Order, Decimal: turn.Decimal}, cfg.Timeout)
		} else {
			v, err = livesql.RunQuery(ctx, c, preprocess, turn.Pred, turn.Gold, turn.Order, cfg.Timeout)
		}
		v.Ran = append(ran, v.Ran...)
		return err
	})
	if err != nil {
		return false, false, err
	}
	for _, x := range v.Ran {
		*out.ran = append(*out.ran, record.TaskStep{Step: x.Step, SQL: x.SQL, Rows: x.Rows, Error: x.Error})
	}
	*out.msg = v.Detail
	for _, c := range v.Corrections {
		*out.corr = append(*out.corr, string(c))
	}
	for _, c := range v.ChangedBy {
		*out.changedBy = append(*out.changedBy, string(c))
	}
	if v.CleanUpError != "" {
		*out.ran = append(*out.ran, record.TaskStep{Step: "clean_up", Error: "clean_up_sqls failed (no verdict changes): " + v.CleanUpError})
	}
	if v.OfficialPass != nil && *v.OfficialPass != v.Pass {
		*out.official = record.Incorrect
		if *v.OfficialPass {
			*out.official = record.Correct
		}
	}
	switch {
	case v.Pass:
		*out.verdict = record.Correct
		return true, true, nil
	case v.Failure == livesql.ExecutionError:
		*out.verdict, *out.cat, *out.failure = record.Error, sqlStateCategory(v.Detail), record.FailPrediction
	case v.Failure == livesql.Timeout:
		*out.verdict, *out.cat, *out.failure = record.Error, record.Timeout, record.FailTimeout
	case v.Failure == livesql.TestError:
		*out.verdict, *out.failure = record.Incorrect, record.FailTestError
	case tests:
		*out.verdict, *out.failure = record.Incorrect, record.FailAssertion
	default:
		*out.verdict, *out.failure = record.Incorrect, record.FailMismatch
	}
	return false, true, nil
}

var sqlState = regexp.MustCompile(`\(SQLSTATE ([0-9A-Z]{5})\)`)

// sqlStateCategory is the error category of a PostgreSQL error message by its SQLSTATE.
func sqlStateCategory(msg string) record.ErrorCategory {
	m := sqlState.FindStringSubmatch(msg)
	if m == nil {
		return record.Other
	}
	switch m[1] {
	case "42601":
		return record.SyntaxError
	case "42P01":
		return record.NoSuchTable
	case "42703":
		return record.NoSuchColumn
	case "42883":
		return record.NoSuchFunction
	}
	return record.Other
}
