package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// matrixOpts are the flags of `matrix`.
type matrixOpts struct {
	out, shard string
	dryRun     bool
	json       bool
	workers    int
	evalJobs   int
	alpha      float64
	merge      []string
}

func newMatrixCmd(e *env) *cobra.Command {
	o := matrixOpts{}
	cmd := &cobra.Command{
		Use:   "matrix PLAN.yaml --out DIR [--dry-run] [--workers N] [--shard I/N] [--merge SHARD_DIR ...]",
		Short: "Run an experiment grid (datasets x models x pipelines, plus prediction files) and compare its cells",
		Long: `Run every cell of the plan (datasets x models x pipelines, plus the systems' prediction
files, minus exclude) as a collect + eval run directory, and compare the grid:

  DIR/cells/<dataset>/<model>+<pipeline>/   collect's run directory (modules.jsonl, cache.jsonl)
                     .../eval/              the cell judged (eval's run directory)
                     .../cell.json          the cell's input sha256 and status
  DIR/cells/<dataset>/<system>/eval/        a prediction file judged
  DIR/matrix.json                           the plan's sha256, every cell's status, the comparison
  DIR/matrix.html                           the comparison with a heatmap of the cells

--dry-run prints each cell's LLM calls, tokens and cost estimated from the prompts and the
pricing (and what is already on disk) and writes nothing. Killed, the matrix resumes when
rerun: finished cells are kept, unfinished ones resume through collect's records and
cache. A changed plan reuses the cells whose inputs are unchanged (cells of changed inputs
are moved to DIR/superseded/). --shard I/N runs every N-th cell (from the I-th, 0-based);
--merge adopts the finished cells of shard directories. See docs/matrix.md.`,
		Example: `  nl2sqlbench matrix plan.yaml --out runs/grid --dry-run
  nl2sqlbench matrix plan.yaml --out runs/grid --workers 4`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.out == "" {
				return usagef("--out is required")
			}
			if o.workers < 1 || o.workers > 64 || o.evalJobs < 1 || o.evalJobs > maxWorkers {
				return usagef("--workers must be 1..64 and --eval-workers 1..%d", maxWorkers)
			}
			if !(o.alpha > 0 && o.alpha < 1) {
				return usagef("--alpha must be between 0 and 1, got %v", o.alpha)
			}
			return runMatrix(cmd.Context(), e, args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "matrix directory (cells/, matrix.json); rerun with the same one to resume")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the cells with their estimated LLM calls, tokens and cost; write nothing")
	f.IntVar(&o.workers, "workers", 2, "cells run in parallel (each endpoint's concurrency and rate limit hold across them)")
	f.IntVar(&o.evalJobs, "eval-workers", 2, "questions judged in parallel within a cell")
	f.StringVar(&o.shard, "shard", "", "run only cells I, I+N, I+2N, ... (0-based, in name order) of the plan: I/N")
	f.StringArrayVar(&o.merge, "merge", nil, "a shard's matrix directory whose finished cells are adopted (repeat)")
	f.Float64Var(&o.alpha, "alpha", 0.05, "significance level of the best-cell comparison")
	f.BoolVar(&o.json, "json", false, "print matrix.json's summary as JSON on stdout")
	return cmd
}

func runMatrix(ctx context.Context, e *env, planPath string, o matrixOpts) error {
	plan, err := benchrun.LoadMatrixPlan(planPath)
	if err != nil {
		return err
	}
	var shard *dataset.Shard
	if o.shard != "" {
		s, err := benchrun.ParseShard(o.shard, func(string) string { return "" })
		if err != nil {
			return usagef("--shard: %v", err)
		}
		shard = &s
	}
	m := &matrixRun{e: e, plan: plan, out: o.out, getenv: os.Getenv, evalJobs: o.evalJobs, gates: endpointGates(plan),
		rerun: e.command("matrix", shellQuote(planPath), "--out", shellQuote(o.out))}
	if o.shard != "" {
		m.rerun += " --shard " + o.shard
	}
	if err := m.loadInputs(ctx); err != nil {
		return err
	}
	mine := func(i int) bool { return shard == nil || i%shard.Count == shard.Index }
	if o.dryRun {
		return m.dryRun(ctx, mine)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	lock, err := rundir.AcquireLock(o.out, "matrix")
	if err != nil {
		return err
	}
	defer lock.Release()
	prev, err := rundir.ReadMatrix(o.out)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("%w (matrix.json is rewritten from the cells: move it aside to go on)", err)
	case prev.PlanSHA256 != plan.SHA256:
		fmt.Fprintf(e.stderr, "note: the plan changed since %s was written: cells whose inputs are unchanged are kept, the others are run again\n", filepath.Join(o.out, rundir.MatrixFile))
	}
	m.state = &rundir.Matrix{PlanSHA256: plan.SHA256, Shard: o.shard}
	m.index = map[string]int{}
	for _, src := range o.merge {
		if err := m.adopt(ctx, src); err != nil {
			return err
		}
	}
	var todo []benchrun.PlanCell
	for i, c := range plan.Cells {
		st := rundir.MatrixCell{Name: c.Name, Dataset: c.Dataset, Model: c.Model, Pipeline: c.Pipeline, System: c.System, InputSHA256: m.hashes[c.Name], Status: rundir.CellPending}
		m.index[c.Name] = len(m.state.Cells)
		switch done, err := m.cellDone(ctx, c, mine(i)); {
		case err != nil:
			return err
		case done:
			rec, _ := rundir.ReadCell(benchrun.CellDir(o.out, c))
			st = *rec
		case !mine(i):
			st.Status = rundir.CellNotShard
		default:
			todo = append(todo, c)
		}
		m.state.Cells = append(m.state.Cells, st)
	}
	if err := rundir.WriteMatrix(o.out, m.state); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "matrix: %d cells, %d to run, %d done\n", len(plan.Cells), len(todo), countStatus(m.state, rundir.CellDone))
	bar := newProgress(e.stderr, "cells", progressDelay, progressEvery)
	bar.Update(0, len(todo))
	runErr := m.runCells(ctx, todo, o.workers, bar.Update)
	bar.Finish()
	if errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded) {
		return runErr
	}
	sum, err := m.summarise(ctx, o.alpha)
	if err != nil {
		return errors.Join(runErr, err)
	}
	m.state.Summary = sum
	if err := rundir.WriteMatrix(o.out, m.state); err != nil {
		return errors.Join(runErr, err)
	}
	if err := writeMatrixHTML(filepath.Join(o.out, rundir.MatrixHTMLFile), m.state); err != nil {
		return errors.Join(runErr, err)
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return errors.Join(runErr, err)
		}
	} else {
		printMatrix(e.stdout, m.state, o.out)
	}
	return runErr
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
func (m *matrixRun) summarise(ctx context.Context, alpha float64) (*rundir.MatrixSummary, error) {
	var runs []benchrun.MatrixCellRun
	for i, c := range m.plan.Cells {
		cr := benchrun.MatrixCellRun{Cell: c}
		if m.state.Cells[i].Status == rundir.CellDone {
			run, err := rundir.Load(ctx, filepath.Join(benchrun.CellDir(m.out, c), rundir.CellEvalDir))
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
	return benchrun.MatrixSummary(m.plan, runs, alpha)
}

// dryRun prints what each cell of this shard would ask, writing nothing.
func (m *matrixRun) dryRun(ctx context.Context, mine func(int) bool) error {
	w := m.e.stdout
	fmt.Fprintf(w, "%-44s %-8s %9s %7s %15s %23s %19s %8s\n", "cell", "state", "questions", "to ask", "LLM calls", "tokens (est.)", "cost $ (est.)", "cached")
	var tot collect.Estimate
	for i, c := range m.plan.Cells {
		if !mine(i) {
			continue
		}
		done, err := m.cellDone(ctx, c, false)
		if err != nil {
			return err
		}
		state := "new"
		if rec, err := rundir.ReadCell(benchrun.CellDir(m.out, c)); err == nil && rec.InputSHA256 == m.hashes[c.Name] {
			state = "resume"
		} else if err == nil {
			state = "changed"
		}
		if done {
			state = "done"
		}
		if !c.Collected() {
			fmt.Fprintf(w, "%-44s %-8s %9s %7s %15s %23s %19s %8s\n", c.Name, state, "-", "-", "file on disk", "-", "-", "-")
			continue
		}
		dir := benchrun.CellDir(m.out, c)
		if state == "changed" {
			dir = "" // its files are moved aside: nothing of them is reused
		}
		est, err := collect.EstimateRun(ctx, collect.Options{Config: c.Config, Dataset: m.datasets[c.Dataset], OutDir: dir, Select: m.selectDB(c)})
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.Name, err)
		}
		cost := "unpriced"
		if est.Priced {
			cost = fmt.Sprintf("%.4f-%.4f", est.CostMin, est.CostMax)
		}
		fmt.Fprintf(w, "%-44s %-8s %9d %7d %15s %23s %19s %8d\n", c.Name, state, est.Questions, est.ToAsk,
			fmt.Sprintf("%d-%d", est.CallsMin, est.CallsMax),
			fmt.Sprintf("%d-%d", est.PromptTokensMin+est.CompletionTokensMin, est.PromptTokensMax+est.CompletionTokensMax), cost, est.CachedAnswers)
		tot.Questions += est.Questions
		tot.ToAsk += est.ToAsk
		tot.CallsMin, tot.CallsMax = tot.CallsMin+est.CallsMin, tot.CallsMax+est.CallsMax
		tot.PromptTokensMin, tot.PromptTokensMax = tot.PromptTokensMin+est.PromptTokensMin+est.CompletionTokensMin, tot.PromptTokensMax+est.PromptTokensMax+est.CompletionTokensMax
		tot.CostMin, tot.CostMax = tot.CostMin+est.CostMin, tot.CostMax+est.CostMax
		tot.CachedAnswers += est.CachedAnswers
	}
	fmt.Fprintf(w, "%-44s %-8s %9d %7d %15s %23s %19s %8d\n", "total", "", tot.Questions, tot.ToAsk,
		fmt.Sprintf("%d-%d", tot.CallsMin, tot.CallsMax), fmt.Sprintf("%d-%d", tot.PromptTokensMin, tot.PromptTokensMax),
		fmt.Sprintf("%.4f-%.4f", tot.CostMin, tot.CostMax), tot.CachedAnswers)
	fmt.Fprintf(w, "tokens: prompts rendered over each database's full schema at %d bytes a token, %d completion tokens an answer; calls range from no revision to every round\n",
		collect.EstimateBytesPerToken, collect.CompletionTokensPerCall)
	return nil
}
