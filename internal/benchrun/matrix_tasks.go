package benchrun

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Matrix plans with task datasets (livesql:, evalbench:; docs/matrix.md): a dataset's
// task keys (engine, dsn_env, livesql_mode, task_code), and a collected cell run as
// `collect` runs a task dataset (CollectTasks).

// tasks reports whether the dataset is one of tasks on a database copy.
func (d PlanDataset) tasks() bool { return isTaskKind(d.Dataset) }

// checkTasks checks a dataset's task keys: only on a task dataset, each a value eval
// takes.
func (d PlanDataset) checkTasks(name string) error {
	if !d.tasks() {
		if d.Engine != "" || d.DSNEnv != "" || d.LiveSQLMode != "" || d.TaskCode != "" {
			return fmt.Errorf("datasets.%s: engine, dsn_env, livesql_mode and task_code are for task datasets (livesql:, evalbench:): %w", name, ErrBadPlan)
		}
		return nil
	}
	switch {
	case d.SQLPP != nil:
		return fmt.Errorf("datasets.%s.sqlpp: not for a task dataset: %w", name, ErrBadPlan)
	case d.Engine != "" && d.Engine != EngineSQLite && d.Engine != EnginePostgres && d.Engine != EngineMySQL:
		return fmt.Errorf("datasets.%s.engine %q: want sqlite, postgres or mysql: %w", name, d.Engine, ErrBadPlan)
	case d.LiveSQLMode != "" && d.LiveSQLMode != LiveSQLOfficial && d.LiveSQLMode != LiveSQLCorrected:
		return fmt.Errorf("datasets.%s.livesql_mode %q: want official or corrected: %w", name, d.LiveSQLMode, ErrBadPlan)
	case d.TaskCode != "" && d.TaskCode != TaskCodePython:
		return fmt.Errorf("datasets.%s.task_code %q: want python or nothing: %w", name, d.TaskCode, ErrBadPlan)
	}
	return nil
}

// taskEngines is where a task dataset's copies are made (nil: not a task dataset).
func (d PlanDataset) taskEngines() *Engines {
	if !d.tasks() {
		return nil
	}
	e := &Engines{Engine: d.Engine, DSNEnv: d.DSNEnv}
	if e.Engine == "" {
		e.Engine = EngineSQLite
	}
	return e
}

// collectedFile is the file a collected cell's eval judged: its modules.jsonl, or a task
// dataset's task prediction file (CollectTasks' preds.jsonl).
func (m *Matrix) collectedFile(c PlanCell, dir string) string {
	if m.plan.Datasets[c.Dataset].tasks() {
		return filepath.Join(dir, TaskPredsFile)
	}
	return filepath.Join(dir, collect.ModulesFile)
}

// runTaskCell runs a cell of a task dataset as `collect` runs one (CollectTasks: the
// first turns asked and judged, the follow-ups of those that passed asked, the task
// prediction file judged), in the cell's directory: preds.jsonl is the file its eval/
// judged, task_collect.json what it asked. Resuming reuses each turn's records and cache.
func (m *Matrix) runTaskCell(ctx context.Context, c PlanCell, dir string, logf io.Writer, st rundir.MatrixCell) (rundir.MatrixCell, error) {
	base, calls, closeEngine, err := m.collectOptions(c, logf)
	if err != nil {
		return st, err
	}
	defer closeEngine()
	tc := m.tasks[c.Dataset].withConfig(c.Config)
	tc.Base.LLM, tc.Base.Log = base.LLM, logf
	tc.Base.Select = m.selectDB(c)
	obs := cellPasses{Observer: m.obs.CellObserver(logf), log: logf}
	rep, err := CollectTasks(ctx, dir, tc, m.cellEval(c, ""), c.EvalName(), obs)
	st.LLMCalls = calls.Load()
	if err != nil {
		return st, err
	}
	if st.ModulesSHA256, err = fileSHA256(rep.Predictions); err != nil {
		return st, err
	}
	st.Status = rundir.CellDone
	fmt.Fprintf(logf, "%s matrix: cell %s done (tasks: %d first turns correct of %d judged, %d follow-ups asked; %d LLM calls)\n",
		time.Now().UTC().Format(time.RFC3339), c.Name, rep.FirstCorrect, rep.FirstJudged, rep.FollowUpsAsked, st.LLMCalls)
	return st, rundir.WriteCell(dir, &st)
}
