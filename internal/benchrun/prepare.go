package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Plan is an evaluation ready to judge: the dataset, narrowed to Config.DBIDs, and every
// system's predictions paired with its questions.
type Plan struct {
	Config  Config
	Dataset *dataset.Dataset
	// Settings are Config's modes and metrics, resolved once (Resolve), the semantics
	// after the dataset kind's default.
	Settings Settings
	Systems  []System // in Config.Preds order
	// Manifest fingerprints the run (NewManifest); a caller resuming a run may replace
	// it with the resumed run's own, once CompareManifests found them equal. Eval puts
	// it in the summary.
	Manifest *rundir.Manifest
	// Shard describes the shard of Config.Shard the dataset was narrowed to; nil: none.
	Shard *rundir.ShardInfo
	// Tasks is set for tasks on a database copy (livesql:, evalbench:; tasks.go): the
	// tasks and predictions, aligned with Dataset.Questions.
	Tasks *TaskPlan
}

// System is one system of a run.
type System struct {
	Name  string                // NAME of NAME=FILE, or the file's base name
	Dir   string                // Name made safe as a directory name; unique in a run
	Preds []*predict.Prediction // Preds[i] answers Dataset.Questions[i]
	// Spider2 answers a Spider 2.0 suite's tasks instead of Preds (spider2.go).
	Spider2 []*judge.Spider2Pred
}

// Prepare loads cfg's dataset and prediction files, pairs them and fingerprints the run
// (Plan.Manifest). Dataset warnings go to obs (nil: dropped) once the predictions are
// read and the dataset is narrowed to Config.DBIDs (those about other databases dropped). When the run's databases are files and not one of them exists, the error
// matches ErrNoDatabases.
func Prepare(ctx context.Context, cfg Config, obs Observer) (*Plan, error) {
	obs = orQuiet(obs)
	st, err := Resolve(cfg)
	if err != nil {
		return nil, err
	}
	// Before anything is read or judged: a run its own report could not read back.
	if err := rundir.CheckSystems(len(cfg.Preds)); err != nil {
		return nil, configf("--pred: %v", err)
	}
	if cfg.Proof && !cfg.TestSuite {
		return nil, configf("--proof needs --test-suite (the proof runs beside the counterexample search)")
	}
	if !buildid.Pinned() {
		go buildid.ExecutableSHA256() // the manifest's; hashed while the dataset and predictions load
	}
	if cfg.TaskCode != "" && !isTaskKind(cfg.DatasetSpec) {
		return nil, configf("--task-code: only tasks with test code (--dataset livesql:DIR) run code from the dataset")
	}
	if isTaskKind(cfg.DatasetSpec) {
		return prepareTasks(ctx, cfg, st, obs) // tasks on a database copy: tasks.go
	}
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot, Tables: cfg.Tables, DiffJSON: cfg.DiffJSON, Alternatives: cfg.Alternatives,
		NoHardness: !st.Needs.Has(metrics.NeedHardness)})
	if err != nil {
		return nil, err
	}
	st = st.withDefaultSemantics(ds.Kind)
	if ds.Spider2 != nil {
		if cfg.LLMJudge != nil {
			return nil, configf("--llm-judge: Spider 2.0 tasks have no gold SQL to show the judge")
		}
		return prepareSpider2(ctx, cfg, st, ds, obs)
	}
	systems, notes, err := readSystems(ds, cfg)
	for _, n := range notes {
		obs.Warn(n)
	}
	if err == nil {
		err = keepDBs(ds, systems, cfg.DBIDs) // narrows ds.Warnings too
	}
	if err == nil && (cfg.Server == nil || cfg.GoldEngine == "sqlite") {
		err = someDatabase(ds)
	}
	if err == nil && cfg.Server == nil {
		err = checkDatabases(ctx, ds) // the databases are the ones the dataset describes
	}
	var shard *rundir.ShardInfo
	if err == nil {
		// After the check above: a shard whose databases are all missing is skipped, as
		// those questions are in an unsharded run. It narrows ds.Warnings too.
		shard, err = keepShard(ds, systems, cfg.Shard)
	}
	for _, w := range ds.Warnings {
		obs.Warn(w)
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{Config: cfg, Dataset: ds, Settings: st, Systems: systems, Shard: shard}
	if p.Manifest, err = newManifest(ctx, p, obs); err != nil {
		return nil, err
	}
	return p, nil
}

// ErrNoDatabases is Prepare's error when not one of the run's databases exists: every
// question would be skipped and every rate would say nothing.
var ErrNoDatabases = errors.New("no database found")

