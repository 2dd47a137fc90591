package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// evalConfig is the flags of eval (demo fills it too): the run layer's Config, where the
// run directory goes, and the flags that become parts of the Config in runConfig.
type evalConfig struct {
	benchrun.Config
	runOutput
	Engines       engineOpts    // where predictions and gold SQL run (engines.go); zero: SQLite files
	PricingFile   pricingFlag   // module metrics: --pricing FILE (adapt.go)
	ShardArg      string        // --shard INDEX/COUNT or auto (shard.go)
	LLMJudgeFlags llmJudgeFlags // --llm-judge and its options (llmjudge.go)
}

// runOutput says where an evaluation's run directory goes and what is printed.
type runOutput struct {
	Out    string
	JSON   bool
	Resume bool
	Force  bool // replace a run already in Out, once the new one is complete
	Quiet  bool // write the run directory but print no table or JSON (collect's two-pass evals)
	// Details prints every table summary.json has (confidence intervals and paired
	// comparisons included) rather than the one-screen answer.
	Details bool
	// Audit runs the gold audit after judging (audit.go) into DIR/audit.jsonl.
	Audit bool
	// WritesReport: the caller writes DIR/report.html itself (demo), so the summary
	// does not tell how to make one.
	WritesReport bool
	// HoldWarnings: the run's own warnings (skipped questions, gold errors) are left to
	// the caller, which knows which of them to expect (demo).
	HoldWarnings bool
	// Args are the eval arguments the run directory remembers (DIR/args.json), so that
	// --resume --out DIR alone continues it; nil: none (demo, collect).
	Args []string
	// Rerun is the command that continues an interrupted run (default: eval --resume).
	Rerun string
	// Judge, when set, is eval --llm-judge's flags (llmjudge.go).
	Judge *llmJudgeFlags
	// prog is the command printed hints start with (env.prog, set by evaluate).
	prog string
}

// runConfig is the run layer's Config the flags ask for.
func (c *evalConfig) runConfig() benchrun.Config {
	rc := c.Config
	rc.Engine, rc.GoldEngine = c.Engines.Engine, c.Engines.GoldName()
	rc.DuckDBLib = c.Engines.DuckDBLib
	if c.Engines.Server() {
		rc.Server = &c.Engines
	}
	rc.Flex = rc.Flex || c.Engines.Engine == engineSQLPP
	rc.Pricing, rc.PricingPath = c.PricingFile.pricing, c.PricingFile.path
	return rc
}

func newEvalCmd(e *env) *cobra.Command {
	cfg := evalConfig{}
	cmd := &cobra.Command{
		Use:   "eval --dataset KIND:PATH --pred [NAME=]FILE ... [--out DIR]",
		Short: "Judge prediction files against a benchmark",
		Long: `Execute every prediction and its question's gold SQL (read-only), compare the results
under BIRD's and Spider's execution-match semantics, and write a run directory:

  DIR/manifest.json              written first: the build, every setting that shapes a
                                 verdict, the sha256 of the dataset, tables.json and each
                                 prediction file, each database's size and time
  DIR/<system>/records.jsonl     one judged record per question, in dataset order
  DIR/<system>/statistics.json   NL2SQLBench counts / ids
  DIR/summary.json               every metric per system, overall and per difficulty (its
                                 "metrics" section: value, n, coverage, printed text), verdict
                                 counts, and the module, ETM and flex analyses; the table
                                 below, --json, report and serve all print it

A non-empty DIR is refused unless --resume continues it (refused in turn when anything in
its manifest differs, each difference named) or --force replaces it (the new run is
written beside it and takes its place only once complete).

KIND is one of:

` + dataset.KindsHelp(dataset.AnyKind) + `
livesql:DIR and evalbench:DIR run each task on a fresh copy of its database; their --pred is JSONL, one
{"instance_id", "pred_sqls", "follow_up_pred_sqls"} per task (docs/tasks.md). Prediction formats are detected: BIRD JSON, Spider text
(one SQL per line), NL2SQLBench records (JSON array or JSONL). For spider2 (a Spider 2.0
suite directory) each --pred is a folder of <instance_id>.csv result tables or .sql
queries (docs/spider2.md).`,
		Example: `  nl2sqlbench eval --dataset spider:../shared/data/spider \
      --pred DAIL=../shared/data/spider/predictions/DAIL.txt --out runs/spider-dev`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.Resume && cfg.Out != "" && (cfg.DatasetSpec == "" || len(cfg.Preds) == 0) {
				return resumeFromArgs(cmd, e, cfg.Out) // the arguments the run remembers (resumeargs.go)
			}
			if cfg.DatasetSpec == "" {
				return usagef("--dataset is required")
			}
			if len(cfg.Preds) == 0 {
				return usagef("at least one --pred is required")
			}
			if cfg.Resume && cfg.Force {
				return usagef("--resume continues the run in --out and --force replaces it: give one")
			}
			if cfg.Resume && cfg.Out == "" {
				return usagef("--resume needs the --out of the run to continue")
			}
			if cfg.Out != "" {
				if err := rundir.CheckNotInsideRun(cfg.Out, false); err != nil {
					return err
				}
			}
			if err := checkEvalLimits(cfg.Timeout, cfg.MaxRows, cfg.Workers); err != nil {
				return err
			}
			if cfg.MaxResultBytes <= 0 {
				return usagef("--max-result-bytes must be positive (got %d): a zero or negative value would remove the limit", cfg.MaxResultBytes)
			}
			if err := cfg.Engines.Check(); err != nil {
				return err
			}
			if cfg.VES && cfg.Engines.Server() {
				return usagef("--ves times queries on the SQLite files; it cannot run with --engine %s", cfg.Engines.Engine)
			}
			if cfg.Audit && cfg.Engines.Engine != "" && cfg.Engines.Engine != "sqlite" {
				return usagef("--audit runs the gold on the SQLite files; it cannot run with --engine %s", cfg.Engines.Engine)
			}
			// The modes, --timing and --metrics are parsed once, by benchrun.Resolve in
			// Prepare: a bad one is a usage error (ErrConfig) naming its flag.
			if cfg.VES {
				if cfg.VESIterations < 1 {
					return usagef("--ves-iterations must be at least 1")
				}
			}
			if err := cfg.LLMJudgeFlags.check(cmd.Flags()); err != nil {
				return err
			}
			if cfg.LLMJudgeFlags.Config != "" {
				cfg.runOutput.Judge = &cfg.LLMJudgeFlags
			}
			var err error
			if cfg.Shard, err = parseShardFlag(cfg.ShardArg); err != nil {
				return err
			}
			cfg.Args = rememberedArgs(cmd.Flags())
			_, err = evaluate(cmd.Context(), e, cfg.runConfig(), cfg.runOutput)
			return err
		},
	}
	f := cmd.Flags()
	bindEvalFlags(f, &cfg)
	return cmd
}

