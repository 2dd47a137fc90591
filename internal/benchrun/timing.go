package benchrun

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
)

// timeCorrect is the timing phase of VES and R-VES. It runs after judging, alone, one
// query at a time, over every system's correct predictions (BIRD's rows-as-sets
// verdict, ex_bird); it fills the records' timing fields and hands each system's records
// to sink.Rewrite (the cli replaces records.jsonl atomically, so an interrupted phase
// leaves the judged records intact and a rerun with --resume times again from the start).
// A phase over budget returns an error matching judge.ErrTimingBudget.
func timeCorrect(ctx context.Context, cfg Config, mode judge.TimingMode, ds *dataset.Dataset, systems []SystemResult, sink Sink, obs Observer) error {
	type ref struct{ sys, rec int }
	var items []judge.TimingItem
	var refs []ref
	for si, s := range systems {
		for ri := range s.Records {
			r := &s.Records[ri]
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
	prog := obs.Phase(Phase{Name: PhaseTiming, Items: len(items), Mode: mode, Iterations: cfg.VESIterations})
	res, err := judge.TimeItems(ctx, items, judge.TimingOptions{
		Mode: mode, Iterations: cfg.VESIterations, Timeout: cfg.Timeout, MaxRows: cfg.MaxRows,
		Budget: cfg.VESBudget, ItemBudget: cfg.VESItemBudget, Progress: prog.Update,
	})
	prog.Finish()
	if err != nil {
		if errors.Is(err, judge.ErrTimingBudget) {
			var be *judge.BudgetError
			if errors.As(err, &be) && be.Item >= 0 && be.Item < len(refs) {
				s := systems[refs[be.Item].sys]
				r := &s.Records[refs[be.Item].rec]
				err = fmt.Errorf("%w (system %s, question %s)", err, s.Name, r.QuestionID)
			}
			return err
		}
		return fmt.Errorf("timing phase: %w", err)
	}
	// Every judged record gets the fields (0 for predictions that are not correct), so
	// the scores average over all judged questions as BIRD's do.
	zero := func() *float64 { z := 0.0; return &z }
	for _, s := range systems {
		for ri := range s.Records {
			r := &s.Records[ri]
			if r.Judged() {
				r.Timing, r.VES, r.RVESReward = string(mode), zero(), zero()
			}
		}
	}
	failed := 0
	for i, tr := range res {
		r := &systems[refs[i].sys].Records[refs[i].rec]
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
		obs.Warn(fmt.Sprintf("%d correct predictions failed while being timed; their VES and R-VES rewards are 0, as in BIRD's scripts", failed))
	}
	for si, s := range systems {
		if err := sink.Rewrite(si, s.Records); err != nil {
			return err
		}
	}
	return nil
}
