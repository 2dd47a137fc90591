package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// EvalBench's own judging (--livesql-mode official, the default, on evalbench:DIR), as
// its SQLExecWork (work/sqlexecwork.py), the databases' execute (databases/*.py) and the
// exact_match scorer (scorers/exactmatcher.py) do it. Each quirk has a name, used in the
// comments, the tests (TestEvalBenchOfficialQuirks) and docs/tasks.md:
//
//   - golden_first: a golden_sql list counts by its first entry (_get_golden_sql), and an
//     eval_query list by its first (_get_eval_query).
//   - sanitize_sql: the prediction goes through util/sanitizer.py's sanitize_sql first, as
//     under bat's run config (SQLGenBasePromptGenerator): ``` fences, backticks,
//     backslashes, 'sql: "' and 'google_sql' removed, a literal \n made a space, every
//     two spaces in a row removed ("a  b" becomes "ab"), the ends trimmed. A prediction
//     that is then empty is never run and scores 0.
//   - dql_first_statement: a dql task runs only the first statement (sqlparse.split) of
//     the gold and of the prediction; an SQL text with no statement is an error.
//   - statements_each: a dml or ddl text runs statement by statement (sqlparse.split) on
//     SQLite and MySQL, and as one text on PostgreSQL; the rows of every statement that
//     returns rows are put one after another (the "execution result").
//   - eval_fallback: the eval_query's rows decide only when the gold's are not empty;
//     when the gold's eval_query reads no row (or a ddl's schema is empty) the execution
//     results are compared instead: for an UPDATE without RETURNING both are empty, so
//     any prediction that runs passes.
//   - ordered_records: a result is an ordered list of rows, each a record of column name
//     to value (SQLAlchemy's Row._asdict()): the row order counts, the column order does
//     not, the column names do (case and all), and of two columns with one name the
//     last one's value is kept (SQLAlchemy 1.4.46 measured: "SELECT 1 AS a, 2 AS a" is
//     {a: 2}). Values compare as Python's == on what the driver returns (pyCell): ints,
//     floats, Decimals and booleans by their numeric value (1 == 1.0 == True), text
//     exactly, NULL equal to NULL, JSON (pg8000 parses it) as the structure.
//   - error_scores_zero: an error on either side scores 0. A gold that fails is
//     recorded here as gold_error (excluded from the rates), never as the prediction's
//     fault.
//   - ddl_metadata: a ddl task is judged by get_metadata(): every table's columns with
//     their types in order (SQLAlchemy's reflected type names on SQLite:
//     sqliteReflectedType), the table order not counting; its eval_query is never read.
//
// preprocess_sql (run before the prediction only) is absent from EvalBench's prompts.json
// format and not read; setup_sql and cleanup_sql are commented out in EvalBench and not run.
// Not reproduced: sqlparse's BEGIN ... END block tracking (a CREATE TRIGGER body would be
// split at its inner semicolons), SQLAlchemy's reflected type names on PostgreSQL and MySQL
// (the server's own type names are compared: equal there implies equal in EvalBench), the
// elements of a PostgreSQL array (pg8000 makes lists; compared here by the array's text),
// EvalBench's transaction around each side (each copy is fresh, so its rollback changes
// nothing but NOW(), which is then one instant per statement rather than per side).

// ebSide is what one side (gold or prediction) of an EvalBench task read on its copy.
type ebSide struct {
	exec   []pyRecord // the execution result: rows of every statement that returned rows
	eval   []pyRecord // the eval_query's rows, or the ddl's schema
	last   *taskdb.Result
	hasRun bool
}

