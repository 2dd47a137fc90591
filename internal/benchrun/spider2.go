package benchrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Spider 2.0 runs: predictions are folders of <instance_id>.csv result tables or
// <instance_id>.sql queries, judged by judge.RunSpider2 (result tables against gold
// CSVs; nothing to execute for a CSV).

// readSpider2Systems reads every --pred folder: one answer per task at most, a .csv or
// a .sql. Files that name no task are ignored, as evaluate.py ignores them (counted in a
// warning).
func readSpider2Systems(ds *dataset.Dataset, cfg Config, obs Observer) ([]System, error) {
	index := make(map[string]int, len(ds.Spider2.Tasks))
	for i, t := range ds.Spider2.Tasks {
		index[t.ID] = i
	}
	var out []System
	seen := map[string]string{}
	for _, spec := range cfg.Preds {
		name, dir := splitPredSpec(spec)
		if i := strings.IndexByte(spec, '='); i <= 0 || strings.ContainsAny(spec[:i], `/\`) {
			name = filepath.Base(filepath.Clean(dir)) // a folder: its name, extension or not
		}
		file := record.SystemDir(name)
		if err := rundir.CheckSystemDir(file); err != nil {
			return nil, configf("--pred %q: system %q: %v; give it another name (NAME=FILE)", spec, name, err)
		}
		if prev, dup := seen[file]; dup {
			return nil, configf("--pred %q: system name %q is already used by --pred %q; name them NAME=FOLDER", spec, name, prev)
		}
		seen[file] = spec
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("--pred %q: a Spider 2.0 prediction is a folder of <instance_id>.csv or .sql files: %w", spec, err)
		}
		preds := make([]*judge.Spider2Pred, len(ds.Spider2.Tasks))
		unknown := 0
		for _, e := range ents {
			ext := filepath.Ext(e.Name())
			if e.IsDir() || (ext != ".csv" && ext != ".sql") {
				continue
			}
			i, ok := index[strings.TrimSuffix(e.Name(), ext)]
			if !ok {
				unknown++
				continue
			}
			if preds[i] != nil {
				return nil, configf("--pred %q: task %s has both %s and %s; keep one", spec, ds.Spider2.Tasks[i].ID, filepath.Base(preds[i].Path), e.Name())
			}
			preds[i] = &judge.Spider2Pred{Path: filepath.Join(dir, e.Name()), SQL: ext == ".sql"}
		}
		if unknown > 0 {
			obs.Warn(fmt.Sprintf("--pred %s: %d file(s) name no task of %s; ignored", spec, unknown, ds.Spider2.Dir))
		}
		out = append(out, System{Name: name, Dir: file, Spider2: preds})
	}
	return out, nil
}

// keepSpider2DBs narrows a Spider 2.0 run to the tasks on the databases ids names.
func keepSpider2DBs(ds *dataset.Dataset, systems []System, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var qs []dataset.Question
	var ts []dataset.Spider2Task
	keep := make([]bool, len(ds.Questions))
	for i, q := range ds.Questions {
		if slices.Contains(ids, q.DBID) {
			keep[i] = true
			qs, ts = append(qs, q), append(ts, ds.Spider2.Tasks[i])
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(qs, func(q dataset.Question) bool { return q.DBID == id }) {
			return configf("--db-id %q: no task of %s is on that database", id, ds.Path)
		}
	}
	for si := range systems {
		var ps []*judge.Spider2Pred
		for i, p := range systems[si].Spider2 {
			if keep[i] {
				ps = append(ps, p)
			}
		}
		systems[si].Spider2 = ps
	}
	ds.Questions, ds.Spider2.Tasks = qs, ts
	return nil
}

// evalSpider2 is Eval for a Spider 2.0 suite.
func evalSpider2(ctx context.Context, p *Plan, res *Result, sink Sink, obs Observer) (*Result, error) {
	cfg, ds := p.Config, p.Dataset
	mode := p.Settings.Spider2Mode
	sqlite := engine.NewSQLite()
	sqlite.MaxConnsPerDB = max(cfg.Workers, 1)
	defer sqlite.Close()
	js := make([]judge.Spider2System, len(p.Systems))
	for i, s := range p.Systems {
		js[i] = judge.Spider2System{Name: s.Name, Preds: s.Spider2, From: len(res.Systems[i].Records)}
	}
	prog := obs.Phase(Phase{Name: PhaseJudging})
	opt := judge.Spider2Options{Mode: mode, Workers: cfg.Workers, Progress: prog.Update, SQLite: sqlite,
		Limits: engine.Limits{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows, MaxBytes: cfg.MaxResultBytes}}
	if duck, why := spider2DuckDB(p); duck != nil {
		defer duck.Close()
		opt.DuckDB = duck
	} else {
		opt.NoDuckDB = why
	}
	t0 := time.Now()
	err := judge.RunSpider2(ctx, ds, js, opt, func(i int, r *record.Record) error {
		s := &res.Systems[i]
		s.Records = append(s.Records, *r)
		return sink.Write(i, r)
	})
	prog.Finish()
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx.Err(), res, len(ds.Questions))
		}
		return nil, err
	}
	res.Elapsed = time.Since(t0)
	summarizeResult(ctx, p, res)
	return res, nil
}

// spider2Summaries is summary.json's spider2 section, and the warning that says which
// tasks were skipped and why.
func spider2Summaries(systems []SystemRecords) ([]metrics.Spider2Summary, []string) {
	var out []metrics.Spider2Summary
	var warns []string
	for _, s := range systems {
		sum, ok := metrics.SummarizeSpider2(s.Name, s.Records)
		if !ok {
			continue
		}
		out = append(out, sum)
		if len(out) == 1 && len(sum.Skipped) > 0 {
			reasons := make([]string, 0, len(sum.Skipped))
			n := 0
			for why, k := range sum.Skipped {
				reasons = append(reasons, fmt.Sprintf("%d: %s", k, why))
				n += k
			}
			slices.Sort(reasons)
			warns = append(warns, fmt.Sprintf("%d of %d Spider 2.0 tasks skipped (not in the Final score; 0 in the Real score): %s", n, sum.Tasks, strings.Join(reasons, "; ")))
		}
	}
	return out, warns
}

// digestDir fingerprints a prediction folder: the sha256 over each .csv and .sql file's
// name and contents, in name order; Size is their total size.
func digestDir(ctx context.Context, dir string) (rundir.FileDigest, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return rundir.FileDigest{}, err
	}
	h := sha256.New()
	var total int64
	for _, e := range ents {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".csv" && ext != ".sql") {
			continue
		}
		if err := ctx.Err(); err != nil {
			return rundir.FileDigest{}, err
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return rundir.FileDigest{}, err
		}
		fmt.Fprintf(h, "%s\x00", e.Name())
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return rundir.FileDigest{}, fmt.Errorf("hash %s: %w", e.Name(), err)
		}
		fmt.Fprintf(h, "\x00%d\x00", n)
		total += n
	}
	return rundir.FileDigest{Path: absPath(dir), Size: total, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// prepareSpider2 is Prepare for a Spider 2.0 suite: prediction folders, no database
// needed for result tables.
func prepareSpider2(ctx context.Context, cfg Config, st Settings, ds *dataset.Dataset, obs Observer) (*Plan, error) {
	systems, err := readSpider2Systems(ds, cfg, obs)
	if err != nil {
		return nil, err
	}
	if err := keepSpider2DBs(ds, systems, cfg.DBIDs); err != nil {
		return nil, err
	}
	p := &Plan{Config: cfg, Dataset: ds, Settings: st, Systems: systems}
	if p.Manifest, err = NewManifest(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// spider2ModeSetting is the mode in force, for the manifest ("" outside Spider 2.0).
func spider2ModeSetting(p *Plan) string {
	if p.Dataset.Spider2 == nil {
		return ""
	}
	return string(p.Settings.Spider2Mode)
}

// spider2Digests fingerprints what a Spider 2.0 verdict is judged against besides the
// task file: the eval config and the gold result CSVs (34 MB for a suite: hashed in full,
// as a changed gold CSV changes verdicts silently otherwise).
func spider2Digests(ctx context.Context, s *dataset.Spider2Suite) (eval, gold *rundir.FileDigest, err error) {
	e, err := digestFile(ctx, s.EvalFile)
	if err != nil {
		return nil, nil, fmt.Errorf("manifest: Spider 2.0 eval config: %w", err)
	}
	g, err := digestDir(ctx, s.GoldDir)
	if err != nil {
		return nil, nil, fmt.Errorf("manifest: Spider 2.0 gold results: %w", err)
	}
	return &e, &g, nil
}