// someDatabase fails unless at least one question's database file exists, naming where
// it looked.
func someDatabase(ds *dataset.Dataset) error {
	if len(ds.Questions) == 0 {
		return nil
	}
	for _, q := range ds.Questions {
		if _, ok := ds.DBPath(q.DBID); ok {
			return nil
		}
	}
	if fi, err := os.Stat(ds.DBRoot); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: database root %s is not a directory (set --db-root)", ErrNoDatabases, ds.DBRoot)
	}
	looked := ds.DBCandidates(ds.Questions[0].DBID)
	return fmt.Errorf("%w: none of the dataset's databases is under %s (looked for %s, ...); check --db-root", ErrNoDatabases, ds.DBRoot, strings.Join(looked, ", "))
}

// semanticsFor is the semantics of a dataset of kind when --semantics is not given.
func semanticsFor(kind string) judge.Semantics {
	if k, ok := dataset.KindNamed(kind); ok && k.Semantics == string(judge.Spider) {
		return judge.Spider
	}
	return judge.Bird
}

// readSystems reads and pairs every --pred file.
func readSystems(ds *dataset.Dataset, cfg Config) ([]System, []string, error) {
	refs := make([]predict.QuestionRef, len(ds.Questions))
	for i, q := range ds.Questions {
		refs[i] = predict.QuestionRef{Index: q.Index, ID: q.ID, DBID: q.DBID, Text: q.Text}
	}
	// Names are checked before any file is read, so a naming mistake is reported as such.
	seen := map[string]string{}
	var out []System
	var paths, notes []string
	for _, spec := range cfg.Preds {
		name, path := splitPredSpec(spec)
		if path == "" {
			return nil, nil, configf("--pred %q: no file given", spec)
		}
		file := record.SystemDir(name)
		if err := rundir.CheckSystemDir(file); err != nil {
			return nil, nil, configf("--pred %q: system %q: %v; give it another name (NAME=FILE)", spec, name, err)
		}
		if prev, dup := seen[file]; dup {
			return nil, nil, configf("--pred %q: system name %q is already used by --pred %q; name them NAME=FILE", spec, name, prev)
		}
		seen[file] = spec
		out = append(out, System{Name: name, Dir: file})
		paths = append(paths, path)
	}
	for i := range out {
		s := &out[i]
		set, err := predict.ReadFor(paths[i], len(refs))
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, set.Notes...)
		s.Preds, err = predict.Pair(set, refs, predict.PairOptions{AllowMissing: cfg.AllowMissing})
		if err != nil {
			return nil, nil, pairHint(ds, paths[i], err)
		}
	}
	return out, notes, nil
}

// keepDBs narrows the dataset, and every system's paired predictions with it, to the
// questions on the databases ids names. Predictions are paired against the whole dataset
// first, so a prediction file for the whole benchmark is used as it is, and records keep
// their question's index in the whole dataset.
func keepDBs(ds *dataset.Dataset, systems []System, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	want := map[string]int{}
	for _, id := range ids {
		want[id] = 0
	}
	var qs []dataset.Question
	keep := make([]bool, len(ds.Questions))
	for i, q := range ds.Questions {
		if _, ok := want[q.DBID]; ok {
			want[q.DBID]++
			keep[i] = true
			qs = append(qs, q)
		}
	}
	for _, id := range ids {
		if want[id] == 0 {
			return configf("--db-id %q: no question of %s is on that database", id, ds.Path)
		}
	}
	for si := range systems {
		s := &systems[si]
		var ps []*predict.Prediction
		for i, p := range s.Preds {
			if keep[i] {
				ps = append(ps, p)
			}
		}
		s.Preds = ps
	}
	ds.Questions = qs
	keepIDs := map[string]bool{}
	for _, id := range ids {
		keepIDs[id] = true
	}
	ds.NarrowWarnings(keepIDs) // a warning about another database's questions says nothing here
	return nil
}

// splitPredSpec splits NAME=FILE; without a NAME the file's base name minus its
// extension names the system.
func splitPredSpec(spec string) (name, path string) {
	if i := predNameEnd(spec); i > 0 {
		return spec[:i], spec[i+1:]
	}
	base := filepath.Base(spec)
	return strings.TrimSuffix(base, filepath.Ext(base)), spec
}

// predNameEnd is the index of the '=' ending NAME in NAME=FILE; -1 when there is none.
func predNameEnd(spec string) int {
	if i := strings.IndexByte(spec, '='); i > 0 && !strings.ContainsAny(spec[:i], `/\`) {
		return i
	}
	return -1
}

// AbsPredSpec is a --pred [NAME=]FILE with its file made absolute, as args.json keeps it.
func AbsPredSpec(spec string) string {
	if i := predNameEnd(spec); i > 0 {
		return spec[:i+1] + absPath(spec[i+1:])
	}
	return absPath(spec)
}
