package cli

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/llmjudge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
)

// evalConfig is the flags of eval (demo fills it too): the run layer's Config, where the
// run directory goes, and the flags that become parts of the Config in runConfig.
type evalConfig struct {
	benchrun.Config
	runOutput
	Engines     engineOpts  // where predictions and gold SQL run (engines.go); zero: SQLite files
	PricingFile pricingFlag // module metrics: --pricing FILE (adapt.go)
	ShardArg    string      // --shard INDEX/COUNT or auto (shard.go)
	JudgeFlags  judgeFlags  // --llm-judge and its options (llmjudge.go)
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
	Judge *judgeFlags
	// prog is the command printed hints start with (env.prog, set by evaluate).
	prog string
}

// runConfig is the run layer's Config the flags ask for.
func (c *evalConfig) runConfig() benchrun.Config {
	rc := c.Config
	rc.Engine, rc.GoldEngine = c.Engines.Engine, c.Engines.goldName()
	rc.DuckDBLib = c.Engines.DuckDBLib
	if c.Engines.server() {
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

KIND is bird, spider, spider2, jsonl, livesql or evalbench. livesql:DIR (BIRD-Interact /
LiveSQLBench tasks, --engine postgres) and evalbench:DIR (--engine sqlite or postgres) run
each task on a fresh copy of its database; their --pred is JSONL, one
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
			if err := checkEvalLimits(cfg.Timeout, cfg.MaxRows, cfg.Workers); err != nil {
				return err
			}
			if cfg.MaxResultBytes <= 0 {
				return usagef("--max-result-bytes must be positive (got %d): a zero or negative value would remove the limit", cfg.MaxResultBytes)
			}
			if err := cfg.Engines.check(); err != nil {
				return err
			}
			if cfg.VES && cfg.Engines.server() {
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
			if err := cfg.JudgeFlags.check(cmd.Flags()); err != nil {
				return err
			}
			if cfg.JudgeFlags.Config != "" {
				cfg.runOutput.Judge = &cfg.JudgeFlags
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
	bindDatasetFlags(f, &cfg.DatasetSpec, &cfg.DBRoot, &cfg.Tables, "dataset as KIND:PATH (bird, spider, spider2 or jsonl)")
	f.StringVar(&cfg.Alternatives, "alternatives", "", "JSONL of accepted alternative golds, one {\"question_id\" or \"index\", \"sql\": [...]} per line, added to each question's golds (docs/review.md)")
	f.StringVar(&cfg.DiffJSON, "diff-json", "", "with --dataset bird:GOLD.sql: BIRD's question JSON giving each question its difficulty (as BIRD's --diff_json_path; default: the JSON beside the .sql, e.g. mini_dev_sqlite.json for mini_dev_sqlite_gold.sql)")
	f.StringArrayVar(&cfg.Preds, "pred", nil, "prediction file as [NAME=]FILE; repeat for several systems")
	f.StringVar(&cfg.Out, "out", "", "run directory (default runs/<kind>-<time>)")
	f.DurationVar(&cfg.Timeout, "timeout", engine.DefaultTimeout, "per-query timeout (must be positive)")
	f.IntVar(&cfg.Workers, "workers", min(runtime.NumCPU(), maxWorkers), "questions judged in parallel (1..256)")
	f.IntVar(&cfg.MaxRows, "max-rows", engine.DefaultMaxRows, "largest result read per query (must be positive); larger ones get error category row_limit")
	f.Int64Var(&cfg.MaxResultBytes, "max-result-bytes", engine.DefaultMaxBytes, "largest result read per query, in bytes (text and blob lengths plus 16 per value; must be positive); larger ones get error category row_limit")
	f.StringVar(&cfg.Semantics, "semantics", "", "semantics deciding the verdict: bird or spider (default: spider for spider datasets, else bird)")
	f.StringVar(&cfg.SpiderMode, "spider-mode", "official", "ex_spider with Spider's rewrite as test-suite-sql-eval does it (official) or plugging only real placeholders and dropping only top-level DISTINCT (corrected; records also carry ex_spider_official where the two differ); docs/spider-modes.md")
	f.BoolVar(&cfg.JSON, "json", false, "print the summary as JSON on stdout (and nothing else)")
	f.BoolVar(&cfg.Audit, "audit", false, "after judging, audit the gold SQL and the predictions judged correct into DIR/audit.jsonl (docs/audit.md; SQLite databases only)")
	f.BoolVar(&cfg.Details, "details", false, "print every table (confidence intervals, paired comparisons, schema selection, candidates, revision, usage, cross-system, ETM, flex), not only the headline scores")
	f.BoolVar(&cfg.Resume, "resume", false, "continue an interrupted run in --out, keeping its records; refused when any input or setting differs from its manifest.json")
	f.BoolVar(&cfg.Force, "force", false, "replace the run already in --out: the new run is written beside it and takes its place only once complete")
	f.BoolVar(&cfg.HashDBs, "hash-dbs", false, "put every database's sha256 in the manifest (default: size and modification time only)")
	f.BoolVar(&cfg.AllowMissing, "allow-missing", false, "judge questions without a prediction as errors instead of refusing the file")
	f.BoolVar(&cfg.VES, "ves", false, "after judging, time correct predictions against their gold for VES and R-VES (slow: see --ves-iterations)")
	f.StringVar(&cfg.Timing, "timing", "official", "VES timing: official (BIRD's scripts) or robust (warmed up, interleaved, median: stable across runs)")
	f.IntVar(&cfg.VESIterations, "ves-iterations", 100, "timed (prediction, gold) pairs per correct prediction")
	f.DurationVar(&cfg.VESBudget, "ves-budget", 2*time.Hour, "refuse (or stop) a timing phase estimated to take longer than this; 0 = no limit")
	f.DurationVar(&cfg.VESItemBudget, "ves-item-budget", 30*time.Second, "refuse a correct prediction whose iterations x (gold + prediction) would take longer than this; 0 = no limit")
	f.BoolVar(&cfg.ESMValues, "esm-values", false, "exact set match also compares literal values (stricter than the official metric)")
	f.BoolVar(&cfg.ESMDistinct, "esm-distinct", false, "exact set match also compares DISTINCT in column units (stricter than the official metric)")
	f.BoolVar(&cfg.ETMVerbose, "etm-verbose", false, "record the ETM rules that fired (etm_rules) for every question, not only for ETM matches")
	f.StringVar(&cfg.ETMMode, "etm-mode", "official", "ETM as the authors' script computes it (official) or with our corrections (corrected; records also carry etm_official where the two differ); docs/etm-modes.md")
	f.Var((*passKFlag)(&cfg.PassK), "pass-k", "k list for Pass@k over each question's candidates (default 1,5,10,15,20)")
	cfg.Engines.bind(f)
	f.StringVar(&cfg.Spider2Mode, "spider2-mode", "official", "Spider 2.0 (--dataset spider2:SUITE_DIR): compare result tables as its evaluate.py does (official) or rows as rows, NULL apart from 0 (strict); see docs/spider2.md")
	f.StringVar(&cfg.LiveSQLMode, "livesql-mode", "official", "tasks on a database copy (--dataset livesql:DIR or evalbench:DIR): judge as the official LiveSQLBench evaluator does, quirks included (official); corrected is not yet implemented and is refused; see docs/tasks.md")
	bindTestSuite(f, &cfg.Config)
	f.BoolVar(&cfg.Flex, "flex", false, "add the NL2SQL++ flexible result comparison (flex, flex_verdict; on by default with --engine sqlpp)")
	f.StringArrayVar(&cfg.DBIDs, "db-id", nil, "judge only the questions on this database (repeat for several); records keep their index in the whole dataset")
	f.StringVar(&cfg.ShardArg, "shard", "", shardUsage)
	f.StringArrayVar(&cfg.Metrics, "metrics", nil, metricsUsage)
	f.Var(&cfg.PricingFile, "pricing", "pricing table (YAML or JSON: $ per 1M input / cached input / output tokens per model) for cost; see docs/pricing.example.yaml")
	bindLLMJudge(f, &cfg.JudgeFlags)
	return cmd
}

// evaluate judges through the run layer into the run directory o.Out (run.EvalInto
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
	res, p, err := benchrun.EvalInto(ctx, cfg, dst, obs)
	if err != nil {
		return nil, err
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
