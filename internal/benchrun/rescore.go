package benchrun

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// RescoreConfig is a judged run and the reviews to apply to it (docs/review.md).
type RescoreConfig struct {
	DatasetSpec, DBRoot string
	Semantics           judge.Semantics
	SpiderMode          judge.SpiderMode // the run's --spider-mode ("": official)
	Timeout             time.Duration
	MaxRows             int
	Systems             []SystemRecords
	Reviews             []review.Review
	// Dataset, when set, is the questions and database root to judge corrected golds
	// with, instead of loading DatasetSpec under DBRoot (the dashboard's, from records).
	Dataset *dataset.Dataset
}

// Rescored is one system's raw and reviewed EX, as reviewed.json holds it.
type Rescored = rundir.ReviewedSystem

// Moved is a question whose verdicts the reviews changed.
type Moved = rundir.MovedQuestion

// Rescore applies the reviews: each corrected gold is judged again (the same judge, the
// run's semantics, the SQLite files) against every system's prediction of that question,
// then each system's accept / reject decisions. EX is aggregated by the registry, raw and
// reviewed, with their intervals.
func Rescore(ctx context.Context, cfg RescoreConfig) ([]Rescored, []Moved, error) {
	regold, goldErrs, err := regold(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	var ex []metrics.Metric
	for _, m := range metrics.Declared(metrics.Options{}) {
		if m.ID == "ex" {
			ex = append(ex, m)
		}
	}
	var out []Rescored
	var reviewed [][]record.Record
	moved := map[int]*Moved{}
	for _, s := range cfg.Systems {
		recs, changed := review.Apply(s.Name, s.Records, cfg.Reviews, regold[s.Name])
		for i := range recs {
			if recs[i].Verdict == s.Records[i].Verdict {
				continue
			}
			m := moved[recs[i].Index]
			if m == nil {
				m = &Moved{Index: recs[i].Index, QuestionID: recs[i].QuestionID}
				moved[recs[i].Index] = m
			}
		}
		raw := metrics.Aggregate(ex, []metrics.SystemRecords{{Name: s.Name, Records: s.Records}})
		rev := metrics.Aggregate(ex, []metrics.SystemRecords{{Name: s.Name, Records: recs}})
		r := Rescored{System: s.Name, Changed: changed}
		if len(raw.Systems[0].Values) > 0 {
			r.Raw = raw.Systems[0].Values[0]
		}
		if len(rev.Systems[0].Values) > 0 {
			r.Reviewed = rev.Systems[0].Values[0]
		}
		if r.Changed == nil {
			r.Changed = []int{}
		}
		if len(ex) > 0 {
			if t, ok := metrics.ComparePaired(&ex[0], s.Name, s.Records, s.Name, recs); ok {
				r.Paired = &t
			}
		}
		out = append(out, r)
		reviewed = append(reviewed, recs)
	}
	rank(out, func(r *Rescored) *metrics.Value { return &r.Raw }, func(r *Rescored, k int) { r.RankRaw = k })
	rank(out, func(r *Rescored) *metrics.Value { return &r.Reviewed }, func(r *Rescored, k int) { r.RankReviewed = k })
	fixes := review.Corrections(cfg.Reviews)
	var mv []Moved
	for si, s := range cfg.Systems {
		for i := range s.Records {
			if m := moved[s.Records[i].Index]; m != nil {
				if s.Records[i].Verdict == record.Correct {
					m.Before++
				}
				if reviewed[si][i].Verdict == record.Correct {
					m.After++
				}
			}
		}
	}
	for _, m := range moved {
		_, m.GoldFixed = fixes[m.Index]
		m.GoldError = goldErrs[m.Index]
		mv = append(mv, *m)
	}
	sort.Slice(mv, func(i, j int) bool { return mv[i].Index < mv[j].Index })
	return out, mv, nil
}

// rank places systems by a value, best first; equal values share the higher place and
// a system without a value has no place (0).
func rank(rs []Rescored, val func(*Rescored) *metrics.Value, set func(*Rescored, int)) {
	for i := range rs {
		v := val(&rs[i]).Value
		if v == nil {
			continue
		}
		k := 1
		for j := range rs {
			if w := val(&rs[j]).Value; w != nil && *w > *v {
				k++
			}
		}
		set(&rs[i], k)
	}
}

// regold judges every system's prediction of each corrected question again, against the
// corrected gold: verdicts by system and question index, and why a corrected gold failed
// to run, by question index (its question is then excluded, never called corrected).
func regold(ctx context.Context, cfg RescoreConfig) (map[string]map[int]record.Verdict, map[int]string, error) {
	fixes := review.Corrections(cfg.Reviews)
	out := map[string]map[int]record.Verdict{}
	failed := map[int]string{}
	if len(fixes) == 0 {
		return out, failed, nil
	}
	ds := cfg.Dataset
	if ds == nil {
		var err error
		if ds, err = dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot}); err != nil {
			return nil, nil, err
		}
	}
	byIndex := make(map[int]dataset.Question, len(ds.Questions))
	for _, q := range ds.Questions {
		byIndex[q.Index] = q
	}
	var idx []int
	for i := range fixes {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	one := *ds
	one.Questions = nil
	for _, i := range idx {
		q, ok := byIndex[i]
		if !ok {
			return nil, nil, fmt.Errorf("review of question index %d: the dataset has %d questions", i, len(ds.Questions))
		}
		q.Gold = []string{fixes[i]}
		one.Questions = append(one.Questions, q)
	}
	systems := make([]judge.System, len(cfg.Systems))
	for si, s := range cfg.Systems {
		by := map[int]*record.Record{}
		for j := range s.Records {
			by[s.Records[j].Index] = &s.Records[j]
		}
		systems[si] = judge.System{Name: s.Name, Preds: make([]*predict.Prediction, len(one.Questions))}
		for qi, q := range one.Questions {
			if r := by[q.Index]; r != nil {
				systems[si].Preds[qi] = &predict.Prediction{SQL: r.PredSQL}
			}
		}
		out[s.Name] = map[int]record.Verdict{}
	}
	eng := engine.NewSQLite()
	defer eng.Close()
	opt := judge.Options{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows, Semantics: cfg.Semantics, SpiderMode: cfg.SpiderMode, Workers: 1}
	err := judge.Run(ctx, eng, &one, systems, opt, func(si int, r *record.Record) error {
		out[cfg.Systems[si].Name][r.Index] = r.Verdict
		// A gold that failed, or whose database is not there (or leads out of the
		// dashboard's root), leaves its question unjudged: never called corrected.
		if r.Verdict == record.GoldError || r.Verdict == record.Skipped {
			failed[r.Index] = r.ErrorMessage
		}
		return nil
	})
	return out, failed, err
}
