package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
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
	var reviews string
	cmd := &cobra.Command{
		Use:     "rescore RUN_DIR [--reviews FILE]",
		Example: `  nl2sqlbench rescore runs/spider-dev --reviews reviews.jsonl`,
		Short:   "Apply human reviews to a run and print raw and reviewed EX side by side",
		Long: `Read the reviews of a run (RUN_DIR/reviews.jsonl, or --reviews FILE), one JSON object per line:

  {"index": 12, "system": "C3", "decision": "accept"}     the prediction answers the question
  {"index": 12, "system": "C3", "decision": "reject"}     it does not
  {"index": 12, "decision": "gold_wrong", "sql": "..."}   the gold is wrong: judge every
                                                          system again against this SQL

and print each system's EX raw and reviewed, with 95% intervals and the questions whose
verdict changed; write RUN_DIR/reviewed.json. The run's records are never changed.
See docs/review.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			dir := args[0]
			run, err := rundir.Load(ctx, dir)
			if err != nil {
				return err
			}
			path := reviews
			if path == "" {
				path = filepath.Join(dir, reviewsFile)
				// The run's own reviews file must be in it, not a symlink out of it.
				if _, err := rundir.Resolve(dir, reviewsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
			out, err := rescoreRun(ctx, run, path)
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
	return cmd
}

// rescoreRun applies the reviews file at path to the run and writes its reviewed.json;
// the dashboard (serve) calls it after recording a review.
func rescoreRun(ctx context.Context, run *rundir.Run, path string) (reviewedSummary, error) {
	if err := run.Integrity.Err(); err != nil {
		return reviewedSummary{}, fmt.Errorf("rescore %s: %w", run.Dir, err)
	}
	lock, err := rundir.AcquireLock(run.Dir, "rescore")
	if err != nil {
		return reviewedSummary{}, err
	}
	defer lock.Release()
	rs, err := review.Read(path)
	if err != nil {
		return reviewedSummary{}, err
	}
	m, err := runManifest(run)
	if err != nil {
		return reviewedSummary{}, err
	}
	if eng := m.Settings.Engine; eng != "" && eng != engineSQLite {
		return reviewedSummary{}, fmt.Errorf("rescore judges corrected golds on the SQLite files; run %s used --engine %s", run.Dir, eng)
	}
	// The run judged its golds under this mode; a corrected gold is judged the same way.
	spiderMode, err := judge.ParseSpiderMode(m.Settings.SpiderMode)
	if err != nil {
		return reviewedSummary{}, fmt.Errorf("run %s: manifest setting spider_mode: %w", run.Dir, err)
	}
	cfg := benchrun.RescoreConfig{DatasetSpec: m.Settings.DatasetKind + ":" + m.Dataset.Path, DBRoot: m.Settings.DBRoot,
		Semantics: judge.Semantics(run.Summary.Settings.Semantics), SpiderMode: spiderMode, Timeout: time.Duration(run.Summary.Settings.TimeoutS * float64(time.Second)),
		MaxRows: run.Summary.Settings.MaxRows, Reviews: rs}
	for _, s := range run.Systems {
		cfg.Systems = append(cfg.Systems, benchrun.SystemRecords{Name: s.Name, Records: s.Records})
	}
	res, err := benchrun.Rescore(ctx, cfg)
	if err != nil {
		return reviewedSummary{}, err
	}
	out := reviewedSummary{Reviews: absPath(path), Count: len(rs), Systems: res}
	if err := writeJSONAtomic(filepath.Join(run.Dir, reviewedFile), out); err != nil {
		return out, err
	}
	return out, rundir.Reseal(run.Dir, reviewedFile)
}

func printRescored(e *env, s reviewedSummary, dir string) error {
	w := e.stdout
	fmt.Fprintf(w, "%d reviews from %s\n", s.Count, s.Reviews)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tEX raw\tEX reviewed\tchanged\t\n")
	for _, r := range s.Systems {
		fmt.Fprintf(tw, "%s\t%s %s\t%s %s\t%d\t\n", r.System, r.Raw.Text, r.Raw.CIText, r.Reviewed.Text, r.Reviewed.CIText, len(r.Changed))
	}
	tw.Flush()
	_, err := fmt.Fprintf(w, "reviewed scores: %s\n", absPath(filepath.Join(dir, reviewedFile)))
	return err
}
