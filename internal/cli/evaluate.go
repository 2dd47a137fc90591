package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// evalConfig is everything eval (and demo) needs to judge a run.
type evalConfig struct {
	DatasetSpec  string
	DBRoot       string
	Tables       string
	Preds        []string // [NAME=]FILE
	Out          string
	Timeout      time.Duration
	Workers      int
	MaxRows      int
	Semantics    string
	JSON         bool
	Resume       bool
	AllowMissing bool
	// Efficiency timing (VES, R-VES): off unless VES is set; see timeCorrect.
	VES           bool
	Timing        string // official or robust
	VESIterations int
	VESBudget     time.Duration // whole timing phase
	VESItemBudget time.Duration // one prediction: iterations x (gold + prediction)

	ESMValues, ESMDistinct bool // stricter exact set match variants (match.Options); off = official
	ETMVerbose             bool // keep etm_rules on every record, not only on ETM matches

	Engines engineOpts // where predictions and gold SQL run (engines.go); zero: SQLite files
	DBIDs   []string   // judge only the questions on these databases (--db-id); nil: all
	Flex    bool       // add the NL2SQL++ flexible comparison (always on for --engine sqlpp)
	Quiet   bool       // write the run directory but print no table or JSON (collect's two-pass evals)

	PassK   passKFlag   // module metrics: --pass-k (adapt.go)
	Pricing pricingFlag // module metrics: --pricing FILE (adapt.go)
}

// systemRun is one system being judged: its predictions, its records file, its records.
type systemRun struct {
	name    string
	file    string
	preds   []*predict.Prediction
	records []record.Record
	out     *os.File
	w       *record.Writer
}

