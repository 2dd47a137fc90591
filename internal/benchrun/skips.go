package benchrun

import (
	"cmp"
	"slices"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// reasonMissingDB is why a question of a SQL benchmark is skipped: its database is not
// under the dataset's root (the record's message names the path tried).
const reasonMissingDB = "database missing"

// skipsOf is summary.json's skips section from one system's records: each record with
// verdict skipped counted under its reason (a task's task_not_judged, a Spider 2.0
// task's message, otherwise a missing database). Tasks on a database copy call them
// "not judged": they wait for something the run was not asked to do, and are never
// wrong. nil when no record was skipped.
func skipsOf(recs []record.Record) *rundir.Skips {
	counts := map[string]int{}
	term := rundir.SkipTermSkipped
	for i := range recs {
		r := &recs[i]
		if r.Verdict != record.Skipped {
			continue
		}
		switch {
		case r.TaskNotJudged != "":
			term = rundir.SkipTermNotJudged
			counts[r.TaskNotJudged]++
		case r.Spider2Mode != "" && r.ErrorMessage != "":
			counts[r.ErrorMessage]++
		default:
			counts[reasonMissingDB]++
		}
	}
	if len(counts) == 0 {
		return nil
	}
	s := &rundir.Skips{Term: term}
	for reason, n := range counts {
		s.Reasons = append(s.Reasons, rundir.SkipReason{Reason: reason, Count: n})
	}
	slices.SortFunc(s.Reasons, func(a, b rundir.SkipReason) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	return s
}
