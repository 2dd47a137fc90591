package benchrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// judgeEvalBench judges an EvalBench task into r: the golden and the predicted SQL each
// on a fresh copy, after the task's setup_sql; for a dml or ddl task the eval_query then
// reads the state each left; the two last results are compared as bags of rows (the
// order of rows and the column names do not count).
func judgeEvalBench(ctx context.Context, p *Plan, tmpl templater, t taskset.EvalBenchTask, pred *predict.TaskPred, r *record.Record) error {
	d := p.Tasks.Dialect
	r.TaskCategory = t.QueryType
	gold := t.Golden[d]
	if len(gold) == 0 {
		r.Verdict, r.TaskNotJudged = record.Skipped, "no golden_sql for "+d
		return nil
	}
	if pred == nil || len(pred.SQL) == 0 {
		noPrediction(&r.Verdict, &r.ErrorCategory, &r.ErrorMessage)
		r.TaskFailure = record.FailPrediction
		return nil
	}
	var evalq []string
	if t.QueryType != "dql" {
		evalq = t.EvalQuery[d]
	}
	lim := taskdb.ExecLimits{Timeout: p.Config.Timeout, KeepRows: p.Config.MaxRows}
	run := func(step string, sqls []string) (*taskdb.Result, error, error) {
		var res *taskdb.Result
		var fail error
		err := withCopy(ctx, tmpl, func(c taskdb.Copy) error {
			do := func(step string, sqls []string) (bool, error) {
				for _, q := range sqls {
					out, err := c.Exec(ctx, q, lim)
					x := record.TaskStep{Step: step, SQL: q}
					if err != nil {
						x.Error = err.Error()
					} else {
						x.Rows = out.TotalRows
						res = out
					}
					r.TaskRan = append(r.TaskRan, x)
					if err != nil {
						if !isSQLFailure(err) {
							return false, err
						}
						fail = fmt.Errorf("%s: %w", step, err)
						return false, nil
					}
				}
				return true, nil
			}
			for _, s := range []struct {
				step string
				sqls []string
			}{{step + " setup", t.Setup[d]}, {step, sqls}, {step + " eval_query", evalq}} {
				if ok, err := do(s.step, s.sqls); !ok || err != nil {
					return err
				}
			}
			return nil
		})
		return res, fail, err
	}
	gres, gfail, err := run("gold", gold)
	if err != nil {
		return err
	}
	if gfail != nil {
		r.Verdict, r.ErrorMessage = record.GoldError, gfail.Error()
		return nil
	}
	pres, pfail, err := run("prediction", pred.SQL)
	if err != nil {
		return err
	}
	if pfail != nil {
		r.Verdict, r.ErrorMessage = record.Error, pfail.Error()
		r.ErrorCategory, r.TaskFailure = sqlStateCategory(pfail.Error()), record.FailPrediction
		if errors.Is(pfail, taskdb.ErrTimeout) {
			r.ErrorCategory, r.TaskFailure = record.Timeout, record.FailTimeout
		}
		return nil
	}
	r.GoldRows, r.PredRows = rowsOf(gres), rowsOf(pres)
	if same, why := sameBag(pres, gres); !same {
		r.Verdict, r.TaskFailure, r.ErrorMessage = record.Incorrect, record.FailMismatch, why
		return nil
	}
	r.Verdict, r.ExBird, r.ExSpider = record.Correct, 1, 1
	return nil
}

func isSQLFailure(err error) bool {
	var se *taskdb.SQLError
	return errors.As(err, &se) || errors.Is(err, taskdb.ErrTimeout) || errors.Is(err, taskdb.ErrTooLarge)
}

func rowsOf(r *taskdb.Result) int {
	if r == nil {
		return 0
	}
	return r.TotalRows
}

// sameBag compares two results as bags of rows, each value by its text (both ran on the
// same engine, so equal values have equal text).
func sameBag(pred, gold *taskdb.Result) (bool, string) {
	if pred == nil || gold == nil || !pred.HasRows || !gold.HasRows {
		if (pred == nil || !pred.HasRows) && (gold == nil || !gold.HasRows) {
			return true, ""
		}
		return false, "one side returned no result set"
	}
	if len(pred.Columns) != len(gold.Columns) {
		return false, fmt.Sprintf("%d columns, gold %d", len(pred.Columns), len(gold.Columns))
	}
	if pred.TotalRows != gold.TotalRows {
		return false, fmt.Sprintf("%d rows, gold %d", pred.TotalRows, gold.TotalRows)
	}
	keys := func(res *taskdb.Result) []string {
		out := make([]string, len(res.Rows))
		for i, row := range res.Rows {
			var b strings.Builder
			for _, v := range row {
				b.WriteString(cellText(v))
				b.WriteByte(0)
			}
			out[i] = b.String()
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(keys(pred), keys(gold)) {
		return false, "rows differ"
	}
	return true, ""
}

func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "\x01NULL"
	case []byte:
		return "x" + string(x)
	case float64:
		return fmt.Sprint(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}