// evaluate judges the predictions of cfg and writes the run directory. It returns the
// run's summary.
func evaluate(ctx context.Context, e *env, cfg evalConfig) (*report.RunSummary, error) {
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot, Tables: cfg.Tables})
	if err != nil {
		return nil, err
	}
	for _, w := range ds.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	sem, err := semanticsFor(cfg.Semantics, ds.Kind)
	if err != nil {
		return nil, err
	}
	systems, err := readSystems(ds, cfg)
	if err != nil {
		return nil, err
	}
	if err := keepDBs(ds, systems, cfg.DBIDs); err != nil {
		return nil, err
	}
	out := cfg.Out
	if out == "" {
		out = filepath.Join("runs", ds.Kind+"-"+time.Now().Format("20060102-150405"))
	}
	if err := openRecords(out, systems, cfg.Resume, len(ds.Questions)); err != nil {
		return nil, err
	}
	defer func() {
		for _, s := range systems {
			s.out.Close()
		}
	}()

	sqlite := engine.NewSQLite()
	sqlite.MaxConnsPerDB = max(cfg.Workers, 1)
	defer sqlite.Close()
	var eng engine.Engine = sqlite
	var locate judge.Locator
	var gold *judge.Target
	if cfg.Engines.server() {
		if eng, locate, gold, err = cfg.Engines.openServer(cfg.Workers, sqlite); err != nil {
			return nil, err
		}
		defer eng.Close()
		if err := cfg.Engines.pingServer(ctx, eng, ds); err != nil {
			return nil, err
		}
	}
	js := make([]judge.System, len(systems))
	for i, s := range systems {
		js[i] = judge.System{Name: s.name, Preds: s.preds, From: len(s.records)}
	}
	anns, err := annotators(ctx, cfg, ds)
	if err != nil {
		return nil, err
	}
	defer closeAnnotators(anns)
	prog := newProgress(e.stderr)
	opt := judge.Options{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows, Workers: cfg.Workers, Semantics: sem, Progress: prog.update, Annotators: anns,
		Locate: locate, Gold: gold, Flex: cfg.Flex || cfg.Engines.Engine == engineSQLPP}
	t0 := time.Now()
	err = judge.Run(ctx, eng, ds, js, opt, func(i int, r *record.Record) error {
		s := systems[i]
		s.records = append(s.records, *r)
		return s.w.Write(r)
	})
	prog.finish()
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: records so far are kept in %s; rerun with --resume --out %s to continue", ctx.Err(), out, out)
		}
		return nil, err
	}
	if cfg.VES {
		if err := timeCorrect(ctx, e, cfg, ds, systems, out); err != nil {
			return nil, err
		}
	}
	elapsed := time.Since(t0)

	sum := &report.RunSummary{
		Tool:      "nl2sqlbench",
		CreatedAt: time.Now().UTC().Truncate(time.Second),
		Dataset:   report.DatasetInfo{Kind: ds.Kind, Path: ds.Path, DBRoot: ds.DBRoot, Questions: len(ds.Questions)},
		Settings: report.Settings{Semantics: string(sem), TimeoutS: cfg.Timeout.Seconds(), MaxRows: cfg.MaxRows, Workers: cfg.Workers,
			Engine: cfg.Engines.Engine, GoldEngine: cfg.Engines.goldName(), DBIDs: cfg.DBIDs},
		Warnings: append([]string(nil), ds.Warnings...),
	}
	for _, s := range systems {
		ms := metrics.Summarize(s.name, s.records)
		sum.Systems = append(sum.Systems, ms)
		sum.ExecEfficiency = append(sum.ExecEfficiency, metrics.SummarizeExecEfficiency(s.name, s.records))
		if err := writeJSONFile(filepath.Join(out, s.file, "statistics.json"), metrics.NewStatistics(s.records)); err != nil {
			return nil, err
		}
	}
	all := make([]systemRecords, len(systems))
	for i, s := range systems {
		all[i] = systemRecords{Name: s.name, Records: s.records}
	}
	if err := extendSummary(ctx, cfg, ds, sum, all); err != nil {
		return nil, err
	}
	sum.Warnings = append(sum.Warnings, runWarnings(sum.Systems[0].Overall.Counts, ds)...)
	for _, w := range sum.Warnings[len(ds.Warnings):] {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if err := writeJSONFile(filepath.Join(out, "summary.json"), sum); err != nil {
		return nil, err
	}
	if cfg.Quiet {
		return sum, nil
	}
	if cfg.JSON {
		return sum, report.WriteJSON(e.stdout, sum)
	}
	if err := report.WriteTable(e.stdout, sum); err != nil {
		return nil, err
	}
	_, err = fmt.Fprintf(e.stdout, "\njudged %d questions x %d systems in %.2fs; run directory: %s\n",
		len(ds.Questions), len(systems), elapsed.Seconds(), out)
	return sum, err
}

// runWarnings says which questions were left out of the rates and why.
func runWarnings(c metrics.Counts, ds *dataset.Dataset) []string {
	var ws []string
	if c.Skipped > 0 {
		ws = append(ws, fmt.Sprintf("%d questions skipped (database missing under %s); they are excluded from rates", c.Skipped, ds.DBRoot))
	}
	if c.GoldError > 0 {
		ws = append(ws, fmt.Sprintf("%d questions have gold SQL that failed to run (verdict gold_error); they are excluded from rates", c.GoldError))
	}
	return ws
}

