package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// mergeOpts are the flags of merge.
type mergeOpts struct {
	out             string
	json            bool
	allowMixedHosts bool
}

func newMergeCmd(e *env) *cobra.Command {
	o := mergeOpts{}
	cmd := &cobra.Command{
		Use:   "merge SHARD_DIR... --out DIR",
		Short: "Combine the run directories of eval --shard into the run one process would have written",
		Long: `Check that the run directories are the shards of one sharded eval and write the whole run
into --out: every system's records in dataset order, statistics.json and summary.json
computed exactly as a single eval computes them, and a manifest.json naming the shards
(merged_from).

Refused, naming the directory and the difference: a directory that is not a shard run or
did not finish (no summary.json); a shard whose manifest differs from the others' (build,
settings, dataset, tables or prediction files); a shard given twice; a shard of another
split; a missing shard (each named with its databases and question indexes); a dataset or
prediction file changed since the shards ran (merge reads them again). Shards that timed
VES on different hosts are refused unless --allow-mixed-hosts: times from different
machines are not comparable. --out must be absent or empty.`,
		Example: `  for i in 0 1 2; do
    nl2sqlbench eval --dataset spider:../shared/data/spider --pred DAIL=DAIL.txt --shard $i/3 --out runs/s$i
  done
  nl2sqlbench merge runs/s0 runs/s1 runs/s2 --out runs/spider-dev`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if o.out == "" {
				return usagef("--out is required")
			}
			return runMerge(cmd, e, dirs, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "directory for the merged run (absent or empty)")
	f.BoolVar(&o.json, "json", false, "print the merged summary as JSON on stdout (and nothing else)")
	f.BoolVar(&o.allowMixedHosts, "allow-mixed-hosts", false, "merge VES timings measured on different hosts (not comparable; the summary warns)")
	return cmd
}

func runMerge(cmd *cobra.Command, e *env, dirs []string, o mergeOpts) error {
	lock, err := rundir.AcquireLock(o.out, "merge")
	if err != nil {
		return err
	}
	defer lock.Release()
	od, err := rundir.PlanOut(o.out, false, false)
	if err != nil {
		return err
	}
	shards := make([]benchrun.ShardRun, len(dirs))
	for i, d := range dirs {
		if shards[i], err = readShardRun(d); err != nil {
			return err
		}
	}
	res, err := benchrun.Merge(cmd.Context(), shards, benchrun.MergeOptions{AllowMixedHosts: o.allowMixedHosts})
	if err != nil {
		return err
	}
	if err := writeMerged(od.Out, res); err != nil {
		return err
	}
	sum := res.Summary
	if o.json {
		return report.WriteJSON(e.stdout, sum)
	}
	if err := report.WriteTable(e.stdout, sum); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "\n%s merged from %s; run directory: %s\n", plural(sum.Dataset.Questions, "question"), plural(len(dirs), "shard"), o.out)
	return err
}

// readShardRun reads what merge needs of a shard's run directory: its manifest, the
// --workers of its summary.json (whose presence says the run finished) and every
// system's records.
func readShardRun(dir string) (benchrun.ShardRun, error) {
	s := benchrun.ShardRun{Dir: dir}
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		return s, fmt.Errorf("%w: %s: %v (not a run directory of eval --shard)", benchrun.ErrMerge, dir, err)
	}
	s.Manifest = m
	if s.Manifest.Settings.Shard == nil {
		return s, fmt.Errorf("%w: %s is not a shard run: its manifest.json names no shard (eval --shard INDEX/COUNT writes one)", benchrun.ErrMerge, dir)
	}
	sum, err := rundir.ReadSummary(dir)
	if errors.Is(err, os.ErrNotExist) {
		sh := s.Manifest.Settings.Shard
		return s, fmt.Errorf("%w: %s: shard %d/%d did not finish (no summary.json); continue it with eval --resume --shard %d/%d --out %s",
			benchrun.ErrMerge, dir, sh.Index, sh.Count, sh.Index, sh.Count, dir)
	}
	if err != nil {
		return s, fmt.Errorf("%w: %v", benchrun.ErrMerge, err)
	}
	if err := rundir.Check(dir, sum).Err(); err != nil {
		return s, fmt.Errorf("%w: shard %s: %w", benchrun.ErrMerge, dir, err)
	}
	s.Workers = sum.Settings.Workers
	for _, p := range s.Manifest.Predictions {
		path, err := rundir.Resolve(dir, record.SystemDir(p.System)+"/"+rundir.RecordsFile)
		if err != nil {
			return s, fmt.Errorf("%w: %s: system %s: %v", benchrun.ErrMerge, dir, p.System, err)
		}
		recs, err := rundir.ReadRecords(path)
		if err != nil {
			return s, fmt.Errorf("%w: %s: system %s: %v", benchrun.ErrMerge, dir, p.System, err)
		}
		s.Records = append(s.Records, recs)
	}
	return s, nil
}

// writeMerged writes the merged run directory: the manifest first, as eval does, then
// each system's records and statistics.json, then summary.json.
func writeMerged(out string, res *benchrun.Result) error {
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
