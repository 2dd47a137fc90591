package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// MergeInto is the merge command's run: it takes the lock on out (absent or empty),
// reads every shard's run directory (readShardRun), merges them (Merge) and writes the
// merged run directory there, as one eval would have written it.
func MergeInto(ctx context.Context, dirs []string, out string, opt MergeOptions) (*Result, error) {
	lock, err := rundir.AcquireLock(out, "merge")
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	od, err := rundir.PlanOut(out, false, false)
	if err != nil {
		return nil, err
	}
	shards := make([]ShardRun, len(dirs))
	for i, d := range dirs {
		if shards[i], err = readShardRun(d); err != nil {
			return nil, err
		}
	}
	res, err := Merge(ctx, shards, opt)
	if err != nil {
		return nil, err
	}
	if err := writeMerged(od.Out, res); err != nil {
		return nil, err
	}
	return res, nil
}

// readShardRun reads what merge needs of a shard's run directory: its manifest, the
// --workers of its summary.json (whose presence says the run finished) and every
// system's records.
func readShardRun(dir string) (ShardRun, error) {
	s := ShardRun{Dir: dir}
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		return s, fmt.Errorf("%w: %s: %v (not a run directory of eval --shard)", ErrMerge, dir, err)
	}
	s.Manifest = m
	if s.Manifest.Settings.Shard == nil {
		return s, fmt.Errorf("%w: %s is not a shard run: its manifest.json names no shard (eval --shard INDEX/COUNT writes one)", ErrMerge, dir)
	}
	sum, err := rundir.ReadSummary(dir)
	if errors.Is(err, os.ErrNotExist) {
		sh := s.Manifest.Settings.Shard
		return s, fmt.Errorf("%w: %s: shard %d/%d did not finish (no summary.json); continue it with eval --resume --shard %d/%d --out %s",
			ErrMerge, dir, sh.Index, sh.Count, sh.Index, sh.Count, dir)
	}
	if err != nil {
		return s, fmt.Errorf("%w: %v", ErrMerge, err)
	}
	if err := rundir.Check(dir, sum).Err(); err != nil {
		return s, fmt.Errorf("%w: shard %s: %w", ErrMerge, dir, err)
	}
	s.Workers = sum.Settings.Workers
	for _, p := range s.Manifest.Predictions {
		path, err := rundir.Resolve(dir, record.SystemDir(p.System)+"/"+rundir.RecordsFile)
		if err != nil {
			return s, fmt.Errorf("%w: %s: system %s: %v", ErrMerge, dir, p.System, err)
		}
		recs, err := rundir.ReadRecords(path)
		if err != nil {
			return s, fmt.Errorf("%w: %s: system %s: %v", ErrMerge, dir, p.System, err)
		}
		s.Records = append(s.Records, recs)
	}
	return s, nil
}

// writeMerged writes the merged run directory: the manifest first, as eval does, then
// each system's records and statistics.json, then summary.json.
func writeMerged(out string, res *Result) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("create run directory: %w", err)
	}
	if err := rundir.WriteJSON(filepath.Join(out, rundir.ManifestFile), res.Summary.Manifest); err != nil {
		return err
	}
	for _, s := range res.Systems {
		dir := filepath.Join(out, s.Dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create run directory: %w", err)
		}
		if err := rundir.WriteRecords(filepath.Join(dir, rundir.RecordsFile), s.Records); err != nil {
			return err
		}
		if err := rundir.WriteJSON(filepath.Join(dir, rundir.StatisticsFile), s.Statistics); err != nil {
			return err
		}
	}
	return rundir.Seal(out, res.Summary, res.Summary.Manifest)
}
