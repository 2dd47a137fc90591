package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// RescoreRun applies the reviews file at path and the corrections file (""; none) to
// the run, under its lock, and writes and seals its reviewed.json (rescore, and serve
// after recording a review); path may be "" when corrections are given. A corrected
// gold is judged under the run's recorded settings, on its SQLite files.
func RescoreRun(ctx context.Context, run *rundir.Run, path, corrections string) (rundir.Reviewed, error) {
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
