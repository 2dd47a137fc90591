package run

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
}

// Rescored is one system's raw and reviewed EX, as reviewed.json holds it.
type Rescored = rundir.ReviewedSystem

// Rescore applies the reviews: each corrected gold is judged again (the same judge, the
// run's semantics, the SQLite files) against every system's prediction of that question,
// then each system's accept / reject decisions. EX is aggregated by the registry, raw and
// reviewed, with their intervals.
func Rescore(ctx context.Context, cfg RescoreConfig) ([]Rescored, error) {
	regold, err := regold(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var ex []metrics.Metric
	for _, m := range metrics.Declared(metrics.Options{}) {
		if m.ID == "ex" {
			ex = append(ex, m)
		}
	}
	var out []Rescored
	for _, s := range cfg.Systems {
		recs, changed := review.Apply(s.Name, s.Records, cfg.Reviews, regold[s.Name])
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
		out = append(out, r)
	}
	return out, nil
}

// regold judges every system's prediction of each corrected question again, against the
// corrected gold: verdicts by system and question index.
func regold(ctx context.Context, cfg RescoreConfig) (map[string]map[int]record.Verdict, error) {
	fixes := review.Corrections(cfg.Reviews)
	out := map[string]map[int]record.Verdict{}
	if len(fixes) == 0 {
		return out, nil
	}
	ds, err := dataset.Load(ctx, cfg.DatasetSpec, dataset.Options{DBRoot: cfg.DBRoot})
	if err != nil {
		return nil, err
	}
	var idx []int
	for i := range fixes {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	one := *ds
	one.Questions = nil
	for _, i := range idx {
		if i >= len(ds.Questions) {
			return nil, fmt.Errorf("review of question index %d: the dataset has %d questions", i, len(ds.Questions))
		}
		q := ds.Questions[i]
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
	err = judge.Run(ctx, eng, &one, systems, opt, func(si int, r *record.Record) error {
		out[cfg.Systems[si].Name][r.Index] = r.Verdict
		return nil
	})
	return out, err
}
