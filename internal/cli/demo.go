package cli

import (
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/spf13/cobra"
)

// The demo's limits are small so that its runaway query and its oversized result show
// their verdicts in a second rather than in 30.
// demoPricing prices the demo's token counts so its cost columns and cost/accuracy chart
// have data. Illustrative prices, $ per 1M tokens, not any provider's current list.
const demoPricing = `
cache_hit_share: 0.5
default_model: demo-model
models:
  demo-model: {input: 0.15, cached_input: 0.075, output: 0.60}
`

const (
	demoTimeout = time.Second
	demoMaxRows = 10_000
)

func newDemoCmd(e *env) *cobra.Command {
	var out, cache string
	var asJSON, details bool
	cmd := &cobra.Command{
		Use:     "demo",
		Example: `  nl2sqlbench demo --out runs/demo`,
		Short:   "Judge the embedded demo benchmark (no data needed)",
		Long: `Build the embedded demo databases (into a cache directory, rebuilt when the embedded
scripts change), then judge three sample systems' outputs on the demo's questions, exactly as
eval would, and write a run directory. A rerun replaces the run directory (as eval --force
does: the new run takes its place only once complete).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if cache == "" {
				d, err := demo.DefaultDir()
				if err != nil {
					return err
				}
				cache = d
			}
			files, err := demo.Materialize(ctx, cache)
			if err != nil {
				return fmt.Errorf("build demo: %w", err)
			}
			cfg := evalConfig{
				Config: benchrun.Config{
					DatasetSpec: "jsonl:" + files.Questions,
					DBRoot:      files.DBRoot,
					Timeout:     demoTimeout,
					MaxRows:     demoMaxRows,
					Workers:     runtime.NumCPU(),
				},
				// A rerun replaces the previous demo run, once the new one is complete.
				runOutput: runOutput{Out: out, JSON: asJSON, Force: true, Details: details, WritesReport: true, HoldWarnings: true,
					Rerun: e.command("demo", "--out", shellQuote(out)) + " (it starts again)"},
			}
			for _, name := range files.SystemOrder {
				cfg.Preds = append(cfg.Preds, name+"="+files.Systems[name])
			}
			pr, err := metrics.ParsePricing([]byte(demoPricing))
			if err != nil {
				return fmt.Errorf("demo pricing: %w", err)
			}
			cfg.PricingFile = pricingFlag{path: demoPricingName, pricing: pr}
			if !asJSON {
				printDemoIntro(e.stdout, files)
			}
			res, err := evaluate(ctx, e, cfg.runConfig(), cfg.runOutput)
			if err != nil {
				return err
			}
			warnUnexpected(runPrinter{stderr: e.stderr}, res)
			return writeRunHTML(ctx, e, out, files.DBRoot, files.Questions, asJSON)
		},
	}
	cmd.Flags().StringVar(&out, "out", filepath.Join("runs", "demo"), "run directory")
	cmd.Flags().StringVar(&cache, "cache", "", "where to build the demo databases (default: the user cache directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON on stdout (and nothing else)")
	cmd.Flags().BoolVar(&details, "details", false, "print every table (95% intervals, paired tests, schema selection, Pass@k, revision, usage and cost, cross-system, ETM), not only the headline scores")
	return cmd
}
