package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskcode"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// Tasks on a database copy of their own (livesql:DIR, evalbench:DIR; docs/tasks.md): each
// task gets a fresh copy of its database's template, runs its preprocess and the
// prediction there, is judged, and the copy is dropped. Such a dataset has no
// dataset.Question of its own; Prepare gives each task one (its instance_id, database,
// question, gold and difficulty), so that records, resume and the summary work as for
// every run, and keeps the tasks in Plan.Tasks.

// LiveSQL modes (--livesql-mode).
const (
	LiveSQLOfficial  = "official"
	LiveSQLCorrected = "corrected"
)

// TaskServer is the Config.Server of a run of tasks on PostgreSQL or MySQL: the DSN
// template of the server where templates and copies are made (a PostgreSQL role needs
// CREATEDB; a MySQL one every privilege on the databases named nl2sb\_%).
type TaskServer interface {
	TaskDSN() (string, error)
}

// TaskPlan is what a run of tasks on a database copy judges, aligned with
// Plan.Dataset.Questions.
type TaskPlan struct {
	Kind      string
	LiveSQL   []taskset.Task          // kind livesql
	EvalBench []taskset.EvalBenchTask // kind evalbench
	Setups    map[string]taskdb.Setup // by database
	Preds     [][]*predict.TaskPred   // per system; nil: no prediction (--allow-missing)
	Dialect   string                  // evalbench: the dialect of --engine (sqlite, postgres, mysql)
}

// isTaskKind reports whether spec names a dataset of tasks on a database copy.
func isTaskKind(spec string) bool {
	k, ok := dataset.KindOf(spec)
	return ok && k.Tasks
}

// prepareTasks is Prepare for livesql:DIR and evalbench:DIR.
func prepareTasks(ctx context.Context, cfg Config, st Settings, obs Observer) (*Plan, error) {
	kind, dir, _ := strings.Cut(cfg.DatasetSpec, ":")
	kind = strings.ToLower(kind)
	switch cfg.LiveSQLMode {
	case "", LiveSQLOfficial:
	case LiveSQLCorrected:
		// livesql: the LiveSQLBench evaluator's faults fixed; evalbench: every statement
		// run, the eval_query always read, results compared as bags (tasks_evalbench.go).
	default:
		return nil, configf("--livesql-mode must be official or corrected, not %q", cfg.LiveSQLMode)
	}
	if cfg.Shard != nil {
		return nil, configf("--shard: not yet for %s datasets (docs/tasks.md)", kind)
	}
	if err := findTaskCode(ctx, &cfg, obs); err != nil {
		return nil, err
	}
	engineName := cfg.Engine
	if engineName == "" {
		engineName = "sqlite"
	}
	tp := &TaskPlan{Kind: kind, Setups: map[string]taskdb.Setup{}}
	ds := &dataset.Dataset{Kind: kind, DBRoot: dir}
	switch kind {
	case dataset.KindLiveSQL:
		if engineName != "postgres" {
			return nil, configf("--dataset livesql: its setup is PostgreSQL's; run it with --engine postgres (not %s)", engineName)
		}
		l, err := taskset.LoadLiveSQL(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("load livesql dataset: %w", err)
		}
		ds.Path = l.File
		for _, t := range l.Tasks {
			if len(cfg.DBIDs) > 0 && !slices.Contains(cfg.DBIDs, t.DB) || cfg.taskIDs != nil && !cfg.taskIDs[t.ID] {
				continue
			}
			tp.LiveSQL = append(tp.LiveSQL, t)
			ds.Questions = append(ds.Questions, dataset.Question{Index: len(ds.Questions), ID: t.ID, DBID: t.DB, Text: t.Query,
				Gold: []string{joinSQL(t.SolSQL)}, Difficulty: orUnknown(t.Difficulty)})
		}
	case dataset.KindEvalBench:
		if engineName != "sqlite" && engineName != "postgres" && engineName != "mysql" {
			return nil, configf("--dataset evalbench: --engine sqlite, postgres or mysql (not %s)", engineName)
		}
		tp.Dialect = engineName
		e, err := taskset.LoadEvalBench(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("load evalbench dataset: %w", err)
		}
		ds.Path = e.File
		for _, t := range e.Tasks {
			if len(cfg.DBIDs) > 0 && !slices.Contains(cfg.DBIDs, t.DB) || cfg.taskIDs != nil && !cfg.taskIDs[t.ID] {
				continue
			}
			tp.EvalBench = append(tp.EvalBench, t)
			ds.Questions = append(ds.Questions, dataset.Question{Index: len(ds.Questions), ID: t.ID, DBID: t.DB, Text: t.Prompt,
				Gold: []string{joinSQL(t.Golden[tp.Dialect])}, Difficulty: dataset.Unknown})
		}
	}
	if len(ds.Questions) == 0 {
		return nil, configf("--dataset %s: no task (on the --db-id databases)", cfg.DatasetSpec)
	}
	for _, q := range ds.Questions {
		if _, done := tp.Setups[q.DBID]; done {
			continue
		}
		var s taskdb.Setup
		var err error
		if kind == dataset.KindLiveSQL {
			s, err = taskset.LiveSQLSetup(ctx, dir, q.DBID)
		} else {
			s, err = taskset.EvalBenchSetup(ctx, dir, q.DBID, tp.Dialect)
		}
		if err != nil {
			return nil, err
		}
		tp.Setups[q.DBID] = s
	}
	systems, err := readTaskSystems(ds, tp, cfg, obs)
	if err != nil {
		return nil, err
	}
	st.Semantics = judge.Bird // a task passes or fails on its test cases
	p := &Plan{Config: cfg, Dataset: ds, Settings: st, Systems: systems, Tasks: tp}
	if p.Manifest, err = newManifest(ctx, p, obs); err != nil {
		return nil, err
	}
	// A task database is its setup, not a file: the manifest fingerprints its content.
	p.Manifest.Databases = nil
	for _, db := range slices.Sorted(func(yield func(string) bool) {
		for k := range tp.Setups {
			if !yield(k) {
				return
			}
		}
	}) {
		p.Manifest.Databases = append(p.Manifest.Databases, rundir.DatabaseFile{DBID: db, Path: absPath(filepath.Join(dir, "setup", db)), SHA256: tp.Setups[db].Hash()})
	}
	return p, nil
}

