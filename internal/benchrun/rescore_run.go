package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// RescoreRun applies the reviews file at path and the corrections file (""; none) to
// the run, under its lock, and writes and seals its reviewed.json (rescore, and serve
// after recording a review); path may be "" when corrections are given. A corrected
// gold is judged under the run's recorded settings, on its SQLite files.
func RescoreRun(ctx context.Context, run *rundir.Run, path, corrections string) (rundir.Reviewed, error) {
	return rescoreRun(ctx, run, path, corrections, nil)
}

// ErrNoExecRoot is a corrected gold in a dashboard started without a database root:
// judging it means running it, and the dashboard runs no query on the root a run records.
var ErrNoExecRoot = errors.New("a corrected gold is judged by running it, and the dashboard runs no query unless started with --db-root DIR")

// RescoreRunUnder is RescoreRun (no corrections file) for the dashboard, whose run
// directories may be anyone's: a corrected gold is judged only on database files that
// resolve inside dbRoot, the root the user gave (serve --db-root), and its question is
// taken from the run's records, so neither the dataset path nor the database root the
// run records is read. With dbRoot "" reviews that correct a gold are refused
// (ErrNoExecRoot) before anything is written; the others apply without a query.
func RescoreRunUnder(ctx context.Context, run *rundir.Run, path, dbRoot string) (rundir.Reviewed, error) {
	return rescoreRun(ctx, run, path, "", &dbRoot)
}

func rescoreRun(ctx context.Context, run *rundir.Run, path, corrections string, under *string) (rundir.Reviewed, error) {
	if err := run.Integrity.Err(); err != nil {
		return rundir.Reviewed{}, fmt.Errorf("rescore %s: %w", run.Dir, err)
	}
	lock, err := rundir.AcquireLock(run.Dir, "rescore")
	if err != nil {
		return rundir.Reviewed{}, err
	}
	defer lock.Release()
	var rs []review.Review
	if path != "" {
		if rs, err = review.Read(path); err != nil {
			return rundir.Reviewed{}, err
		}
	}
	if corrections != "" {
		cs, err := review.ReadCorrections(corrections, questionIndex(run))
		if errors.Is(err, os.ErrNotExist) {
			return rundir.Reviewed{}, fmt.Errorf("corrections: %w", err)
		}
		if err != nil {
			return rundir.Reviewed{}, err
		}
		// The corrections first: a review of the same question, later, wins.
		rs = append(cs, rs...)
	}
	if under != nil && *under == "" && len(review.Corrections(rs)) > 0 {
		return rundir.Reviewed{}, ErrNoExecRoot
	}
	m, err := run.Manifest()
	if err != nil {
		return rundir.Reviewed{}, err
	}
	if eng := m.Settings.Engine; eng != "" && eng != EngineSQLite {
		return rundir.Reviewed{}, fmt.Errorf("rescore judges corrected golds on the SQLite files; run %s used --engine %s", run.Dir, eng)
	}
	// The run judged its golds under this mode; a corrected gold is judged the same way.
	set, err := ResolveManifest(m, metrics.Options{PassK: m.Settings.PassK})
	if err != nil {
		return rundir.Reviewed{}, fmt.Errorf("run %s: %w", run.Dir, err)
	}
	sem, err := ParseRecordedSemantics(run.Summary.Settings.Semantics)
	if err != nil {
		return rundir.Reviewed{}, fmt.Errorf("run %s: summary.json: %w", run.Dir, err)
	}
	cfg := RescoreConfig{DatasetSpec: m.Settings.DatasetKind + ":" + m.Dataset.Path, DBRoot: m.Settings.DBRoot,
		Semantics: sem, SpiderMode: set.SpiderMode, Timeout: time.Duration(run.Summary.Settings.TimeoutS * float64(time.Second)),
		MaxRows: run.Summary.Settings.MaxRows, Reviews: rs}
	for _, s := range run.Systems {
		cfg.Systems = append(cfg.Systems, SystemRecords{Name: s.Name, Records: s.Records})
	}
	if under != nil {
		cfg.Dataset = recordedQuestions(run, m.Settings.DatasetKind, *under)
	}
	res, moved, err := Rescore(ctx, cfg)
	if err != nil {
		return rundir.Reviewed{}, err
	}
	out := rundir.Reviewed{Count: len(rs), Systems: res, Moved: moved}
	if path != "" {
		out.Reviews = absPath(path)
	}
	if corrections != "" {
		out.Corrections = absPath(corrections)
	}
	if err := rundir.WriteJSON(filepath.Join(run.Dir, rundir.ReviewedFile), out); err != nil {
		return out, err
	}
	return out, rundir.Reseal(run.Dir, rundir.ReviewedFile)
}

// questionIndex maps the run's question ids to their indexes (from its records).
func questionIndex(run *rundir.Run) func(string) (int, bool) {
	by := map[string]int{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			by[r.QuestionID] = r.Index
		}
	}
	return func(id string) (int, bool) { i, ok := by[id]; return i, ok }
}

// recordedQuestions is the run's questions as its records hold them, over the database
// root the user gave, confined to it (dataset.DBPathInside).
func recordedQuestions(run *rundir.Run, kind, dbRoot string) *dataset.Dataset {
	ds := &dataset.Dataset{Kind: kind, DBRoot: dbRoot, Confined: true}
	seen := map[int]bool{}
	for _, s := range run.Systems {
		for _, r := range s.Records {
			if seen[r.Index] {
				continue
			}
			seen[r.Index] = true
			ds.Questions = append(ds.Questions, dataset.Question{Index: r.Index, ID: r.QuestionID, DBID: r.DBID,
				Text: r.Question, Difficulty: r.Difficulty, Gold: []string{r.GoldSQL}})
		}
	}
	return ds
}
