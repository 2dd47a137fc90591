package cli

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/spf13/cobra"
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
			rc, err := benchrun.DemoConfig(files, runtime.NumCPU())
			if err != nil {
				return err
			}
			// A rerun replaces the previous demo run, once the new one is complete.
			o := runOutput{Out: out, JSON: asJSON, Force: true, Details: details, WritesReport: true, HoldWarnings: true,
				Rerun: e.command("demo", "--out", shellQuote(out)) + " (it starts again)"}
			if !asJSON {
				printDemoIntro(e.stdout, files)
			}
			res, err := evaluate(ctx, e, rc, o)
			if err != nil {
				return err
			}
			for _, w := range benchrun.DemoWarnings(res) {
				runPrinter{stderr: e.stderr}.Warn(w)
			}
			return writeRunHTML(ctx, e, out, files.DBRoot, files.Questions, asJSON)
		},
	}
	cmd.Flags().StringVar(&out, "out", filepath.Join("runs", "demo"), "run directory")
	cmd.Flags().StringVar(&cache, "cache", "", "where to build the demo databases (default: the user cache directory)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON on stdout (and nothing else)")
	cmd.Flags().BoolVar(&details, "details", false, "print every table (95% intervals, paired tests, schema selection, Pass@k, revision, usage and cost, cross-system, ETM), not only the headline scores")
	return cmd
}
