package benchrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// errCellChanged marks a finished cell whose files no longer match what it recorded.
var errCellChanged = errors.New("matrix cell changed after it finished")

// Matrix is one matrix run's state: the plan, its datasets, every cell's input hash,
// and matrix.json as it is kept up to date (matrix.go runs it).
type Matrix struct {
	plan     *MatrixPlan
	out      string
	rerun    string // the command that continues the matrix
	datasets map[string]*dataset.Dataset
	tasks    map[string]*TaskCollect // task datasets' tasks and prompts, by dataset name
	hashes   map[string]string       // cell name -> input sha256
	gates    map[string]*endpointGate
	getenv   func(string) string
	evalJobs int // questions judged in parallel per cell
	opts     MatrixOptions
	obs      MatrixObserver // set by Run

	mu    sync.Mutex
	state *rundir.Matrix
	index map[string]int // cell name -> position in state.Cells
}

// loadInputs reads every dataset of the plan and hashes every cell's inputs.
func (m *Matrix) loadInputs(ctx context.Context) error {
	m.datasets, m.hashes, m.tasks = map[string]*dataset.Dataset{}, map[string]string{}, map[string]*TaskCollect{}
	qsha := map[string]string{}
	for name, d := range m.plan.Datasets {
		var ds *dataset.Dataset
		if d.tasks() {
			tc, err := loadTaskCollect(ctx, d.Dataset, d.taskEngines().Engine, nil)
			if err != nil {
				return fmt.Errorf("datasets.%s: %w", name, err)
			}
			m.tasks[name], ds = tc, tc.Base.Dataset
		} else {
			var err error
			if ds, err = dataset.Load(ctx, d.Dataset, dataset.Options{DBRoot: d.DBRoot, Tables: d.Tables}); err != nil {
				return fmt.Errorf("datasets.%s: %w", name, err)
			}
		}
		for _, id := range d.DBIDs {
			if !slices.ContainsFunc(ds.Questions, func(q dataset.Question) bool { return q.DBID == id }) {
				return fmt.Errorf("datasets.%s.db_id %q: no question of %s is on that database: %w", name, id, ds.Path, ErrBadPlan)
			}
		}
		m.datasets[name] = ds
		var err error
		if qsha[name], err = fileSHA256(ds.Path); err != nil {
			return fmt.Errorf("datasets.%s: %w", name, err)
		}
	}
	for _, c := range m.plan.Cells {
		pred := ""
		if !c.Collected() {
			var err error
			if pred, err = fileSHA256(c.PredFile); err != nil {
				return fmt.Errorf("systems.%s.%s: %w", c.System, c.Dataset, err)
			}
		}
		m.hashes[c.Name] = withLimits(m.plan.InputHash(c, qsha[c.Dataset], pred), m.opts.Timeout, m.opts.MaxRows)
	}
	return nil
}

