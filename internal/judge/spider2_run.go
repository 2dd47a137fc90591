package judge

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// Spider2Pred is a system's answer to one Spider 2.0 task: a result table
// (<instance_id>.csv, evaluate.py's exec_result mode) or SQL (<instance_id>.sql).
type Spider2Pred struct {
	Path string
	SQL  bool // the file holds SQL to run; else it is a result CSV
}

// Spider2System is one system's answers, aligned with the suite's tasks (nil: none).
type Spider2System struct {
	Name  string
	Preds []*Spider2Pred
	From  int // records before From were written by an interrupted run
}

// Spider2Options control a Spider 2.0 run.
type Spider2Options struct {
	Mode     Spider2Mode
	Workers  int // tasks judged at once; 0: number of CPUs
	Progress func(done, total int)
	// SQLite runs .sql answers of tasks whose backend is SQLite (nil: they are skipped).
	SQLite engine.Engine
	// DuckDB runs .sql answers of SQLite-backend tasks whose database under the root is
	// a DuckDB file (<db>.duckdb) rather than an SQLite one; nil: such tasks are skipped
	// with NoDuckDB as the reason.
	DuckDB   engine.Engine
	NoDuckDB string
	Limits   engine.Limits
}

// Reasons a Spider 2.0 task is skipped (its record's error message).
const (
	Spider2NoPrediction = "no prediction submitted for this task"
	Spider2NotInConfig  = "task not in the eval config (evaluate.py scores only its tasks)"
	Spider2NoGold       = "no gold result file for this task"
	Spider2GoldMissing  = "no present gold variant matched and a variant is missing from this copy (over 4 MiB): cannot be judged"
)

// RunSpider2 judges every system's answers to ds's Spider 2.0 tasks and emits one record
// per task and system, in task order. Gold results are read once per task. Nothing is
// executed for a result CSV; a .sql answer runs on SQLite when its task's backend is
// SQLite and the database exists, and is skipped (never wrong) otherwise.
func RunSpider2(ctx context.Context, ds *dataset.Dataset, systems []Spider2System, opt Spider2Options, emit Emit) error {
	s2 := ds.Spider2
	if s2 == nil {
		return errors.New("spider2 run: the dataset is not a Spider 2.0 suite")
	}
	n := len(s2.Tasks)
	from := make([]int, len(systems))
	for si, s := range systems {
		if len(s.Preds) != n {
			return fmt.Errorf("system %s: %d answers for %d tasks", s.Name, len(s.Preds), n)
		}
		from[si] = s.From
	}
	judgeOne := func(ctx context.Context, i int) ([]*record.Record, error) {
		return judgeSpider2Task(ctx, ds, i, systems, opt), nil
	}
	return judgeInOrder(ctx, ordered{n: n, from: from, workers: opt.Workers, progress: opt.Progress}, judgeOne, emit)
}

// judgeSpider2Task gives task i's record for every system.
func judgeSpider2Task(ctx context.Context, ds *dataset.Dataset, i int, systems []Spider2System, opt Spider2Options) []*record.Record {
	q, t := &ds.Questions[i], &ds.Spider2.Tasks[i]
	var golds []Spider2Gold
	var goldErr error
	goldRead := false
	out := make([]*record.Record, len(systems))
	for si, s := range systems {
		r := &record.Record{Index: q.Index, QuestionID: q.ID, DBID: q.DBID, Difficulty: q.Difficulty, Question: q.Text}
		r.Spider2Backend = t.Backend
		r.Spider2Mode = string(opt.Mode)
		out[si] = r
		p := s.Preds[i]
		switch {
		case p == nil:
			skip(r, Spider2NoPrediction)
			continue
		case !t.InEvalConfig:
			skip(r, Spider2NotInConfig)
			continue
		case len(t.Gold) == 0:
			skip(r, Spider2NoGold)
			continue
		}
		r.Spider2Pred = p.Path
		if !goldRead {
			golds, goldErr = ReadSpider2Golds(t, opt.Limits)
			goldRead = true
		}
		if goldErr != nil {
			r.Verdict, r.ErrorMessage = record.GoldError, goldErr.Error()
			continue
		}
		pred, why, err := spider2Table(ctx, ds, q, t, p, opt, r)
		switch {
		case why != "":
			skip(r, why)
			continue
		case errors.Is(err, engine.ErrInfrastructure):
			// A database that cannot be opened or a lost engine says nothing about the
			// query: the task stays unjudged, never wrong.
			skip(r, "not judged: "+err.Error())
			continue
		case err != nil:
			// evaluate.py scores a table it cannot read (or SQL that fails) 0.
			r.Verdict, r.ErrorCategory, r.ErrorMessage = record.Error, Categorize(err), err.Error()
			zero := 0
			r.ExSpider2, r.Spider2Official, r.Spider2Strict = &zero, &zero, &zero
			continue
		}
		v := CompareSpider2(ds.Spider2.Suite, t, pred, golds)
		res := v.In(opt.Mode)
		if res.Unknown {
			skip(r, Spider2GoldMissing)
			continue
		}
		r.PredRows = pred.Rows
		for _, g := range golds {
			if g.Frame != nil && (res.Variant == "" || g.File.Name == res.Variant) {
				r.GoldRows = g.Frame.Rows
				break
			}
		}
		off, str, ex := v.Official.Score, v.Strict.Score, res.Score
		r.Spider2Official, r.Spider2Strict, r.ExSpider2 = &off, &str, &ex
		r.Spider2Variant, r.Spider2Why = res.Variant, v.Why
		r.Verdict = record.Incorrect
		if ex == 1 {
			r.Verdict = record.Correct
		}
		if res.Error != "" {
			r.ErrorMessage = res.Error // evaluate.py's error_info: it raised, score 0
		}
	}
	return out
}

