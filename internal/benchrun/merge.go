package benchrun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// ErrMerge marks shard runs that cannot be merged into one run: not shards, of other
// inputs, settings or builds, a shard given twice, a shard missing, an unfinished
// shard, or VES times from several hosts.
var ErrMerge = errors.New("cannot merge")

// ShardRun is one shard's run directory as the cli read it.
type ShardRun struct {
	Dir      string
	Manifest *rundir.Manifest
	// Records are each system's records, in Manifest.Predictions order.
	Records [][]record.Record
	// Workers is the --workers its summary.json reports (the merged summary shows the
	// first shard's).
	Workers int
}

// MergeOptions say what a merge accepts.
type MergeOptions struct {
	// AllowMixedHosts merges VES timings measured on different hosts (a warning in the
	// summary says so); without it such shards are refused.
	AllowMixedHosts bool
}

// Merge checks that shards are the complete, disjoint shards of one sharded run and
// combines them into the run a single process would have written: every system's
// records in dataset order, its statistics and the summary, computed by Summarize as
// Eval computes them. The shards' manifests must agree on everything CompareManifests
// compares (build, settings, dataset, tables and prediction files) but the shard and
// the databases; the dataset is read again from the manifest's path (and must still
// have its sha256) to recompute the split, so a shard holding other questions than its
// index says is refused, and each missing shard is named with its databases and
// question indexes. The merged manifest (Result.Summary.Manifest) is the shards' with
// every database, no shard, and the shards it came from (MergedFrom).
func Merge(ctx context.Context, shards []ShardRun, opt MergeOptions) (*Result, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("%w: no shard run directories given", ErrMerge)
	}
	shards = slices.Clone(shards)
	for _, s := range shards {
		if s.Manifest == nil || s.Manifest.Settings.Shard == nil {
			return nil, fmt.Errorf("%w: %s is not a shard run: its manifest.json names no shard (eval --shard INDEX/COUNT writes one)", ErrMerge, s.Dir)
		}
	}
	slices.SortStableFunc(shards, func(a, b ShardRun) int {
		return cmp.Compare(a.Manifest.Settings.Shard.Index, b.Manifest.Settings.Shard.Index)
	})
	ref := majority(shards)
	n := ref.Manifest.Settings.Shard.Count
	for _, s := range shards {
		if err := sameRun(ref, s); err != nil {
			return nil, err
		}
	}
	for i, s := range shards {
		si := s.Manifest.Settings.Shard
		if si.Count != n {
			return nil, fmt.Errorf("%w: %s is shard %d/%d but %s is shard %d/%d: shards of different splits", ErrMerge, s.Dir, si.Index, si.Count, ref.Dir, ref.Manifest.Settings.Shard.Index, n)
		}
		if si.Index < 0 || si.Index >= si.Count {
			return nil, fmt.Errorf("%w: %s: its manifest names shard %d/%d, which no split has", ErrMerge, s.Dir, si.Index, si.Count)
		}
		if i > 0 && shards[i-1].Manifest.Settings.Shard.Index == si.Index {
			return nil, fmt.Errorf("%w: shard %d/%d is given twice: %s and %s", ErrMerge, si.Index, n, shards[i-1].Dir, s.Dir)
		}
	}
	ref = shards[0]
	ds, err := reloadDataset(ctx, ref.Manifest)
	if err != nil {
		return nil, err
	}
	parts, err := dataset.SplitShards(ds.Questions, n)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMerge, ref.Dir, err)
	}
	if err := missingShards(ds, parts, shards); err != nil {
		return nil, err
	}
	hosts, err := checkHosts(shards, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	srs, err := mergeRecords(shards, parts, ds)
	if err != nil {
		return nil, err
	}
	for _, s := range srs {
		res.Systems = append(res.Systems, SystemResult{Name: s.Name, Dir: s.Dir, Records: s.Records, Statistics: metrics.NewStatistics(s.Records)})
	}
	cfg, st, err := configOf(ref.Manifest, ref.Workers)
	if err != nil {
		return nil, err
	}
	res.Summary = Summarize(ctx, cfg, st, ds, srs)
	res.Summary.Manifest = mergedManifest(shards)
	if len(hosts) > 1 && cfg.VES {
		res.Summary.Warnings = append(res.Summary.Warnings, fmt.Sprintf("VES times were measured on %d hosts (%s) and merged with --allow-mixed-hosts: times from different machines are not comparable", len(hosts), strings.Join(hosts, ", ")))
	}
	return res, nil
}

// mergeRecords checks every shard's records of every system (shards[0]'s manifest
// names the systems) and puts them in dataset order.
func mergeRecords(shards []ShardRun, parts []dataset.ShardPart, ds *dataset.Dataset) ([]SystemRecords, error) {
	srs := make([]SystemRecords, len(shards[0].Manifest.Predictions))
	for si, pf := range shards[0].Manifest.Predictions {
		var recs []record.Record
		for _, s := range shards {
			part := parts[s.Manifest.Settings.Shard.Index]
			if err := checkShardRecords(s, si, pf.System, ds, part); err != nil {
				return nil, err
			}
			recs = append(recs, s.Records[si]...)
		}
		slices.SortStableFunc(recs, func(a, b record.Record) int { return cmp.Compare(a.Index, b.Index) })
		srs[si] = SystemRecords{Name: pf.System, Dir: record.SystemDir(pf.System), Records: recs}
	}
	return srs, nil
}

