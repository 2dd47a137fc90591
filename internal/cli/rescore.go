package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// reviewsFile and reviewedFile are the reviews of a run and their re-scoring, in the run
// directory.
const (
	reviewsFile  = rundir.ReviewsFile
	reviewedFile = rundir.ReviewedFile
)

// reviewedSummary is DIR/reviewed.json.
type reviewedSummary = rundir.Reviewed

func newRescoreCmd(e *env) *cobra.Command {
	var reviews, corrections string
	cmd := &cobra.Command{
		Use: "rescore RUN_DIR [--reviews FILE] [--corrections FILE]",
		Example: `  nl2sqlbench rescore runs/spider-dev --reviews reviews.jsonl
  nl2sqlbench rescore runs/superhero --corrections corrections.jsonl`,
		Short: "Apply human reviews to a run and print raw and reviewed EX side by side",
		Long: `Read the reviews of a run (RUN_DIR/reviews.jsonl, or --reviews FILE), one JSON object per line:

  {"index": 12, "system": "C3", "decision": "accept"}     the prediction answers the question
  {"index": 12, "system": "C3", "decision": "reject"}     it does not
  {"index": 12, "decision": "gold_wrong", "sql": "..."}   the gold is wrong: judge every
                                                          system again against this SQL

and print each system's EX raw and reviewed, with 95% intervals, its rank in both, the
paired test between them and the questions whose verdict changed; write
RUN_DIR/reviewed.json. The run's records are never changed.

--corrections FILE adds corrected golds by question id, as gold_wrong reviews: JSONL
({"question_id": 788, "sql": "...", "note": "..."} per line) or a JSON list of objects
with question_id and SQL (the form of published corrected sets). With it the reviews
file is optional. See docs/review.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			dir := args[0]
			run, err := rundir.Load(ctx, dir)
			if err != nil {
				return err
			}
			path := reviews
			if path == "" && corrections != "" {
				// Corrections alone: the run's reviews apply too when it has them.
				if p, err := rundir.Resolve(dir, reviewsFile); err == nil {
					path = p
				}
			} else if path == "" {
				path = filepath.Join(dir, reviewsFile)
				// The run's own reviews file must be in it, not a symlink out of it.
				if _, err := rundir.Resolve(dir, reviewsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
			out, err := benchrun.RescoreRun(ctx, run, path, corrections)
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("no reviews: %s does not exist", path)
			}
			if err != nil {
				return err
			}
			return printRescored(e, out, dir)
		},
	}
	cmd.Flags().StringVar(&reviews, "reviews", "", "reviews file (default RUN_DIR/reviews.jsonl)")
	cmd.Flags().StringVar(&corrections, "corrections", "", "corrected golds by question id (JSONL, or a JSON list of {question_id, SQL}), applied as gold_wrong reviews")
	return cmd
}

// serveRescorer applies a run's reviews file and writes its reviewed.json for the
// dashboard (serve), after recording a review: a corrected gold is judged only under
// dbRoot, the root given to serve ("" refuses it; benchrun.RescoreRunUnder).
func serveRescorer(dbRoot string) report.Rescorer {
	return func(ctx context.Context, run *rundir.Run, path string) error {
		_, err := benchrun.RescoreRunUnder(ctx, run, path, dbRoot)
		return err
	}
}

func printRescored(e *env, s reviewedSummary, dir string) error {
	return report.WriteReviewed(e.stdout, s, absPath(filepath.Join(dir, reviewedFile)))
}
