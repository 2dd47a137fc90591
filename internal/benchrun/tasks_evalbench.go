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
// on a fresh copy, as EvalBench's SQLExecWork runs them (work/sqlexecwork.py). In
// official mode (the default) exactly by EvalBench's rules, quirks included
// (judgeEvalBenchOfficial). Both modes:
//   - setup_sql and cleanup_sql are not run: EvalBench has both calls commented out, and
//     in bat they undo the task's own change on a reused database (DROP COLUMN of the
//     column the task adds, a DELETE and INSERT of the rows it updates), which on a fresh
//     copy fails; a fresh copy is the state they restore.
//   - dql: the result of the SQL; dml: what the eval_query reads after it (EvalBench
//     runs both in one transaction and rolls it back, which a fresh copy equals);
//   - ddl: the schema the SQL leaves, every table's columns with their types in order
//     (EvalBench compares get_metadata(), never the eval_query: bat's DDL eval_queries
//     read INFORMATION_SCHEMA.COLUMNS of every database on a MySQL server, and one
//     names a column with a trailing space, so they would judge nothing).
//
// --livesql-mode corrected (below) runs every statement of each side and of each
// eval_query, always compares the eval_query's result of a dml task (EvalBench falls
// back to the statements' own rows when the gold's eval_query reads none), and compares
// the last results as bags of rows by their text: the row order and the column names do
// not count, the prediction is not sanitized (docs/tasks.md lists the differences).
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
	if p.Config.LiveSQLMode != LiveSQLCorrected {
		return judgeEvalBenchOfficial(ctx, p, tmpl, t, pred, r)
	}
	var evalq []string
	switch t.QueryType {
	case "dml":
		evalq = t.EvalQuery[d]
	case "ddl":
		evalq = []string{schemaQuery[d]}
		if evalq[0] == "" {
			r.Verdict, r.TaskNotJudged = record.Skipped, "no schema query for "+d
			return nil
		}
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
			}{{step, sqls}, {step + " eval_query", evalq}} {
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

// schemaQuery reads a database's tables and their columns with types, in order: what
// EvalBench's get_metadata() reflects after a DDL task.
var schemaQuery = map[string]string{
	"sqlite": `SELECT m.name, p.name, p.type FROM sqlite_schema m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY m.name, p.cid`,
	"postgres": `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
		  AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum`,
	"mysql": `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
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

// openMySQLTemplates is openTemplates on a MySQL or MariaDB server: leftovers of killed
// runs swept, one template per database, a pool of copies made ahead of use (a copy
// costs the server about 120 ms of table creation), and on the way out every copy of
// this run dropped.
func openMySQLTemplates(ctx context.Context, p *Plan, obs Observer) (map[string]templater, func(), error) {
	ts, ok := p.Config.Server.(TaskServer)
	if !ok {
		return nil, nil, configf("--engine mysql: no server to make task databases on")
	}
	dsn, err := ts.TaskDSN()
	if err != nil {
		return nil, nil, err
	}
	db, err := taskdb.OpenMySQL(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	if swept, err := db.Sweep(ctx); err != nil {
		db.Close()
		return nil, nil, err
	} else if len(swept) > 0 {
		obs.Warn(fmt.Sprintf("dropped %d task database(s) a killed run left: %s", len(swept), strings.Join(swept, ", ")))
	}
	out := map[string]templater{}
	var pools []*taskdb.Pool
	closePools := func() {
		for _, pl := range pools {
			if err := pl.Close(); err != nil {
				obs.Warn(fmt.Sprintf("task databases not dropped (dropped below or by the next run): %v", err))
			}
		}
	}
	for name, s := range p.Tasks.Setups {
		t, err := db.Template(ctx, s)
		if err != nil {
			closePools()
			db.Close()
			return nil, nil, err
		}
		pl := taskdb.NewPool(ctx, t, poolSize(p.Config.Workers))
		pools = append(pools, pl)
		out[name] = pl
	}
	return out, func() {
		closePools()
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if _, err := db.DropCopies(dctx); err != nil {
			obs.Warn(fmt.Sprintf("task databases not dropped (the next run drops them): %v", err))
		}
		// Swept again, as on PostgreSQL: a killed run's last CREATE may finish after
		// this run's first sweep.
		if swept, err := db.Sweep(dctx); err == nil && len(swept) > 0 {
			obs.Warn(fmt.Sprintf("dropped %d task database(s) a killed run left: %s", len(swept), strings.Join(swept, ", ")))
		}
		db.Close()
	}, nil
}