// withLimits is a cell's input hash with its eval limits: the hash itself when they are
// eval's defaults (so the cells of a matrix run before the limits could be set keep
// theirs), else the hash of it and the limits.
func withLimits(hash string, timeout time.Duration, maxRows int) string {
	if timeout == engine.DefaultTimeout && maxRows == engine.DefaultMaxRows {
		return hash
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00timeout=%s\x00max_rows=%d", hash, timeout, maxRows)))
	return hex.EncodeToString(h[:])
}

func fileSHA256(path string) (string, error) {
	f, _, err := safefile.Open(path, 1<<40)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// selectDB restricts a collect run to the dataset's db_id filter (nil: every question).
func (m *Matrix) selectDB(c PlanCell) func(dataset.Question) bool {
	ids := m.plan.Datasets[c.Dataset].DBIDs
	if len(ids) == 0 {
		return nil
	}
	return func(q dataset.Question) bool { return slices.Contains(ids, q.DBID) }
}

// cellDone says whether cell c is finished and still what it recorded: its cell.json has
// this input hash and status done, its judged run passes its integrity check, and (a
// collected cell) its modules.jsonl is the one it was judged from. A cell whose inputs
// changed is moved aside (never deleted) and reported not done. A finished cell whose
// module records changed is refused (errCellChanged): its judged run no longer says
// what they hold.
func (m *Matrix) cellDone(ctx context.Context, c PlanCell, move bool) (bool, error) {
	dir := CellDir(m.out, c)
	rec, err := rundir.ReadCell(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if empty, _ := dirEmpty(dir); !empty && move {
			return false, m.supersede(c, "unknown")
		}
		return false, nil
	case err != nil:
		return false, fmt.Errorf("cell %s: %w", c.Name, err)
	}
	if rec.InputSHA256 != m.hashes[c.Name] {
		if move {
			return false, m.supersede(c, rec.InputSHA256)
		}
		return false, nil
	}
	if rec.Status != rundir.CellDone {
		return false, nil
	}
	if c.Collected() {
		judged := m.collectedFile(c, dir)
		sha, err := fileSHA256(judged)
		if err != nil || sha != rec.ModulesSHA256 {
			return false, fmt.Errorf("cell %s: %s is not the file the cell was judged from (recorded sha256 %.12s): move %s aside to collect the cell again: %w",
				c.Name, judged, rec.ModulesSHA256, dir, errCellChanged)
		}
	}
	run, err := rundir.Load(ctx, filepath.Join(dir, rundir.CellEvalDir))
	if err != nil || run.Integrity.Err() != nil {
		return false, nil // judged run gone or changed: judged again from the records
	}
	return true, nil
}

func dirEmpty(dir string) (bool, error) {
	es, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	return len(es) == 0, err
}

// supersede moves a cell made from other inputs to DIR/superseded/, keeping it.
func (m *Matrix) supersede(c PlanCell, oldHash string) error {
	dst := filepath.Join(m.out, rundir.SupersededDir, strings.ReplaceAll(c.Name, "/", "__")+"-"+shortHash(oldHash)+"-"+time.Now().UTC().Format("20060102T150405"))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.Rename(CellDir(m.out, c), dst); err != nil {
		return fmt.Errorf("cell %s: move the cell of other inputs aside: %w", c.Name, err)
	}
	m.obs.Note(fmt.Sprintf("cell %s: its inputs changed; the earlier cell is kept in %s", c.Name, dst))
	return nil
}

// shortHash is a hash's first 12 characters, for a directory name.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// setCell updates a cell in matrix.json and writes it.
func (m *Matrix) setCell(c rundir.MatrixCell) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.state.Cells[m.index[c.Name]] = c
	return rundir.WriteMatrix(m.out, m.state)
}

// runCell collects (resuming through collect's records and cache) and judges one cell.
func (m *Matrix) runCell(ctx context.Context, c PlanCell) (rundir.MatrixCell, error) {
	dir := CellDir(m.out, c)
	st := rundir.MatrixCell{Name: c.Name, Dataset: c.Dataset, Model: c.Model, Pipeline: c.Pipeline, System: c.System,
		InputSHA256: m.hashes[c.Name], Status: rundir.CellRunning}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	if err := rundir.WriteCell(dir, &st); err != nil {
		return st, err
	}
	logf, err := os.OpenFile(filepath.Join(dir, "matrix.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return st, err
	}
	defer logf.Close()
	fmt.Fprintf(logf, "%s matrix: cell %s started\n", time.Now().UTC().Format(time.RFC3339), c.Name)
	if c.Collected() && c.Config.TwoPass() {
		return m.runTwoPassCell(ctx, c, dir, logf, st)
	}
	if c.Collected() && m.tasks[c.Dataset] != nil {
		return m.runTaskCell(ctx, c, dir, logf, st)
	}
	pred := c.PredFile
	if c.Collected() {
		opt, calls, closeEngine, err := m.collectOptions(c, logf)
		if err != nil {
			return st, err
		}
		defer closeEngine()
		opt.OutDir = dir
		sum, err := collect.Run(ctx, opt)
		st.LLMCalls = calls.Load()
		if err != nil {
			return st, err
		}
		if sum.Failed > 0 {
			return st, fmt.Errorf("%d question(s) failed (see %s); rerun to retry them", sum.Failed, logf.Name())
		}
		pred = filepath.Join(dir, collect.ModulesFile)
	}
	cfg := m.cellEval(c, pred)
	evalDir := filepath.Join(dir, rundir.CellEvalDir)
	empty, _ := dirEmpty(evalDir) // a judged run there (from records since resumed) is replaced once the new one is complete
	if _, _, err := EvalInto(ctx, cfg, Output{Dir: evalDir, Force: !empty, HoldWarnings: true,
		Rerun: func(string) string { return m.rerun }}, m.obs.CellObserver(logf)); err != nil {
		return st, fmt.Errorf("eval: %w", err)
	}
	if c.Collected() {
		if st.ModulesSHA256, err = fileSHA256(pred); err != nil {
			return st, err
		}
	}
	st.Status = rundir.CellDone
	fmt.Fprintf(logf, "%s matrix: cell %s done (%d LLM calls)\n", time.Now().UTC().Format(time.RFC3339), c.Name, st.LLMCalls)
	return st, rundir.WriteCell(dir, &st)
}

// cellEval is the eval of cell c's predictions in pred: the plan's dataset, the matrix's
// limits, every mode official.
func (m *Matrix) cellEval(c PlanCell, pred string) Config {
	d := m.plan.Datasets[c.Dataset]
	cfg := Config{DatasetSpec: d.Dataset, DBRoot: d.DBRoot, Tables: d.Tables, DBIDs: d.DBIDs,
		Preds: []string{c.EvalName() + "=" + pred}, Timeout: m.opts.Timeout, Workers: m.evalJobs, MaxRows: m.opts.MaxRows,
		MaxResultBytes: engine.DefaultMaxBytes, SpiderMode: "official", ETMMode: "official", Spider2Mode: "official",
		Timing: "official", VESIterations: 100,
		// A cell collected only the db_id filter's questions (and none of them failed, or
		// the cell stopped above): the other questions have no prediction, and the filter
		// leaves them out of the run.
		AllowMissing: c.Collected() && len(d.DBIDs) > 0}
	if e := m.plan.engines(c); e != nil { // a SQL++ pipeline's: as eval --engine sqlpp judges
		cfg.Engine, cfg.GoldEngine, cfg.Server, cfg.Flex = e.Engine, e.GoldName(), e, true
	}
	if e := d.taskEngines(); e != nil { // tasks: as eval --engine E --livesql-mode M --task-code C judges
		cfg.Engine, cfg.LiveSQLMode, cfg.TaskCode, cfg.AllowMissing = e.Engine, d.LiveSQLMode, d.TaskCode, false
		if e.Server() {
			cfg.Server = e
		}
	}
	return cfg
}

// collectOptions is what collects cell c (not yet where): its config, dataset, log and
// db_id filter, the LLM behind the endpoint's gate (calls counts its calls), and for a
// SQL++ pipeline the dataset's query service, opened (closeEngine closes it).
func (m *Matrix) collectOptions(c PlanCell, logf io.Writer) (opt collect.Options, calls *atomic.Int64, closeEngine func(), err error) {
	closeEngine = func() {}
	client, err := collect.NewOpenAIClient(c.Config.LLM, m.getenv, nil)
	if err != nil {
		return opt, nil, closeEngine, err
	}
	calls = new(atomic.Int64)
	opt = collect.Options{Config: c.Config, Dataset: m.datasets[c.Dataset], Log: logf, Select: m.selectDB(c),
		LLM: &gatedLLM{inner: client, gate: m.gates[c.Config.LLM.BaseURL], calls: calls}}
	if e := m.plan.engines(c); e != nil {
		eng, locate, _, err := e.Open(1, nil)
		if err != nil {
			return opt, nil, closeEngine, fmt.Errorf("datasets.%s.sqlpp: %w", c.Dataset, err)
		}
		opt.Engine, opt.Locate, closeEngine = eng, locate, func() { eng.Close() }
	}
	return opt, calls, closeEngine, nil
}

// runTwoPassCell runs a two-pass pipeline's cell as `collect` runs one (TwoPass: pass 1,
// its judged run, pass 2 on what it got wrong, the merged records judged), in the cell's
// directory: the final records are its modules.jsonl and their judged run its eval/, as
// any collected cell's, under the cell's name; two_pass.json says what the second pass
// gained. Resuming reuses each pass's records and cache as collect does.
func (m *Matrix) runTwoPassCell(ctx context.Context, c PlanCell, dir string, logf io.Writer, st rundir.MatrixCell) (rundir.MatrixCell, error) {
	base, calls, closeEngine, err := m.collectOptions(c, logf)
	if err != nil {
		return st, err
	}
	defer closeEngine()
	obs := cellPasses{Observer: m.obs.CellObserver(logf), log: logf}
	rep, err := twoPass(ctx, dir, base, m.cellEval(c, ""), realPasses(obs), c.EvalName())
	st.LLMCalls = calls.Load()
	if err != nil {
		return st, err
	}
	if err := rundir.WriteJSON(filepath.Join(dir, TwoPassFile), rep); err != nil {
		return st, err
	}
	if st.ModulesSHA256, err = fileSHA256(rep.Records); err != nil {
		return st, err
	}
	st.Status = rundir.CellDone
	fmt.Fprintf(logf, "%s matrix: cell %s done (two passes: %d retried, %d recovered; %d LLM calls)\n",
		time.Now().UTC().Format(time.RFC3339), c.Name, rep.Retried, rep.Recovered, st.LLMCalls)
	return st, rundir.WriteCell(dir, &st)
}

// cellPasses hears a two-pass cell: its judged passes as any cell's eval, each collect
// pass as a line in the cell's log (the matrix's progress counts cells, not questions).
type cellPasses struct {
	Observer
	log io.Writer
}

func (p cellPasses) CollectPass(n int, _ bool) (func(collect.Progress), func(*collect.Summary)) {
	return func(collect.Progress) {}, func(sum *collect.Summary) {
		if sum != nil {
			fmt.Fprintf(p.log, "%s matrix: pass %d collected (%d collected, %d failed)\n", time.Now().UTC().Format(time.RFC3339), n, sum.Collected, sum.Failed)
		}
	}
}

// runCells runs the cells not done, workers at a time, keeping matrix.json current. It
// stops starting cells when ctx ends; a cell's error is recorded in its status and the
// others go on.
func (m *Matrix) runCells(ctx context.Context, todo []PlanCell, workers int, progress func(done, total int)) error {
	var mu sync.Mutex // guards errs, done and progress calls
	var errs []error
	done := 0
	var g errgroup.Group
	g.SetLimit(max(workers, 1))
	for _, c := range todo {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if ctx.Err() != nil { // ended while Go waited for a free worker: not started
				return nil
			}
			st, err := m.runCell(ctx, c)
			if err != nil {
				if ctx.Err() != nil {
					st.Status = rundir.CellRunning
				} else {
					st.Status, st.Error = rundir.CellFailed, err.Error()
				}
			}
			werr := m.setCell(st)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && ctx.Err() == nil {
				errs = append(errs, fmt.Errorf("cell %s: %w", c.Name, err))
			}
			if werr != nil {
				errs = append(errs, werr)
			}
			done++
			if progress != nil {
				progress(done, len(todo))
			}
			return nil // a cell's error is in its status and errs; the others go on
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: finished cells are kept in %s; to continue: %s", err, m.out, m.rerun)
	}
	return errors.Join(errs...)
}
