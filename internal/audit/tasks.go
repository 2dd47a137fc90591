package audit

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// The gold audit of BIRD-Interact / LiveSQLBench tasks (livesql:DIR): each task's
// preprocess and gold run on a fresh copy of its database, as the official evaluator
// would run them with the gold as the prediction, and what makes the task impossible
// to pass (or its answer a matter of the day it is run) is a gold finding:
//
//   - preprocess_error: a preprocess_sql statement fails (the official evaluator ignores
//     it, so the task runs on a database other than the one its author meant);
//   - gold_error: a gold statement fails;
//   - gold_empty: a Query task's gold returns no rows, which the official ex_base fails
//     whatever the prediction (preprocess_results raises on an empty result);
//   - distinct_on_stripped: the official remove_distinct strips DISTINCT from DISTINCT
//     ON (...), leaving SQL that fails or returns other rows than the gold's;
//   - now_on_fixed_data: the gold or preprocess calls NOW(), CURRENT_DATE and the like
//     on a database whose data is fixed, so its answer changes with the day it is run.
//
// The Python test cases are not run here (--task-code python is the runner's).

// TaskCopier gives a fresh copy of the named database's template.
type TaskCopier func(ctx context.Context, db string) (taskdb.Copy, error)

// Tasks audits each task's first turn (and the follow-up's SQL text for today's date).
// An infrastructure fault stops it with an error; every copy is dropped.
func Tasks(ctx context.Context, tasks []taskset.Task, copyOf TaskCopier, timeout time.Duration) (*Result, error) {
	res := &Result{}
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		fs, err := auditTask(ctx, t, copyOf, timeout)
		if err != nil {
			return res, fmt.Errorf("audit task %s: %w", t.ID, err)
		}
		for _, f := range fs {
			res.Findings = append(res.Findings, Finding{Index: i, QuestionID: t.ID, DBID: t.DB, Check: f.check, Target: TargetGold,
				Evidence: f.evidence, Confidence: checkConfidence[f.check]})
		}
		res.Audited++
	}
	return res, nil
}

func auditTask(ctx context.Context, t taskset.Task, copyOf TaskCopier, timeout time.Duration) (out []finding, err error) {
	if w := todaysDate(t.Category, t.Preprocess, t.SolSQL); w != "" {
		out = append(out, finding{check: CheckNowOnFixedData, evidence: "the gold or preprocess calls " + w + " on fixed data: its answer depends on the day it runs"})
	} else if f := t.FollowUp; f != nil {
		if w := todaysDate(f.Category, f.SolSQL); w != "" {
			out = append(out, finding{check: CheckNowOnFixedData, evidence: "the follow-up's gold calls " + w + " on fixed data: its answer depends on the day it runs"})
		}
	}
	c, err := copyOf(ctx, t.DB)
	if err != nil {
		return nil, err
	}
	defer func() {
		if derr := c.Drop(context.WithoutCancel(ctx)); derr != nil && err == nil {
			err = derr
		}
	}()
	lim := taskdb.ExecLimits{Timeout: timeout, KeepRows: livesql.OfficialRows}
	for i, q := range t.Preprocess {
		if _, err := c.Exec(ctx, q, lim); err != nil {
			if !isSQLFailure(err) {
				return nil, err
			}
			out = append(out, finding{check: CheckPreprocessError, evidence: fmt.Sprintf("preprocess_sql statement %d fails: %v", i+1, err)})
		}
	}
	var last *taskdb.Result
	for i, q := range t.SolSQL {
		r, err := c.Exec(ctx, q, lim)
		if err != nil {
			if !isSQLFailure(err) {
				return nil, err
			}
			return append(out, finding{check: CheckGoldError, evidence: fmt.Sprintf("the gold's statement %d fails: %v", i+1, err)}), nil
		}
		last = r
	}
	if t.Category != taskset.Query || last == nil {
		return out, nil
	}
	if last.TotalRows == 0 {
		out = append(out, finding{check: CheckGoldEmpty, evidence: "the gold returns no rows: the official ex_base fails any empty result, so no prediction can pass"})
	}
	// DISTINCT ON, as the official cleaning leaves it: run on the same copy, after the
	// gold, as the default test case runs its cleaned gold.
	var stripped []string
	has := false
	for _, q := range t.SolSQL {
		q = livesql.RemoveComments(q)
		has = has || distinctOn.MatchString(q)
		stripped = append(stripped, livesql.RemoveDistinct(q))
	}
	if !has {
		return out, nil
	}
	var sres *taskdb.Result
	for _, q := range stripped {
		r, err := c.Exec(ctx, q, lim)
		if err != nil {
			if !isSQLFailure(err) {
				return nil, err
			}
			return append(out, finding{check: CheckDistinctOn, evidence: "the official DISTINCT stripping breaks DISTINCT ON: the cleaned gold fails: " + err.Error()}), nil
		}
		sres = r
	}
	g, gerr := livesql.FromPostgres(last)
	s, serr := livesql.FromPostgres(sres)
	if gerr == nil && serr == nil {
		if same, _, err := livesql.Compare(s, g, t.Conditions.Order); err == nil && same {
			return out, nil
		}
	}
	return append(out, finding{check: CheckDistinctOn, evidence: fmt.Sprintf("the official DISTINCT stripping breaks DISTINCT ON: the cleaned gold returns %d rows, the gold %d", sres.TotalRows, last.TotalRows)}), nil
}

var distinctOn = regexp.MustCompile(`(?i)\bDISTINCT\s+ON\s*\(`)

// todayFuncs are PostgreSQL's functions and special values of the current date and
// time; todayCompared is one compared with, or computed on (a WHERE on how recent,
// NOW() - INTERVAL, AGE(NOW(), ...)), rather than stored as a value.
var (
	todayFuncs    = regexp.MustCompile(`(?i)\b(now\s*\(\s*\)|(current_date|current_timestamp|current_time|localtimestamp|localtime)\b)`)
	todayCompared = regexp.MustCompile(`(?i)(<|>|\bbetween\b|\bage\s*\(|\bextract\s*\(|\bdate_part\s*\(|\bdate_trunc\s*\()[^;,]{0,40}?\b(now\s*\(\s*\)|(current_date|current_timestamp|current_time|localtimestamp|localtime)\b)|\b(now\s*\(\s*\)|current_date|current_timestamp|current_time|localtimestamp|localtime)\s*[-+]`)
)

// todaysDate names the first use of today's date or time in sqls (comments aside) that
// makes a turn's answer depend on the day, or "": in a Query, any; in a Management
// turn only one compared or computed on, since NOW() stored as a row's timestamp (an
// INSERT's created_at) changes no answer a test reads from the data.
func todaysDate(cat taskset.Category, lists ...[]string) string {
	re := todayFuncs
	if cat != taskset.Query {
		re = todayCompared
	}
	for _, l := range lists {
		for _, q := range l {
			q = livesql.RemoveComments(q)
			if loc := re.FindStringIndex(q); loc != nil {
				return strings.ToUpper(strings.Join(strings.Fields(todayFuncs.FindString(q[loc[0]:])), ""))
			}
		}
	}
	return ""
}

// isSQLFailure reports whether err is the statement's own failure (an SQL error, a
// timeout, too large a result), not the connection's.
func isSQLFailure(err error) bool {
	var se *taskdb.SQLError
	return errors.As(err, &se) || errors.Is(err, taskdb.ErrTimeout) || errors.Is(err, taskdb.ErrTooLarge)
}