func orUnknown(s string) string {
	if s == "" {
		return dataset.Unknown
	}
	return s
}

// joinSQL is a list of statements as one text, for a record's gold_sql and pred_sql.
func joinSQL(sqls []string) string { return strings.Join(sqls, ";\n") }

// readTaskSystems reads every --pred task prediction file and pairs it with the tasks.
func readTaskSystems(ds *dataset.Dataset, tp *TaskPlan, cfg Config, obs Observer) ([]System, error) {
	seen := map[string]string{}
	var out []System
	for _, spec := range cfg.Preds {
		name, path := splitPredSpec(spec)
		if path == "" {
			return nil, configf("--pred %q: no file given", spec)
		}
		file := record.SystemDir(name)
		if err := rundir.CheckSystemDir(file); err != nil {
			return nil, configf("--pred %q: system %q: %v; give it another name (NAME=FILE)", spec, name, err)
		}
		if prev, dup := seen[file]; dup {
			return nil, configf("--pred %q: system name %q is already used by --pred %q; name them NAME=FILE", spec, name, prev)
		}
		seen[file] = spec
		preds, err := predict.ReadTaskPreds(path)
		if err != nil {
			return nil, err
		}
		paired := make([]*predict.TaskPred, len(ds.Questions))
		missing := 0
		for i, q := range ds.Questions {
			if p, ok := preds[q.ID]; ok {
				paired[i] = &p
				delete(preds, q.ID)
			} else {
				missing++
			}
		}
		if missing > 0 && !cfg.AllowMissing {
			return nil, fmt.Errorf("--pred %s: %d of %d tasks have no prediction (the first: %s); --allow-missing judges them as errors", spec, missing, len(ds.Questions), firstMissing(ds, paired))
		}
		if len(preds) > 0 {
			obs.Warn(fmt.Sprintf("--pred %s: %d line(s) name no task of the run; ignored", spec, len(preds)))
		}
		out = append(out, System{Name: name, Dir: file})
		tp.Preds = append(tp.Preds, paired)
	}
	return out, nil
}

func firstMissing(ds *dataset.Dataset, paired []*predict.TaskPred) string {
	for i, p := range paired {
		if p == nil {
			return ds.Questions[i].ID
		}
	}
	return ""
}

// templater gives fresh copies of a built template and takes them back: a
// taskdb.Pool of PostgreSQL copies made ahead of use (dropped in the background), or
// SQLite's template (syncTemplater: a file copy is quick).
type templater interface {
	Copy(ctx context.Context) (taskdb.Copy, error)
	Release(c taskdb.Copy)
}

// syncTemplater makes each copy when asked and drops it when released.
type syncTemplater struct {
	t interface {
		Copy(ctx context.Context) (taskdb.Copy, error)
	}
	ctx context.Context
}

func (s syncTemplater) Copy(ctx context.Context) (taskdb.Copy, error) { return s.t.Copy(ctx) }
func (s syncTemplater) Release(c taskdb.Copy)                         { _ = c.Drop(context.WithoutCancel(s.ctx)) }

