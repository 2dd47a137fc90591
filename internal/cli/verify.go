package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
)

func newVerifyCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "verify RUN_DIR",
		Short: "Re-run every counterexample database a --test-suite run stored and confirm it",
		Long: `Read a run directory written by eval --test-suite and re-run each stored counterexample
(DIR/<system>/counterexamples/q<index>.sql): the script is loaded into a fresh in-memory
SQLite database with foreign keys enforced, PRAGMA foreign_key_check must find nothing,
and the record's gold and prediction must still give different results under the run's
semantics. Exits non-zero naming every counterexample that does not reproduce.`,
		Example: `  nl2sqlbench verify runs/spider-dev`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			checked, warnings, err := benchrun.VerifyCounterexamples(cmd.Context(), args[0])
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
			fmt.Fprintf(e.stdout, "%s verified: every one reproduces\n", plural(len(checked), "counterexample"))
			return nil
		},
	}
}
