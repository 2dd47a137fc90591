package cli

import (
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

func newEvalCmd(e *env) *cobra.Command {
	cfg := evalConfig{}
	cmd := &cobra.Command{
		Use:   "eval --dataset KIND:PATH --pred [NAME=]FILE ... [--out DIR]",
		Short: "Judge prediction files against a benchmark",
		Long: `Execute every prediction and its question's gold SQL (read-only), compare the results
under BIRD's and Spider's execution-match semantics, and write a run directory:

  DIR/<system>/records.jsonl     one judged record per question, in dataset order
  DIR/<system>/statistics.json   NL2SQLBench counts / ids
  DIR/summary.json               counts and rates per system, overall and per difficulty

KIND is bird, spider or jsonl. Prediction formats are detected: BIRD JSON, Spider text
(one SQL per line), NL2SQLBench records (JSON array or JSONL).`,
		Example: `  nl2sqlbench eval --dataset spider:../shared/data/spider \
      --pred DAIL=../shared/data/spider/predictions/DAIL.txt --out runs/spider-dev`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.DatasetSpec == "" {
				return usagef("--dataset is required")
			}
			if len(cfg.Preds) == 0 {
				return usagef("at least one --pred is required")
			}
			if err := cfg.Engines.check(); err != nil {
				return err
			}
			if cfg.VES && cfg.Engines.server() {
				return usagef("--ves times queries on the SQLite files; it cannot run with --engine %s", cfg.Engines.Engine)
			}
			if cfg.VES {
				if _, err := judge.ParseTimingMode(cfg.Timing); err != nil {
					return usagef("--timing: %v", err)
				}
				if cfg.VESIterations < 1 {
					return usagef("--ves-iterations must be at least 1")
				}
			}
			_, err := evaluate(cmd.Context(), e, cfg)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.DatasetSpec, "dataset", "", "dataset as KIND:PATH (bird, spider or jsonl)")
	f.StringVar(&cfg.DBRoot, "db-root", "", "directory holding the databases (overrides the dataset's default)")
	f.StringVar(&cfg.Tables, "tables", "", "tables.json schema file (overrides the dataset's default)")
	f.StringArrayVar(&cfg.Preds, "pred", nil, "prediction file as [NAME=]FILE; repeat for several systems")
	f.StringVar(&cfg.Out, "out", "", "run directory (default runs/<kind>-<time>)")
	f.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "per-query timeout")
	f.IntVar(&cfg.Workers, "workers", runtime.NumCPU(), "questions judged in parallel")
	f.IntVar(&cfg.MaxRows, "max-rows", 1_000_000, "largest result read per query; larger ones get error category row_limit")
	f.StringVar(&cfg.Semantics, "semantics", "", "semantics deciding the verdict: bird or spider (default: spider for spider datasets, else bird)")
	f.BoolVar(&cfg.JSON, "json", false, "print the summary as JSON on stdout (and nothing else)")
	f.BoolVar(&cfg.Resume, "resume", false, "continue an interrupted run in --out, keeping its records")
	f.BoolVar(&cfg.AllowMissing, "allow-missing", false, "judge questions without a prediction as errors instead of refusing the file")
	f.BoolVar(&cfg.VES, "ves", false, "after judging, time correct predictions against their gold for VES and R-VES (slow: see --ves-iterations)")
	f.StringVar(&cfg.Timing, "timing", "official", "VES timing: official (BIRD's scripts) or robust (warmed up, interleaved, median: stable across runs)")
	f.IntVar(&cfg.VESIterations, "ves-iterations", 100, "timed (prediction, gold) pairs per correct prediction")
	f.DurationVar(&cfg.VESBudget, "ves-budget", 2*time.Hour, "refuse (or stop) a timing phase estimated to take longer than this; 0 = no limit")
	f.DurationVar(&cfg.VESItemBudget, "ves-item-budget", 30*time.Second, "refuse a correct prediction whose iterations x (gold + prediction) would take longer than this; 0 = no limit")
	f.BoolVar(&cfg.ESMValues, "esm-values", false, "exact set match also compares literal values (stricter than the official metric)")
	f.BoolVar(&cfg.ESMDistinct, "esm-distinct", false, "exact set match also compares DISTINCT in column units (stricter than the official metric)")
	f.BoolVar(&cfg.ETMVerbose, "etm-verbose", false, "record the ETM rules that fired (etm_rules) for every question, not only for ETM matches")
	f.Var(&cfg.PassK, "pass-k", "k list for Pass@k over each question's candidates (default 1,5,10,15,20)")
	cfg.Engines.bind(f)
	f.BoolVar(&cfg.Flex, "flex", false, "add the NL2SQL++ flexible result comparison (flex, flex_verdict; on by default with --engine sqlpp)")
	f.StringArrayVar(&cfg.DBIDs, "db-id", nil, "judge only the questions on this database (repeat for several); records keep their index in the whole dataset")
	f.Var(&cfg.Pricing, "pricing", "pricing table (YAML or JSON: $ per 1M input / cached input / output tokens per model) for cost; see docs/pricing.example.yaml")
	return cmd
}