// poolSize is how many PostgreSQL copies are made ahead of use, concurrently: the
// workers, from 2 to 4 (the disk waits overlap; each maker holds a connection slot
// while it makes a copy, and a server shared with others has few to spare).
func poolSize(workers int) int { return min(max(workers, 2), 4) }

// evalTasks is Eval for tasks on a database copy: leftovers of killed runs swept, one
// template per database, then a pool of --workers tasks, each on fresh copies, the
// records flushed to sink in dataset order.
func evalTasks(ctx context.Context, p *Plan, res *Result, sink Sink, obs Observer) (*Result, error) {
	cfg := p.Config
	tmpls, closeDBs, err := openTemplates(ctx, p, obs)
	if err != nil {
		return nil, err
	}
	defer closeDBs()
	n := len(p.Dataset.Questions)
	prog := obs.Phase(Phase{Name: PhaseJudging})
	t0 := time.Now()
	// Results wait in slots until every earlier one of their system is written.
	slots := make([][]*record.Record, len(p.Systems))
	next := make([]int, len(p.Systems))
	total, done := 0, 0
	for s := range p.Systems {
		slots[s] = make([]*record.Record, n)
		next[s] = len(res.Systems[s].Records)
		total += n - next[s]
	}
	var mu sync.Mutex
	flush := func(s int) error {
		for next[s] < n && slots[s][next[s]] != nil {
			r := slots[s][next[s]]
			slots[s][next[s]] = nil
			res.Systems[s].Records = append(res.Systems[s].Records, *r)
			if err := sink.Write(s, r); err != nil {
				return err
			}
			next[s]++
			done++
		}
		prog.Update(done, total)
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(cfg.Workers, 1))
	for s := range p.Systems {
		for i := next[s]; i < n; i++ {
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err // stopped: no copy for a task that will not be recorded
				}
				q := p.Dataset.Questions[i]
				r, err := judgeTask(gctx, p, tmpls[q.DBID], s, i)
				if err != nil {
					return fmt.Errorf("task %s: %w", q.ID, err)
				}
				mu.Lock()
				defer mu.Unlock()
				slots[s][i] = r
				return flush(s)
			})
		}
	}
	err = g.Wait()
	prog.Finish()
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx.Err(), res, n)
		}
		return nil, err
	}
	res.Elapsed = time.Since(t0)
	summarizeResult(ctx, p, res)
	return res, nil
}

// openTemplates sweeps the copies killed runs left, then builds (or finds) the template
// of every database of the run.
func openTemplates(ctx context.Context, p *Plan, obs Observer) (map[string]templater, func(), error) {
	tp := p.Tasks
	out := map[string]templater{}
	pg := tp.Kind == dataset.KindLiveSQL || tp.Dialect == "postgres"
	if pg {
		ts, ok := p.Config.Server.(TaskServer)
		if !ok {
			return nil, nil, configf("--engine postgres: no server to make task databases on")
		}
		dsn, err := ts.TaskDSN()
		if err != nil {
			return nil, nil, err
		}
		db, err := taskdb.OpenPostgres(ctx, dsn)
		if err != nil {
			return nil, nil, err
		}
		if swept, err := db.Sweep(ctx); err != nil {
			db.Close()
			return nil, nil, err
		} else if len(swept) > 0 {
			obs.Warn(fmt.Sprintf("dropped %d task database(s) a killed run left: %s", len(swept), strings.Join(swept, ", ")))
		}
		var pools []*taskdb.Pool
		closePools := func() {
			for _, pl := range pools {
				if err := pl.Close(); err != nil {
					obs.Warn(fmt.Sprintf("task databases not dropped (dropped below or by the next run): %v", err))
				}
			}
		}
		for name, s := range tp.Setups {
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
		// On the way out, with a context of its own: a cancelled run's tasks drop their
		// copies already (withCopy), and what a cut-short CREATE may have left goes here,
		// so no copy outlives the run even when the process goes on.
		return out, func() {
			closePools()
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if _, err := db.DropCopies(dctx); err != nil {
				obs.Warn(fmt.Sprintf("task databases not dropped (the next run drops them): %v", err))
			}
			// Swept again: a run killed with SIGKILL mid-CREATE leaves the server finishing
			// that CREATE DATABASE after its client is gone, which can be after this run's
			// first sweep (TestTaskResumeAfterCancel's kill -9 saw it).
			if swept, err := db.Sweep(dctx); err == nil && len(swept) > 0 {
				obs.Warn(fmt.Sprintf("dropped %d task database(s) a killed run left: %s", len(swept), strings.Join(swept, ", ")))
			}
			db.Close()
		}, nil
	}
	if tp.Dialect == "mysql" {
		return openMySQLTemplates(ctx, p, obs)
	}
	dir := p.Config.TaskDBDir
	if dir == "" {
		var err error
		if dir, err = taskDBDir(); err != nil {
			return nil, nil, err
		}
	}
	db, err := taskdb.OpenSQLite(dir)
	if err != nil {
		return nil, nil, err
	}
	if swept, err := db.Sweep(ctx); err != nil {
		return nil, nil, err
	} else if len(swept) > 0 {
		obs.Warn(fmt.Sprintf("removed %d task database file(s) a killed run left in %s", len(swept), dir))
	}
	for name, s := range tp.Setups {
		t, err := db.Template(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		out[name] = syncTemplater{t: t, ctx: ctx}
	}
	return out, func() {}, nil
}

// taskDBDir is where SQLite templates and copies live: the user's cache directory
// ($XDG_CACHE_HOME/nl2sqlbench/taskdb), never the dataset's or the run's directory.
func taskDBDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("task databases: no cache directory: %w", err)
	}
	return filepath.Join(c, "nl2sqlbench", "taskdb"), nil
}

