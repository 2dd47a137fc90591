package benchrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The experiment matrix (docs/matrix.md): every cell of a plan (matrix_plan.go) collected
// and judged as its own run directory under DIR/cells/, resumable, shardable and
// mergeable, then compared (matrix_summary.go) into DIR/matrix.json and DIR/matrix.html.

// MatrixOptions are how a matrix runs (the matrix command's flags).
type MatrixOptions struct {
	Out         string         // the matrix directory
	Shard       *dataset.Shard // run only cells I, I+N, ... of the plan (nil: all)
	ShardArg    string         // Shard as given ("I/N"), recorded in matrix.json
	Workers     int            // cells run in parallel
	EvalWorkers int            // questions judged in parallel within a cell
	Alpha       float64        // significance level of the best-cell comparison
	Merge       []string       // shard directories whose finished cells are adopted
	Rerun       string         // the command that continues the matrix
	Getenv      func(string) string
	// Timeout and MaxRows are every cell's eval limits, the per-query timeout and row cap
	// (0: engine.DefaultTimeout and engine.DefaultMaxRows, as eval's defaults). Limits
	// other than those defaults are part of each cell's input hash, so a rerun with
	// other limits redoes the cells rather than keeping verdicts judged under the old.
	Timeout time.Duration
	MaxRows int
}

// MatrixObserver hears a matrix run: the cli prints its notes and progress.
type MatrixObserver interface {
	// Note is a line for the user; the run goes on.
	Note(line string)
	// Cells starts the progress over the cells run now.
	Cells() Progress
	// CellObserver is what hears one cell's eval, whose log is log (the cell's matrix.log).
	CellObserver(log io.Writer) Observer
}

