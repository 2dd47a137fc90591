package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

func newAgreementCmd(e *env) *cobra.Command {
	var labels, system string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "agreement RUN_DIR [--labels FILE] [--system NAME] [--json]",
		Short: "Set every 0/1 verdict of a run (EX bird, EX spider, TS-EX, ESM, ETM, Flex, Soft-F1 = 1) against expert labels, and against each other",
		Long: `For every 0/1 verdict the run carries (the registry's: EX bird, EX spider, TS-EX, ESM,
ETM, Flex, Soft-F1 = 1, Spider2 Final, and any verdict added later), against the labels of
--labels FILE: the confusion matrix, accuracy, false-positive and false-negative rates,
Cohen's kappa with a 95% interval, and the predictions where verdict and label disagree.
Without --labels, Cohen's kappa between every pair of the run's verdicts only.

FILE is one of (told apart by its first line):
  RUN_DIR/reviews.jsonl            accept = correct, reject = incorrect (gold_wrong ignored)
  labels JSONL, one per line:      {"question_id": 718, "system": "C3", "label": "incorrect", "note": "..."}
                                   ("index" instead of "question_id"; "system" optional in a
                                   run of one system or with --system)
  NL2SQL-BUGs' published JSON:     [{"question", "db_id", "sql", "label": true|false, ...}]
                                   matched to predictions by question text and SQL

Writes RUN_DIR/agreement.json, which report and serve show. See docs/agreement.md.`,
		Example: `  nl2sqlbench agreement runs/superhero --labels docs/examples/superhero-labels.jsonl
  nl2sqlbench agreement runs/spider --system DAIL`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			dir := args[0]
			var ls *review.Labels
			if labels != "" {
				var err error
				if ls, err = review.ReadLabels(labels); errors.Is(err, os.ErrNotExist) {
					return usagef("--labels %s: no such file", labels)
				} else if err != nil {
					return err
				}
				ls.Path = absPath(labels)
			}
			run, err := rundir.Load(ctx, dir)
			if err != nil {
				return err
			}
			// The verdicts of a changed run are not what its records support.
			if err := run.Integrity.Err(); err != nil {
				return fmt.Errorf("agreement %s: %w", dir, err)
			}
			for _, w := range run.Warnings {
				fmt.Fprintf(e.stderr, "warning: %s\n", w)
			}
			a, err := benchrun.AgreementInto(run, ls, system)
			if err != nil {
				return err
			}
			if asJSON {
				return safefile.EncodeJSON(e.stdout, a)
			}
			clean := filepath.Clean(dir)
			drill := report.DrillDown{
				Report: e.command("report", shellQuote(clean), "--html", shellQuote(filepath.Join(clean, "report.html"))),
				Serve:  e.command("serve", shellQuote(filepath.Dir(clean))),
			}
			if err := report.WriteAgreement(e.stdout, a, dir, drill); err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "agreement: %s\n", absPath(filepath.Join(dir, rundir.AgreementFile)))
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&labels, "labels", "", "expert labels: a reviews.jsonl, a labels JSONL or NL2SQL-BUGs' JSON (none: the kappa matrix between verdicts only)")
	f.StringVar(&system, "system", "", "compare this system only (default: every system, pooled)")
	f.BoolVar(&asJSON, "json", false, "print agreement.json on stdout instead of the tables")
	return cmd
}