func skip(r *record.Record, why string) {
	r.Verdict, r.ErrorMessage = record.Skipped, why
}

// spider2Table reads a result CSV, or runs SQL and reads its result as evaluate.py does
// (pandas writes it with to_csv and reads it back). why is set when the task cannot be
// judged here (a backend without an engine, a database missing).
func spider2Table(ctx context.Context, ds *dataset.Dataset, q *dataset.Question, t *dataset.Spider2Task, p *Spider2Pred, opt Spider2Options, r *record.Record) (*pandascsv.Frame, string, error) {
	if !p.SQL {
		// The run's row and byte caps hold for a result given as a CSV as for one a query
		// returns: over them, the same error (category row_limit), and reading stops there.
		f, err := pandascsv.ReadFile(p.Path, csvLimits(opt.Limits))
		if err != nil {
			return nil, "", fmt.Errorf("read prediction: %w", csvLimitError(err))
		}
		return f, "", nil
	}
	// A query file, not a table: a FIFO, a device or a file over MaxSQLFile is refused
	// before it is read (os.ReadFile of /dev/zero never returns).
	text, err := inputfile.ReadMax(p.Path, MaxSQLFile)
	if err != nil {
		return nil, "", fmt.Errorf("read prediction: %w", err)
	}
	sql := ExtractSpider2SQL(string(text))
	r.PredSQL = sql
	if t.Backend != dataset.BackendSQLite {
		return nil, fmt.Sprintf("needs %s to run its SQL: no %s engine here (submit <id>.csv result tables for such tasks)", t.Backend, t.Backend), nil
	}
	eng, db, why := spider2Engine(ds, q.DBID, opt)
	if why != "" {
		return nil, why, nil
	}
	t0 := time.Now()
	res, err := eng.Query(ctx, db, sql, opt.Limits)
	r.ExecMillis = float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return nil, "", err
	}
	f, err := pandascsv.Parse(ResultCSV(res))
	if err != nil {
		return nil, "", fmt.Errorf("read result back as pandas does: %w", err)
	}
	return f, "", nil
}

// spider2Engine locates a local task's database: the SQLite file when there is one,
// else a DuckDB file; why says why the task cannot run (no engine, no file).
func spider2Engine(ds *dataset.Dataset, dbID string, opt Spider2Options) (engine.Engine, string, string) {
	if db, ok := ds.DBPath(dbID); ok {
		if opt.SQLite == nil {
			return nil, "", "no SQLite engine in this run"
		}
		return opt.SQLite, db, ""
	}
	if db, ok := ds.DuckDBPath(dbID); ok {
		if opt.DuckDB == nil {
			why := opt.NoDuckDB
			if why == "" {
				why = "no DuckDB engine in this run"
			}
			return nil, "", fmt.Sprintf("database %s is a DuckDB file: %s", db, why)
		}
		return opt.DuckDB, db, ""
	}
	return nil, "", fmt.Sprintf("database %s missing under %s (%s.sqlite or %s.duckdb)", dbID, ds.DBRoot, dbID, dbID)
}

// MaxSQLFile is the largest .sql answer read: 16 MiB, as predict.MaxSQLBytes caps a
// prediction.
const MaxSQLFile = 16 << 20

var spider2SQLBlock = regexp.MustCompile("(?s)```sql\n(.*?)\n```")

// ExtractSpider2SQL is evaluate.py's extract_sql_query: the first ```sql fenced block,
// stripped, when there is one; else the text as it is.
func ExtractSpider2SQL(text string) string {
	if m := spider2SQLBlock.FindStringSubmatch(text); m != nil {
		return strings.TrimSpace(m[1])
	}
	return text
}
