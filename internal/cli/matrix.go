package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/collect"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
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
	timeout    time.Duration
	maxRows    int
	limits     []string // --timeout/--max-rows as given, for the rerun command
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
			if o.timeout <= 0 || o.maxRows <= 0 {
				return usagef("--timeout and --max-rows must be positive")
			}
			if cmd.Flags().Changed("timeout") {
				o.limits = append(o.limits, "--timeout", o.timeout.String())
			}
			if cmd.Flags().Changed("max-rows") {
				o.limits = append(o.limits, "--max-rows", strconv.Itoa(o.maxRows))
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
	f.DurationVar(&o.timeout, "timeout", engine.DefaultTimeout, "each cell's per-query timeout (as eval's; other than the default, part of each cell's inputs)")
	f.IntVar(&o.maxRows, "max-rows", engine.DefaultMaxRows, "each cell's largest result read per query (as eval's; other than the default, part of each cell's inputs)")
	return cmd
}

func runMatrix(ctx context.Context, e *env, planPath string, o matrixOpts) error {
	plan, err := benchrun.LoadMatrixPlan(planPath)
	if err != nil {
		return err
	}
	mo := benchrun.MatrixOptions{Out: o.out, ShardArg: o.shard, Workers: o.workers, EvalWorkers: o.evalJobs, Alpha: o.alpha,
		Merge: o.merge, Getenv: os.Getenv, Rerun: e.command(append([]string{"matrix", shellQuote(planPath), "--out", shellQuote(o.out)}, o.limits...)...),
		Timeout: o.timeout, MaxRows: o.maxRows}
	if o.shard != "" {
		s, err := benchrun.ParseShard(o.shard, func(string) string { return "" })
		if err != nil {
			return usagef("--shard: %v", err)
		}
		mo.Shard = &s
		mo.Rerun += " --shard " + o.shard
	}
	m, err := benchrun.OpenMatrix(ctx, plan, mo)
	if err != nil {
		return err
	}
	if o.dryRun {
		cells, err := m.Estimate(ctx)
		if err != nil {
			return err
		}
		printMatrixEstimate(e.stdout, cells)
		return nil
	}
	state, runErr := m.Run(ctx, matrixPrinter{stderr: e.stderr})
	if state == nil {
		return runErr
	}
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(state.Summary); err != nil {
			return errors.Join(runErr, err)
		}
	} else {
		report.WriteMatrix(e.stdout, state, o.out)
	}
	return runErr
}

// matrixPrinter shows a matrix run on stderr: its notes, the cells' progress; each
// cell's eval is shown in the cell's log.
type matrixPrinter struct{ stderr io.Writer }

func (p matrixPrinter) Note(line string) { fmt.Fprintln(p.stderr, line) }
func (p matrixPrinter) Cells() benchrun.Progress {
	return newProgress(p.stderr, "cells", progressDelay, progressEvery)
}
func (matrixPrinter) CellObserver(log io.Writer) benchrun.Observer { return runPrinter{stderr: log} }

// printMatrixEstimate prints a dry run: what each cell of this shard would ask, and the total.
func printMatrixEstimate(w io.Writer, cells []benchrun.CellEstimate) {
	fmt.Fprintf(w, "%-44s %-8s %9s %7s %15s %23s %19s %8s\n", "cell", "state", "questions", "to ask", "LLM calls", "tokens (est.)", "cost $ (est.)", "cached")
	var tot collect.Estimate
	twoPass, notEstimated := 0, ""
	for _, c := range cells {
		if !c.Collected {
			fmt.Fprintf(w, "%-44s %-8s %9s %7s %15s %23s %19s %8s\n", c.Name, c.State, "-", "-", "file on disk", "-", "-", "-")
			continue
		}
		if c.NotEstimated != "" {
			fmt.Fprintf(w, "%-44s %-8s %9s %7s %15s %23s %19s %8s\n", c.Name, c.State, "-", "-", "not estimated", "-", "-", "-")
			notEstimated = c.NotEstimated
			continue
		}
		est, name := c.Estimate, c.Name
		if c.SecondPass {
			name, twoPass = name+" (pass 1)", twoPass+1
		}
		cost := "unpriced"
		if est.Priced {
			cost = fmt.Sprintf("%.4f-%.4f", est.CostMin, est.CostMax)
		}
		fmt.Fprintf(w, "%-44s %-8s %9d %7d %15s %23s %19s %8d\n", name, c.State, est.Questions, est.ToAsk,
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
	if notEstimated != "" {
		fmt.Fprintf(w, "not estimated: %s (their prompts carry document shapes only the run samples); the total leaves them out\n", notEstimated)
	}
	if twoPass > 0 {
		fmt.Fprintf(w, "%d two-pass cell(s): the first pass only; the second asks again the questions the first gets wrong (at most as many), not estimated\n", twoPass)
	}
}