// OpenMatrix reads every dataset of plan and hashes every cell's inputs: what Run and
// Estimate need.
func OpenMatrix(ctx context.Context, plan *MatrixPlan, o MatrixOptions) (*Matrix, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if o.Timeout <= 0 {
		o.Timeout = engine.DefaultTimeout
	}
	if o.MaxRows <= 0 {
		o.MaxRows = engine.DefaultMaxRows
	}
	m := &Matrix{plan: plan, out: o.Out, rerun: o.Rerun, getenv: getenv, evalJobs: o.EvalWorkers, gates: endpointGates(plan), opts: o}
	if err := m.loadInputs(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// mine says whether the plan's i-th cell is this shard's.
func (m *Matrix) mine(i int) bool {
	s := m.opts.Shard
	return s == nil || i%s.Count == s.Index
}

// Run runs this shard's unfinished cells (after adopting the merged shards' finished
// ones), keeping DIR/matrix.json current, then compares the finished cells and writes
// matrix.json's summary and matrix.html. The matrix is returned whenever its summary was
// written, with the cells' errors (a failed cell does not stop the others); an interrupt
// returns no matrix.
func (m *Matrix) Run(ctx context.Context, obs MatrixObserver) (*rundir.Matrix, error) {
	m.obs = obs
	out := m.out
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	lock, err := rundir.AcquireLock(out, "matrix")
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	prev, err := rundir.ReadMatrix(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("%w (matrix.json is rewritten from the cells: move it aside to go on)", err)
	case prev.PlanSHA256 != m.plan.SHA256:
		obs.Note(fmt.Sprintf("note: the plan changed since %s was written: cells whose inputs are unchanged are kept, the others are run again", filepath.Join(out, rundir.MatrixFile)))
	}
	m.state = &rundir.Matrix{PlanSHA256: m.plan.SHA256, Shard: m.opts.ShardArg}
	m.index = map[string]int{}
	for _, src := range m.opts.Merge {
		if err := m.adopt(ctx, src); err != nil {
			return nil, err
		}
	}
	var todo []PlanCell
	for i, c := range m.plan.Cells {
		st := rundir.MatrixCell{Name: c.Name, Dataset: c.Dataset, Model: c.Model, Pipeline: c.Pipeline, System: c.System, InputSHA256: m.hashes[c.Name], Status: rundir.CellPending}
		m.index[c.Name] = len(m.state.Cells)
		switch done, err := m.cellDone(ctx, c, m.mine(i)); {
		case err != nil:
			return nil, err
		case done:
			rec, _ := rundir.ReadCell(CellDir(out, c))
			st = *rec
		case !m.mine(i):
			st.Status = rundir.CellNotShard
		default:
			todo = append(todo, c)
		}
		m.state.Cells = append(m.state.Cells, st)
	}
	if err := rundir.WriteMatrix(out, m.state); err != nil {
		return nil, err
	}
	obs.Note(fmt.Sprintf("matrix: %d cells, %d to run, %d done", len(m.plan.Cells), len(todo), countStatus(m.state, rundir.CellDone)))
	bar := obs.Cells()
	bar.Update(0, len(todo))
	runErr := m.runCells(ctx, todo, m.opts.Workers, bar.Update)
	bar.Finish()
	if errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded) {
		return nil, runErr
	}
	sum, err := m.summarise(ctx, m.opts.Alpha)
	if err != nil {
		return nil, errors.Join(runErr, err)
	}
	m.state.Summary = sum
	if err := rundir.WriteMatrix(out, m.state); err != nil {
		return nil, errors.Join(runErr, err)
	}
	if err := report.WriteMatrixHTML(filepath.Join(out, rundir.MatrixHTMLFile), m.state); err != nil {
		return nil, errors.Join(runErr, err)
	}
	return m.state, runErr
}

func countStatus(m *rundir.Matrix, status string) int {
	n := 0
	for _, c := range m.Cells {
		if c.Status == status {
			n++
		}
	}
	return n
}

// summarise loads every finished cell's judged run and compares the grid.
func (m *Matrix) summarise(ctx context.Context, alpha float64) (*rundir.MatrixSummary, error) {
	var runs []MatrixCellRun
	for i, c := range m.plan.Cells {
		cr := MatrixCellRun{Cell: c}
		if m.state.Cells[i].Status == rundir.CellDone {
			run, err := rundir.Load(ctx, filepath.Join(CellDir(m.out, c), rundir.CellEvalDir))
			if err != nil {
				return nil, fmt.Errorf("cell %s: %w", c.Name, err)
			}
			if err := run.Integrity.Err(); err != nil {
				return nil, fmt.Errorf("cell %s: %w", c.Name, err)
			}
			cr.Run = run
		}
		runs = append(runs, cr)
	}
	return MatrixSummary(m.plan, runs, alpha)
}

// CellEstimate is what a dry run says of one cell of this shard.
type CellEstimate struct {
	Name string
	// State is new, resume (its records are reused), changed (its inputs changed: its
	// files would be moved aside) or done.
	State string
	// Collected: the cell asks an LLM (Estimate holds its estimate); otherwise it is a
	// prediction file on disk.
	Collected bool
	Estimate  collect.Estimate
	// SecondPass: a two-pass cell, whose Estimate is its first pass; the second asks
	// again the questions the first gets wrong, at most as many, which no estimate knows.
	SecondPass bool
	// NotEstimated says why a collected cell has no estimate (a SQL++ pipeline's prompts
	// carry document shapes that only its run samples).
	NotEstimated string
}

// Estimate says what each cell of this shard would ask (LLM calls, tokens and cost,
// estimated from the prompts and the pricing, and what is already on disk). It writes
// nothing.
func (m *Matrix) Estimate(ctx context.Context) ([]CellEstimate, error) {
	var cells []CellEstimate
	for i, c := range m.plan.Cells {
		if !m.mine(i) {
			continue
		}
		done, err := m.cellDone(ctx, c, false)
		if err != nil {
			return nil, err
		}
		state := "new"
		if rec, err := rundir.ReadCell(CellDir(m.out, c)); err == nil && rec.InputSHA256 == m.hashes[c.Name] {
			state = "resume"
		} else if err == nil {
			state = "changed"
		}
		if done {
			state = "done"
		}
		ce := CellEstimate{Name: c.Name, State: state, Collected: c.Collected()}
		if c.Collected() && c.Config.SQLPP() {
			ce.NotEstimated = "SQL++ pipelines are not estimated"
		} else if c.Collected() && m.tasks[c.Dataset] != nil {
			ce.NotEstimated = "task datasets are not estimated"
		} else if c.Collected() {
			dir := CellDir(m.out, c)
			if state == "changed" {
				dir = "" // its files are moved aside: nothing of them is reused
			}
			cfg := c.Config
			if cfg.TwoPass() {
				one := *cfg
				one.SecondPass, cfg, ce.SecondPass = nil, &one, true
				if dir != "" {
					dir = filepath.Join(dir, Pass1Dir)
				}
			}
			est, err := collect.EstimateRun(ctx, collect.Options{Config: cfg, Dataset: m.datasets[c.Dataset], OutDir: dir, Select: m.selectDB(c)})
			if err != nil {
				return nil, fmt.Errorf("cell %s: %w", c.Name, err)
			}
			ce.Estimate = *est
		}
		cells = append(cells, ce)
	}
	return cells, nil
}