// evaluate judges through the run layer into the run directory o.Out (benchrun.EvalInto
// writes it: the manifest, records as they are judged, every system's statistics.json
// and summary.json), then prints the table or the JSON summary. eval, demo and
// collect's two-pass runs use it.
//
// A non-empty o.Out is continued with o.Resume (after its manifest matched this run's)
// and replaced with o.Force, the new run written beside it and swapped in when
// complete (rundir.PlanOut); otherwise it is refused.
func evaluate(ctx context.Context, e *env, cfg benchrun.Config, o runOutput) (*benchrun.Result, error) {
	o.prog = e.prog
	obs := runPrinter{stderr: e.stderr}
	out := o.Out
	if out == "" {
		out = benchrun.DefaultDir(cfg.DatasetSpec, time.Now())
	}
	dst := benchrun.Output{Dir: out, Resume: o.Resume, Force: o.Force, Args: o.Args, HoldWarnings: o.HoldWarnings,
		Rerun: func(dir string) string { return rerunHint(o, dir) }}
	if o.Judge != nil {
		var j *llmjudge.Judge
		dst.LLMJudge = func(work string) (*llmjudge.Judge, error) {
			var err error
			j, err = o.Judge.build(work, cfg)
			return j, err
		}
		defer func() {
			if j != nil {
				printJudgeStats(e.stderr, j)
			}
		}()
	}
	// --force replaces the run whole, a report made from it too; say so rather than let a
	// report the summary's hint had the user write there vanish (round 54's trial).
	oldReport := ""
	if o.Force && !o.WritesReport {
		if fi, err := os.Lstat(filepath.Join(out, rundir.ReportFile)); err == nil && fi.Mode().IsRegular() {
			oldReport = filepath.Join(out, rundir.ReportFile)
		}
	}
	res, p, err := benchrun.EvalInto(ctx, cfg, dst, obs)
	if err != nil {
		return nil, err
	}
	if oldReport != "" {
		fmt.Fprintf(e.stderr, "note: --force replaced the earlier run in %s, and with it %s, the report made from it\n", out, oldReport)
	}
	sum := res.Summary
	if o.Quiet {
		return res, nil
	}
	if o.Audit && o.JSON {
		if err := evalAudit(ctx, e, cfg, res, out, false); err != nil {
			return res, fmt.Errorf("audit: %w", err)
		}
	}
	if o.JSON {
		return res, report.WriteJSON(e.stdout, sum)
	}
	if err := printSummary(e.stdout, res, len(p.Dataset.Questions), out, o); err != nil {
		return res, err
	}
	if o.Audit {
		fmt.Fprintln(e.stdout)
		if err := evalAudit(ctx, e, cfg, res, out, true); err != nil {
			return res, fmt.Errorf("audit: %w", err)
		}
	}
	return res, nil
}

// plural writes "1 question", "2 questions".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
