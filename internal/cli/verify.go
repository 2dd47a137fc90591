package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func newVerifyCmd(e *env) *cobra.Command {
	var integrityOnly bool
	cmd := &cobra.Command{
		Use:   "verify RUN_DIR",
		Short: "Check a run's files against the hashes it recorded, and re-run its counterexamples",
		Long: `Check a run directory before trusting it: first every file against the sha256 the run
recorded when it finished (an edited summary.json, a flipped verdict in a records file, a
swapped records file all fail), then, for a run written by eval --test-suite, re-run each
stored counterexample (DIR/<system>/counterexamples/q<index>.sql): the script is loaded
into a fresh in-memory SQLite database with foreign keys enforced, PRAGMA
foreign_key_check must find nothing, and the record's gold and prediction must still
give different results under the run's semantics. Exits non-zero naming every changed
file and every counterexample that does not reproduce. --integrity-only stops after the
first check (the Python package calls it before reading a run).`,
		Example: `  nl2sqlbench verify runs/spider-dev`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			sum, err := rundir.ReadSummary(dir)
			if err != nil {
				return err
			}
			in := rundir.Check(dir, sum)
			if err := in.Err(); err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			if note := in.Note(); note != "" {
				fmt.Fprintf(e.stderr, "warning: %s\n", note)
			} else {
				fmt.Fprintf(e.stdout, "%s: every file matches the hash the run recorded\n", dir)
			}
			if integrityOnly {
				return nil
			}
			return verifyCounterexamples(cmd, e, dir, sum.TestSuite != nil)
		},
	}
	cmd.Flags().BoolVar(&integrityOnly, "integrity-only", false, "only check the files against the recorded hashes")
	return cmd
}

// verifyCounterexamples re-runs the run's counterexamples; testSuite says whether it was
// judged with --test-suite, for the message when there are none.
func verifyCounterexamples(cmd *cobra.Command, e *env, dir string, testSuite bool) error {
	checked, warnings, err := benchrun.VerifyCounterexamples(cmd.Context(), dir)
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, c := range checked {
		if c.Err != nil {
			failed++
			fmt.Fprintf(e.stderr, "%s: question %d (%s): %s: %v\n", c.System, c.Index, c.QuestionID, c.Path, c.Err)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d counterexamples do not reproduce", failed, len(checked))
	}
	if len(checked) == 0 {
		// "0 counterexamples verified: every one reproduces" reads as a check that passed.
		why := "it was not judged with eval --test-suite, which writes them"
		if testSuite {
			why = "the test suite found no prediction whose result differs from the gold's on a counterexample database"
		}
		fmt.Fprintf(e.stdout, "0 counterexamples verified: the run has none (%s)\n", why)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s verified: every one reproduces\n", plural(len(checked), "counterexample"))
	return nil
}