// judgeEvalBenchOfficial is judgeEvalBench under EvalBench's own rules (see above).
func judgeEvalBenchOfficial(ctx context.Context, p *Plan, tmpl templater, t taskset.EvalBenchTask, pred *predict.TaskPred, r *record.Record) error {
	d := p.Tasks.Dialect
	gold := t.Golden[d][0] // golden_first
	var evalq string
	if t.QueryType == "dml" && len(t.EvalQuery[d]) > 0 {
		evalq = t.EvalQuery[d][0] // golden_first (eval_query[0])
	}
	predSQL := sanitizeEvalBench(joinPredSQL(pred.SQL))
	lim := taskdb.ExecLimits{Timeout: p.Config.Timeout, KeepRows: p.Config.MaxRows}
	run := func(step, sql string) (ebSide, error, error) {
		var side ebSide
		var fail error
		err := withCopy(ctx, tmpl, func(c taskdb.Copy) error {
			exec := func(step, q string) (*taskdb.Result, bool, error) {
				out, err := c.Exec(ctx, q, lim)
				x := record.TaskStep{Step: step, SQL: q}
				if err != nil {
					x.Error = err.Error()
				} else {
					x.Rows = out.TotalRows
				}
				r.TaskRan = append(r.TaskRan, x)
				if err != nil {
					if !isSQLFailure(err) {
						return nil, false, err
					}
					fail = fmt.Errorf("%s: %w", step, err)
					return nil, false, nil
				}
				if out != nil && p.Config.MaxRows > 0 && out.TotalRows > len(out.Rows) {
					fail = fmt.Errorf("%s: %w: %d rows, more than --max-rows %d", step, errTooManyRows, out.TotalRows, p.Config.MaxRows)
					return nil, false, nil
				}
				return out, true, nil
			}
			// statements runs sql as EvalBench's execute does (statements_each) and
			// returns the rows of every statement that returned rows.
			statements := func(step, sql string) ([]pyRecord, bool, error) {
				parts := []string{sql}
				if d != "postgres" {
					parts = judge.SQLParseSplit(sql)
				}
				var rows []pyRecord
				for _, q := range parts {
					if q == "" {
						continue
					}
					out, ok, err := exec(step, q)
					if !ok || err != nil {
						return nil, ok, err
					}
					side.last = out
					if out != nil && out.HasRows {
						rows = append(rows, pyRecords(d, out)...)
					}
				}
				return rows, true, nil
			}
			side.hasRun = true
			switch t.QueryType {
			case "dql":
				stmts := judge.SQLParseSplit(sql)
				if len(stmts) == 0 { // sqlparse.split(query)[0] raises IndexError
					fail = fmt.Errorf("%s: no SQL statement", step)
					return nil
				}
				out, ok, err := exec(step, stmts[0]) // dql_first_statement
				if !ok || err != nil {
					return err
				}
				side.last = out
				if out != nil && out.HasRows {
					side.exec = pyRecords(d, out)
				}
			default:
				rows, ok, err := statements(step, sql)
				if !ok || err != nil {
					return err
				}
				side.exec = rows
				switch {
				case t.QueryType == "ddl":
					out, ok, err := exec(step+" schema", schemaQuery[d])
					if !ok || err != nil {
						return err
					}
					side.eval = schemaRecords(d, out)
				case evalq != "":
					if side.eval, ok, err = statements(step+" eval_query", evalq); !ok || err != nil {
						return err
					}
				}
			}
			return nil
		})
		return side, fail, err
	}
	g, gfail, err := run("gold", gold)
	if err != nil {
		return err
	}
	if errors.Is(gfail, errTooManyRows) { // too many rows to compare: not judged, never a verdict
		r.Verdict, r.TaskNotJudged = record.Skipped, gfail.Error()
		return nil
	}
	if gfail != nil { // error_scores_zero: every prediction scores 0 in EvalBench
		r.Verdict, r.ErrorMessage = record.GoldError, gfail.Error()
		return nil
	}
	if strings.TrimSpace(predSQL) == "" { // sanitize_sql left nothing: never run, scores 0
		r.Verdict, r.TaskFailure, r.ErrorMessage = record.Incorrect, record.FailMismatch,
			"the prediction is empty after EvalBench's sanitize_sql (never run; EvalBench scores 0)"
		return nil
	}
	pr, pfail, err := run("prediction", predSQL)
	if err != nil {
		return err
	}
	if errors.Is(pfail, errTooManyRows) {
		r.Verdict, r.TaskNotJudged = record.Skipped, pfail.Error()
		return nil
	}
	if pfail != nil { // error_scores_zero
		r.Verdict, r.ErrorMessage = record.Error, pfail.Error()
		r.ErrorCategory, r.TaskFailure = sqlStateCategory(pfail.Error()), record.FailPrediction
		if errors.Is(pfail, taskdb.ErrTimeout) {
			r.ErrorCategory, r.TaskFailure = record.Timeout, record.FailTimeout
		}
		return nil
	}
	r.GoldRows, r.PredRows = rowsOf(g.last), rowsOf(pr.last)
	gotRows, wantRows, what := pr.exec, g.exec, "result"
	if len(g.eval) > 0 { // eval_fallback: only a gold eval result that is not empty decides
		gotRows, wantRows, what = pr.eval, g.eval, "eval_query result"
		if t.QueryType == "ddl" {
			what = "schema"
		}
		r.GoldRows, r.PredRows = len(g.eval), len(pr.eval)
	}
	if why := diffRecords(gotRows, wantRows); why != "" {
		r.Verdict, r.TaskFailure, r.ErrorMessage = record.Incorrect, record.FailMismatch, what+": "+why
		return nil
	}
	r.Verdict, r.ExBird, r.ExSpider = record.Correct, 1, 1
	return nil
}

// errTooManyRows: a result longer than --max-rows is not compared (the turn is not judged).
var errTooManyRows = errors.New("too many rows to compare")

// joinPredSQL makes the one SQL text EvalBench's generated_sql is of a prediction's
// statements: each ended by a semicolon (added when missing), one per line.
func joinPredSQL(sqls []string) string {
	var b strings.Builder
	for i, q := range sqls {
		if i > 0 {
			b.WriteByte('\n')
		}
		q = strings.TrimRight(q, " \t\r\n")
		b.WriteString(q)
		if len(sqls) > 1 && !strings.HasSuffix(q, ";") {
			b.WriteByte(';')
		}
	}
	return b.String()
}

// sanitizeEvalBench is EvalBench's sanitize_sql (util/sanitizer.py), replacement by
// replacement in its order (quirk sanitize_sql). strings.ReplaceAll scans left to right
// without overlap, as Python's str.replace does: three spaces become one.
func sanitizeEvalBench(s string) string {
	for _, r := range [][2]string{{"```sql", ""}, {"```", ""}, {`sql: "`, ""}, {`\n`, " "},
		{`\`, ""}, {"  ", ""}, {"`", ""}, {"google_sql", ""}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return strings.TrimFunc(s, isPySpace)
}

// isPySpace is what Python's str.strip() removes (str.isspace), for the ASCII and
// Latin-1 range and the Unicode spaces.
func isPySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}