func semanticsFor(flag, kind string) (judge.Semantics, error) {
	switch flag {
	case "":
		if kind == "spider" {
			return judge.Spider, nil
		}
		return judge.Bird, nil
	case "bird":
		return judge.Bird, nil
	case "spider":
		return judge.Spider, nil
	}
	return "", usagef("--semantics must be bird or spider, not %q", flag)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// readSystems reads and pairs every --pred file.
func readSystems(ds *dataset.Dataset, cfg evalConfig) ([]*systemRun, error) {
	refs := make([]predict.QuestionRef, len(ds.Questions))
	for i, q := range ds.Questions {
		refs[i] = predict.QuestionRef{Index: q.Index, ID: q.ID, DBID: q.DBID, Text: q.Text}
	}
	// Names are checked before any file is read, so a naming mistake is reported as such.
	seen := map[string]string{}
	var out []*systemRun
	var paths []string
	for _, spec := range cfg.Preds {
		name, path := splitPredSpec(spec)
		if path == "" {
			return nil, usagef("--pred %q: no file given", spec)
		}
		file := unsafeName.ReplaceAllString(name, "_")
		if file == "" || file == "." || file == ".." {
			return nil, usagef("--pred %q: %q cannot name a system directory", spec, name)
		}
		if prev, dup := seen[file]; dup {
			return nil, usagef("--pred %q: system name %q is already used by --pred %q; name them NAME=FILE", spec, name, prev)
		}
		seen[file] = spec
		out = append(out, &systemRun{name: name, file: file})
		paths = append(paths, path)
	}
	for i, s := range out {
		set, err := predict.Read(paths[i])
		if err != nil {
			return nil, err
		}
		s.preds, err = predict.Pair(set, refs, predict.PairOptions{AllowMissing: cfg.AllowMissing})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// keepDBs narrows the dataset, and every system's paired predictions with it, to the
// questions on the databases ids names. Predictions are paired against the whole dataset
// first, so a prediction file for the whole benchmark is used as it is, and records keep
// their question's index in the whole dataset.
func keepDBs(ds *dataset.Dataset, systems []*systemRun, ids []string) error {
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
			return usagef("--db-id %q: no question of %s is on that database", id, ds.Path)
		}
	}
	for _, s := range systems {
		var ps []*predict.Prediction
		for i, p := range s.preds {
			if keep[i] {
				ps = append(ps, p)
			}
		}
		s.preds = ps
	}
	ds.Questions = qs
	return nil
}

// splitPredSpec splits NAME=FILE; without a NAME the file's base name minus its
// extension names the system.
func splitPredSpec(spec string) (name, path string) {
	if i := strings.IndexByte(spec, '='); i > 0 && !strings.ContainsAny(spec[:i], `/\`) {
		return spec[:i], spec[i+1:]
	}
	base := filepath.Base(spec)
	return strings.TrimSuffix(base, filepath.Ext(base)), spec
}

// openRecords creates DIR/<system>/records.jsonl for every system. With resume, the
// complete records already there are kept (a torn last line is cut off) and judging
// continues after them.
func openRecords(out string, systems []*systemRun, resume bool, n int) error {
	for _, s := range systems {
		dir := filepath.Join(out, s.file)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create run directory: %w", err)
		}
		path := filepath.Join(dir, "records.jsonl")
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if resume {
			flags = os.O_CREATE | os.O_RDWR
		}
		f, err := os.OpenFile(path, flags, 0o644)
		if err != nil {
			return fmt.Errorf("open records: %w", err)
		}
		s.out = f
		if resume {
			recs, valid, err := record.ReadJSONL(f)
			if err != nil && !errors.Is(err, record.ErrTornLine) {
				return fmt.Errorf("resume from %s: %w", path, err)
			}
			for i, r := range recs {
				if r.Index != i {
					return fmt.Errorf("resume from %s: line %d holds question %d, expected %d; not a run of this dataset", path, i+1, r.Index, i)
				}
			}
			if len(recs) > n {
				return fmt.Errorf("resume from %s: %d records for a dataset of %d questions", path, len(recs), n)
			}
			if err := f.Truncate(valid); err != nil {
				return fmt.Errorf("resume from %s: %w", path, err)
			}
			if _, err := f.Seek(valid, 0); err != nil {
				return fmt.Errorf("resume from %s: %w", path, err)
			}
			s.records = recs
		}
		s.w = record.NewWriter(f)
	}
	return nil
}

func writeJSONFile(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := report.WriteJSON(f, v); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// timeCorrect is the timing phase of VES and R-VES. It runs after judging, alone, one
// query at a time, over every system's correct predictions (BIRD's rows-as-sets
// verdict, ex_bird); it fills the records' timing fields and rewrites each
// records.jsonl atomically (temp file + rename), so an interrupted phase leaves the
// judged records intact and a rerun with --resume times again from the start.
func timeCorrect(ctx context.Context, e *env, cfg evalConfig, ds *dataset.Dataset, systems []*systemRun, out string) error {
	mode, err := judge.ParseTimingMode(cfg.Timing)
	if err != nil {
		return usagef("--timing: %v", err)
	}
	type ref struct{ sys, rec int }
	var items []judge.TimingItem
	var refs []ref
	for si, s := range systems {
		for ri := range s.records {
			r := &s.records[ri]
			if !r.Judged() || r.ExBird != 1 {
				continue
			}
			path, ok := ds.DBPath(r.DBID)
			if !ok {
				continue
			}
			items = append(items, judge.TimingItem{DB: path, Pred: r.PredSQL, Gold: r.GoldSQL})
			refs = append(refs, ref{si, ri})
		}
	}
	fmt.Fprintf(e.stderr, "timing %d correct predictions (%s, %d iterations)\n", len(items), mode, cfg.VESIterations)
	prog := newProgress(e.stderr)
	res, err := judge.TimeItems(ctx, items, judge.TimingOptions{
		Mode: mode, Iterations: cfg.VESIterations, Timeout: cfg.Timeout, MaxRows: cfg.MaxRows,
		Budget: cfg.VESBudget, ItemBudget: cfg.VESItemBudget, Progress: prog.update,
	})
	prog.finish()
	if err != nil {
		if errors.Is(err, judge.ErrTimingBudget) {
			var be *judge.BudgetError
			if errors.As(err, &be) && be.Item >= 0 && be.Item < len(refs) {
				s := systems[refs[be.Item].sys]
				r := &s.records[refs[be.Item].rec]
				err = fmt.Errorf("%w (system %s, question %s)", err, s.name, r.QuestionID)
			}
			return fmt.Errorf("%w; the judged records are complete in %s (without timing)", err, out)
		}
		return fmt.Errorf("timing phase: %w", err)
	}
	// Every judged record gets the fields (0 for predictions that are not correct), so
	// the scores average over all judged questions as BIRD's do.
	zero := func() *float64 { z := 0.0; return &z }
	for _, s := range systems {
		for ri := range s.records {
			r := &s.records[ri]
			if r.Judged() {
				r.Timing, r.VES, r.RVESReward = string(mode), zero(), zero()
			}
		}
	}
	failed := 0
	for i, tr := range res {
		r := &systems[refs[i].sys].records[refs[i].rec]
		if tr.Err != nil {
			failed++
		}
		ves, rves := judge.VESReward(tr.Ratio), judge.RVESReward(tr.Ratio)
		ratio, spread := tr.Ratio, tr.Spread
		r.VES, r.RVESReward, r.TimeRatio, r.TimeRatioSpread = &ves, &rves, &ratio, &spread
		r.TimingIterations = tr.Iterations
		if !tr.Identical && tr.Err == nil {
			g, p := float64(tr.GoldTime.Microseconds())/1000, float64(tr.PredTime.Microseconds())/1000
			r.GoldMillis, r.PredMillis = &g, &p
		}
	}
	if failed > 0 {
		fmt.Fprintf(e.stderr, "warning: %d correct predictions failed while being timed; their VES and R-VES rewards are 0, as in BIRD's scripts\n", failed)
	}
	for _, s := range systems {
		if err := rewriteRecords(filepath.Join(out, s.file, "records.jsonl"), s.records); err != nil {
			return err
		}
	}
	return nil
}

// rewriteRecords replaces a records file with recs, atomically.
func rewriteRecords(path string, recs []record.Record) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("rewrite records: %w", err)
	}
	w := record.NewWriter(f)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			f.Close()
			os.Remove(tmp)
			return fmt.Errorf("rewrite records %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rewrite records %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rewrite records: %w", err)
	}
	return nil
}
