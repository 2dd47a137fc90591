package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// exitRegression is compare's exit code when the metric dropped significantly: a CI
// pipeline fails its gate on it (docs/statistics.md).
const exitRegression = 3

// errRegression marks a significant drop; Run maps it to exitRegression.
var errRegression = errors.New("significant regression")

func newCompareCmd(e *env) *cobra.Command {
	var system, metric string
	var alpha float64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B [--system NAME] [--metric ex] [--alpha 0.05]",
		Short: "Compare one system across two runs of the same dataset, with a paired test (a regression gate)",
		Long: `Compare one system's score in run RUN_A (the baseline) and run RUN_B (the candidate),
both judged on the same dataset (their manifests' dataset sha256 must match): both values
with their 95% confidence intervals (from each run's summary.json), and a paired test on
the questions both runs judged: the exact McNemar test for a 0/1 metric (EX, ETM, ...), a
paired bootstrap for a mean (Soft-F1, VES, ...). See docs/statistics.md.

Exit status: 0 when the metric did not drop significantly, 3 when it dropped with
p < --alpha (a regression: fail the pipeline), 1 on an error, 2 on a usage error.
--json prints the same comparison as one JSON object (the exit status unchanged).`,
		Example: `  nl2sqlbench compare runs/main runs/pr-123 --system mysys --metric ex`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !(alpha > 0 && alpha < 1) {
				return usagef("--alpha must be between 0 and 1, got %v", alpha)
			}
			ctx := cmd.Context()
			a, err := rundir.Load(ctx, args[0])
			if err != nil {
				return err
			}
			b, err := rundir.Load(ctx, args[1])
			if err != nil {
				return err
			}
			for _, r := range []*rundir.Run{a, b} {
				if err := r.Integrity.Err(); err != nil {
					return fmt.Errorf("compare: run %s: %w", r.Dir, err)
				}
				if n := r.Integrity.Note(); n != "" {
					fmt.Fprintf(e.stderr, "note: run %s: %s\n", r.Dir, n)
				}
			}
			if err := benchrun.SameDataset(a, b); err != nil {
				return err
			}
			name, err := benchrun.CommonSystem(a, b, system, evalHint(e.prog))
			if err != nil {
				return err
			}
			return compareRuns(e, a, b, name, metric, alpha, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&system, "system", "", "the system to compare (default: the one system both runs have)")
	f.StringVar(&metric, "metric", "ex", "the metric id to compare (ex, soft_f1, ves, etm, ... as in summary.json)")
	f.Float64Var(&alpha, "alpha", 0.05, "significance level of the regression gate")
	f.BoolVar(&asJSON, "json", false, "print the comparison as JSON on stdout (for programs: the Python package reads it)")
	return cmd
}

// evalHint is the command judging systems sa and sb in one run, for compare's error
// when the runs have no system in common (benchrun.CommonSystem).
func evalHint(prog string) func(sa, sb string) string {
	return func(sa, sb string) string {
		return hintCommand(prog, "eval", "--dataset", "...", "--pred", shellQuote(sa+"=FILE"), "--pred", shellQuote(sb+"=FILE"))
	}
}

func compareRuns(e *env, a, b *rundir.Run, system, id string, alpha float64, asJSON bool) error {
	c, err := benchrun.Compare(a, b, system, id, alpha)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(c)
	} else {
		printComparison(e.stdout, c)
	}
	if err != nil {
		return err
	}
	if c.Outcome == "regression" {
		return errRegression
	}
	return nil
}

func printComparison(w io.Writer, c *benchrun.Comparison) {
	u, t, alpha := c.Unit, c.Test, c.Alpha
	fmt.Fprintf(w, "system %s, metric %s (%s, higher is %s)\n", c.System, c.Label, c.Metric, better(c.HigherIsBetter))
	fmt.Fprintf(w, "  A %s: %s (n=%d)\n", c.RunA, withInterval(c.A), c.A.Denominator)
	fmt.Fprintf(w, "  B %s: %s (n=%d)\n", c.RunB, withInterval(c.B), c.B.Denominator)
	fmt.Fprintf(w, "paired on %d questions judged in both: A %s, B %s, B - A = %s\n", t.N, u.Format(t.A), u.Format(t.B), c.ChangeText)
	if t.Method == metrics.MethodMcNemar {
		fmt.Fprintf(w, "exact McNemar: right in A only %d, right in B only %d, %s\n", *t.AOnly, *t.BOnly, metrics.FormatP(t.P))
	} else {
		fmt.Fprintf(w, "paired bootstrap (%d resamples, fixed seed): 95%% interval of B - A [%s, %s], %s\n",
			metrics.BootstrapResamples, u.Format(-*t.DiffHigh), u.Format(-*t.DiffLow), metrics.FormatP(t.P))
	}
	switch c.Outcome {
	case "regression":
		fmt.Fprintf(w, "REGRESSION: %s dropped significantly (p < %g)\n", c.Label, alpha)
	case "improvement":
		fmt.Fprintf(w, "improvement: %s rose significantly (p < %g)\n", c.Label, alpha)
	default:
		fmt.Fprintf(w, "no significant change at alpha %g\n", alpha)
	}
}

func withInterval(v *metrics.Value) string {
	if v.CIText == "" {
		return v.Text + " (no interval in this summary.json)"
	}
	return v.Text + " " + v.CIText + " 95% CI (" + v.CIMethod + ")"
}

func better(higher bool) string {
	if higher {
		return "better"
	}
	return "worse"
}
