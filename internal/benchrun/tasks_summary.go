package benchrun

import (
	"slices"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/livesql"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// taskSummaries is summary.json's tasks section: per system, each phase's turns per
// category and difficulty (judged, correct, not judged, not reached, the correct rate
// with its Wilson interval) and the mean reward. nil when no record is a task's (other datasets).
func taskSummaries(systems []SystemRecords) []rundir.TaskSummary {
	var out []rundir.TaskSummary
	for _, s := range systems {
		if !hasTasks(s.Records) {
			continue
		}
		ts := rundir.TaskSummary{System: s.Name}
		rows := map[rundir.TaskRow]*rundir.TaskRow{}
		var order []rundir.TaskRow
		count := func(phase int, cat, diff string, v record.Verdict, notJudged string) {
			for _, k := range []rundir.TaskRow{{Phase: phase}, {Phase: phase, Category: cat}, {Phase: phase, Difficulty: diff}} {
				row, ok := rows[k]
				if !ok {
					row = &rundir.TaskRow{Phase: k.Phase, Category: k.Category, Difficulty: k.Difficulty}
					rows[k] = row
					order = append(order, k)
				}
				row.Tasks++
				switch {
				case v == record.Skipped && strings.HasPrefix(notJudged, "not reached"):
					row.NotReached++
				case v == record.Skipped:
					row.NotJudged++
				case v == record.GoldError:
					row.NotJudged++ // the gold failed: not the prediction's fault
				default:
					row.Judged++
					if v == record.Correct {
						row.Correct++
					}
				}
			}
		}
		var sum float64
		// BIRD-Interact's reward is a two-phase task's (livesql:); EvalBench's single
		// turns have none, and no task is counted without one.
		phases := slices.ContainsFunc(s.Records, func(r record.Record) bool { return r.FollowUp != nil || r.TaskReward != nil })
		corr := map[string]*rundir.TaskCorrection{}
		var corrOrder []string
		// A changed verdict is credited to the corrections that made the difference
		// (changedBy: each that alone did, or all that applied when only together they
		// did; livesql.Verdict.ChangedBy); Jointly counts the changes a correction shares
		// with others. A record written before changedBy existed credits every correction
		// that applied but clean_up_sqls, which never changes a verdict.
		correction := func(v, official record.Verdict, applied, changedBy []string) {
			if official != "" {
				if v == record.Correct {
					ts.ChangedToCorrect++
				} else {
					ts.ChangedToIncorrect++
				}
				if changedBy == nil {
					for _, a := range applied {
						if a != string(livesql.CorrCleanUp) {
							changedBy = append(changedBy, a)
						}
					}
				}
			}
			for _, a := range applied {
				c, ok := corr[a]
				if !ok {
					c = &rundir.TaskCorrection{Name: a}
					corr[a] = c
					corrOrder = append(corrOrder, a)
				}
				c.Applied++
				if official != "" && slices.Contains(changedBy, a) {
					c.Changed++
					if len(changedBy) > 1 {
						c.Jointly++
					}
				}
			}
		}
		for i := range s.Records {
			r := &s.Records[i]
			count(1, r.TaskCategory, orUnknown(r.Difficulty), r.Verdict, r.TaskNotJudged) // "" would be counted in the total twice
			correction(r.Verdict, r.TaskOfficialVerdict, r.TaskCorrections, r.TaskChangedBy)
			if f := r.FollowUp; f != nil {
				count(2, f.Category, orUnknown(f.Difficulty), f.Verdict, f.NotJudged)
				correction(f.Verdict, f.OfficialVerdict, f.Corrections, f.ChangedBy)
			}
			if r.TaskReward != nil {
				sum += *r.TaskReward
				ts.RewardN++
			} else if phases {
				ts.RewardNotJudged++
			}
		}
		slices.Sort(corrOrder)
		for _, a := range corrOrder {
			ts.Corrections = append(ts.Corrections, *corr[a])
		}
		if ts.RewardN > 0 {
			mean := sum / float64(ts.RewardN)
			ts.Reward = &mean
		}
		// Phase 1 first, then phase 2; in each the total, then categories, then
		// difficulties, each in the order first met.
		for _, phase := range []int{1, 2} {
			for _, pass := range []func(rundir.TaskRow) bool{
				func(k rundir.TaskRow) bool { return k.Category == "" && k.Difficulty == "" },
				func(k rundir.TaskRow) bool { return k.Category != "" },
				func(k rundir.TaskRow) bool { return k.Difficulty != "" },
			} {
				for _, k := range order {
					if k.Phase == phase && pass(k) {
						row := rows[k]
						rate := metrics.RateValue(metrics.PrimaryID, row.Correct, row.Judged)
						row.Rate = &rate
						ts.Rows = append(ts.Rows, *row)
					}
				}
			}
		}
		out = append(out, ts)
	}
	return out
}

func hasTasks(recs []record.Record) bool {
	for i := range recs {
		if recs[i].TaskCategory != "" || recs[i].TaskNotJudged != "" {
			return true
		}
	}
	return false
}