// judgeTask judges system s's prediction for task i.
func judgeTask(ctx context.Context, p *Plan, tmpl templater, s, i int) (*record.Record, error) {
	q := p.Dataset.Questions[i]
	pred := p.Tasks.Preds[s][i]
	r := &record.Record{Index: q.Index, QuestionID: q.ID, DBID: q.DBID, Difficulty: q.Difficulty, Question: q.Text, GoldSQL: q.Gold[0]}
	if pred != nil {
		r.PredSQL = joinSQL(pred.SQL)
	}
	t0 := time.Now()
	var err error
	if p.Tasks.Kind == dataset.KindLiveSQL {
		err = judgeLiveSQL(ctx, p, tmpl, p.Tasks.LiveSQL[i], pred, r)
	} else {
		err = judgeEvalBench(ctx, p, tmpl, p.Tasks.EvalBench[i], pred, r)
	}
	r.ExecMillis = float64(time.Since(t0).Microseconds()) / 1000
	return r, err
}

// withCopy runs f on a fresh copy of tmpl and hands the copy back to be dropped, even
// when ctx ended (a drop that fails is reported when the run ends; Sweep drops it next).
func withCopy(ctx context.Context, tmpl templater, f func(c taskdb.Copy) error) error {
	c, err := tmpl.Copy(ctx)
	if err != nil {
		return err
	}
	err = f(c)
	tmpl.Release(c)
	return err
}

// noPrediction marks a turn without a prediction (--allow-missing): an error, as for
// every other dataset.
func noPrediction(v *record.Verdict, cat *record.ErrorCategory, msg *string) {
	*v, *cat, *msg = record.Error, record.Other, "no prediction"
}

// Values of --task-code.
const TaskCodePython = "python"

// findTaskCode sets cfg.TestRunner for --task-code python: python3 found once, its
// sandbox (package taskcode). Without python3 the run goes on, says so once, and the
// turns that need test code are not judged (record.NotJudgedNoPython), never wrong.
func findTaskCode(ctx context.Context, cfg *Config, obs Observer) error {
	cfg.noTestsWhy = record.NotJudgedTaskCode
	switch cfg.TaskCode {
	case "":
		return nil
	case TaskCodePython:
	default:
		return configf("--task-code must be python (or not given), not %q", cfg.TaskCode)
	}
	if cfg.TestRunner != nil {
		return nil
	}
	py, err := taskcode.Find(ctx)
	if errors.Is(err, taskcode.ErrNoPython) {
		obs.Warn(fmt.Sprintf("--task-code python: %v; the turns judged by test code are not judged", err))
		cfg.noTestsWhy = record.NotJudgedNoPython
		return nil
	}
	if err != nil {
		return fmt.Errorf("--task-code python: %w", err)
	}
	if py.Isolation != taskcode.Namespaces {
		obs.Warn("--task-code python: the test cases run in the basic sandbox (no network, limits, a scrubbed environment; files readable as this user): namespaces need root (docs/taskcode.md)")
	}
	cfg.TestRunner = taskcode.Runner{P: py}
	return nil
}

// taskCodeSetting is --task-code for the manifest ("" outside tasks).
func taskCodeSetting(cfg Config, p *Plan) string {
	if p.Tasks == nil || cfg.TaskCode == "" {
		return ""
	}
	if p.Config.noTestsWhy == record.NotJudgedNoPython {
		return cfg.TaskCode + " (python3 not found)" // resumed where python3 is, the verdicts would differ
	}
	return cfg.TaskCode
}

// liveSQLModeSetting is the mode in force, for the manifest ("" outside tasks).
func liveSQLModeSetting(p *Plan) string {
	if p.Tasks == nil {
		return ""
	}
	if p.Config.LiveSQLMode == LiveSQLCorrected {
		return LiveSQLCorrected
	}
	return LiveSQLOfficial
}