// majority is the shard whose manifest (and split count) the most shards share (ties:
// the lowest index), so that the one foreign shard among many is the one named.
func majority(shards []ShardRun) ShardRun {
	best, bestN := 0, -1
	for i, a := range shards {
		n := 0
		for _, b := range shards {
			if a.Manifest.Settings.Shard.Count == b.Manifest.Settings.Shard.Count && sameRun(a, b) == nil {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return shards[best]
}

// sameRun refuses a shard whose manifest differs from ref's in anything but the shard,
// its databases and its host, naming both directories and every difference.
func sameRun(ref, s ShardRun) error {
	a, b := *ref.Manifest, *s.Manifest
	a.Settings, b.Settings = withoutPerShard(a.Settings), withoutPerShard(b.Settings)
	a.Databases, b.Databases = nil, nil
	err := CompareManifests(&a, &b)
	var me *MismatchError
	if errors.As(err, &me) {
		return fmt.Errorf("%w: %s is not a shard of the same run as %s: %s", ErrMerge, s.Dir, ref.Dir, strings.Join(me.Diffs, "; "))
	}
	return err
}

// reloadDataset reads the shards' dataset again, refusing a file that changed since they
// ran, and narrows it to their --db-id databases, as Prepare did before splitting. The
// prediction files are checked too: Summarize re-reads them for module usage.
func reloadDataset(ctx context.Context, m *rundir.Manifest) (*dataset.Dataset, error) {
	opt := dataset.Options{DBRoot: m.Settings.DBRoot}
	if m.Tables != nil {
		opt.Tables = m.Tables.Path
	}
	files := append([]rundir.FileDigest{m.Dataset}, predictionDigests(m)...)
	for _, f := range files {
		d, err := digestFile(ctx, f.Path)
		if err != nil {
			return nil, fmt.Errorf("%w: the shards' input %s: %v (merge reads it again)", ErrMerge, f.Path, err)
		}
		if d.SHA256 != f.SHA256 {
			return nil, fmt.Errorf("%w: %s changed since the shards ran (sha256 %s → %s)", ErrMerge, f.Path, short(f.SHA256), short(d.SHA256))
		}
	}
	ds, err := dataset.Load(ctx, m.Settings.DatasetKind+":"+m.Dataset.Path, opt)
	if err != nil {
		return nil, err
	}
	if err := keepDBs(ds, nil, m.Settings.DBIDs); err != nil {
		return nil, err
	}
	return ds, nil
}

func predictionDigests(m *rundir.Manifest) []rundir.FileDigest {
	out := make([]rundir.FileDigest, len(m.Predictions))
	for i, p := range m.Predictions {
		out[i] = p.FileDigest
	}
	return out
}

// missingShards checks that every shard holds the questions the split gives its index
// and names every shard index that none of shards is, with its databases and questions.
func missingShards(ds *dataset.Dataset, parts []dataset.ShardPart, shards []ShardRun) error {
	have := map[int]bool{}
	for _, s := range shards {
		si := s.Manifest.Settings.Shard
		qs := partQuestions(ds, parts[si.Index])
		if si.DatasetQuestions != len(ds.Questions) || si.IndexesSHA256 != dataset.IndexDigest(qs) {
			return fmt.Errorf("%w: %s: shard %d/%d holds %d of %d questions (databases %s), but this nl2sqlbench splits %s into a shard %d/%d of %d of %d questions (databases %s)",
				ErrMerge, s.Dir, si.Index, si.Count, si.Questions, si.DatasetQuestions, strings.Join(si.DBIDs, ", "),
				ds.Path, si.Index, si.Count, len(qs), len(ds.Questions), strings.Join(parts[si.Index].DBIDs, ", "))
		}
		have[si.Index] = true
	}
	var miss []string
	for i, p := range parts {
		if have[i] {
			continue
		}
		qs := partQuestions(ds, p)
		idx := make([]int, len(qs))
		for k, q := range qs {
			idx[k] = q.Index
		}
		miss = append(miss, fmt.Sprintf("%d/%d (%d questions on %s; question indexes %s)", i, len(parts), len(qs), strings.Join(p.DBIDs, ", "), indexRanges(idx)))
	}
	if len(miss) > 0 {
		return fmt.Errorf("%w: %d of %d shards missing: %s", ErrMerge, len(miss), len(parts), strings.Join(miss, "; "))
	}
	return nil
}

func partQuestions(ds *dataset.Dataset, p dataset.ShardPart) []dataset.Question {
	qs := make([]dataset.Question, len(p.Positions))
	for i, pos := range p.Positions {
		qs[i] = ds.Questions[pos]
	}
	return qs
}

// indexRanges writes ascending indexes as ranges ("0-35, 120, 140-151"), at most 12.
func indexRanges(idx []int) string {
	var out []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if len(out) == 12 {
			out = append(out, "...")
			break
		}
		if j == i {
			out = append(out, fmt.Sprint(idx[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}

// checkHosts returns the shards' distinct hosts, refusing several when the run timed
// VES and opt does not allow it.
func checkHosts(shards []ShardRun, opt MergeOptions) ([]string, error) {
	var hosts, where []string
	for _, s := range shards {
		where = append(where, fmt.Sprintf("%s on %s", s.Dir, orNone(s.Manifest.Host)))
		if !slices.Contains(hosts, s.Manifest.Host) {
			hosts = append(hosts, s.Manifest.Host)
		}
	}
	if len(hosts) > 1 && shards[0].Manifest.Settings.VES && !opt.AllowMixedHosts {
		return nil, fmt.Errorf("%w: the shards timed VES on different hosts (%s): times from different machines are not comparable; rerun them on one host or give --allow-mixed-hosts",
			ErrMerge, strings.Join(where, ", "))
	}
	return hosts, nil
}

// checkShardRecords refuses a shard whose records of system si are not exactly its
// questions in order (an unfinished shard run, or records of another split).
func checkShardRecords(s ShardRun, si int, system string, ds *dataset.Dataset, p dataset.ShardPart) error {
	if si >= len(s.Records) {
		return fmt.Errorf("%w: %s has no records for system %s", ErrMerge, s.Dir, system)
	}
	recs := s.Records[si]
	if len(recs) != len(p.Positions) {
		return fmt.Errorf("%w: %s: system %s has %d records for the shard's %d questions (an unfinished run: continue it with eval --resume)", ErrMerge, s.Dir, system, len(recs), len(p.Positions))
	}
	for k, pos := range p.Positions {
		q, r := &ds.Questions[pos], &recs[k]
		if r.Index != q.Index || r.DBID != q.DBID || r.QuestionID != q.ID {
			return fmt.Errorf("%w: %s: system %s: record %d is question %d (db %s) but the shard's question %d is %d (db %s)", ErrMerge, s.Dir, system, k+1, r.Index, r.DBID, k+1, q.Index, q.DBID)
		}
	}
	return nil
}

// configOf is the Config whose summary a single run with m's settings would have made
// (every entry of recordedSettings put back: restoreSettings), and its settings as m
// recorded them (ResolveManifest).
func configOf(m *rundir.Manifest, workers int) (Config, Settings, error) {
	st := m.Settings
	cfg := Config{Workers: workers, HashDBs: m.HashedDBs}
	if err := restoreSettings(&cfg, m); err != nil {
		return cfg, Settings{}, fmt.Errorf("%w: the shards' manifest: %w", ErrMerge, err)
	}
	if m.Tables != nil {
		cfg.Tables = m.Tables.Path
	}
	for _, p := range m.Predictions {
		cfg.Preds = append(cfg.Preds, p.System+"="+p.Path)
	}
	if st.Pricing != "" {
		b, err := inputfile.Read(st.Pricing)
		if err != nil {
			return cfg, Settings{}, fmt.Errorf("%w: the shards' pricing: %v", ErrMerge, err)
		}
		if cfg.Pricing, err = metrics.ParsePricing(b); err != nil {
			return cfg, Settings{}, fmt.Errorf("%w: the shards' pricing %s: %v", ErrMerge, st.Pricing, err)
		}
	}
	// The modes name the summary's sections; one this build does not know is refused,
	// not read as official.
	set, err := ResolveManifest(m, cfg.metricOptions())
	if err != nil {
		return cfg, set, fmt.Errorf("%w: the shards' manifest: %w", ErrMerge, err)
	}
	return cfg, set, nil
}

// mergedManifest is the shards' manifest (they agree) without a shard, with every
// database, the earliest start, the host when they share one, and the shards.
func mergedManifest(shards []ShardRun) *rundir.Manifest {
	m := *shards[0].Manifest
	m.Settings.Shard = nil
	m.Databases = nil
	m.MergedFrom = nil
	for _, s := range shards {
		sm := s.Manifest
		m.Databases = append(m.Databases, sm.Databases...)
		if sm.StartedAt.Before(m.StartedAt) {
			m.StartedAt = sm.StartedAt
		}
		if sm.Host != m.Host {
			m.Host = ""
		}
		si := sm.Settings.Shard
		m.MergedFrom = append(m.MergedFrom, rundir.MergedShard{Dir: absPath(s.Dir), Index: si.Index, Count: si.Count, Questions: si.Questions, Host: sm.Host, StartedAt: sm.StartedAt})
	}
	slices.SortFunc(m.Databases, func(a, b rundir.DatabaseFile) int { return cmp.Compare(a.DBID, b.DBID) })
	m.Databases = slices.CompactFunc(m.Databases, func(a, b rundir.DatabaseFile) bool { return a.DBID == b.DBID })
	return &m
}
