package benchrun

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestSkipsOf: summary.json's skips section counts each skipped record under its own
// reason: a task turn's task_not_judged (and calls them "not judged"), a Spider 2.0
// task's message, otherwise a missing database.
func TestSkipsOf(t *testing.T) {
	notJudged := func(why string) record.Record {
		return record.Record{Verdict: record.Skipped, Task: record.Task{TaskNotJudged: why}}
	}
	tests := []struct {
		name string
		recs []record.Record
		want *rundir.Skips
	}{
		{"nothing skipped", []record.Record{{Verdict: record.Correct}}, nil},
		{"sql run", []record.Record{{Verdict: record.Skipped, ErrorMessage: "database file not found: /x/y.sqlite"}, {Verdict: record.Correct}},
			&rundir.Skips{Term: "skipped", Reasons: []rundir.SkipReason{{Reason: "database missing", Count: 1}}}},
		{"tasks", []record.Record{notJudged(record.NotJudgedTaskCode), {Verdict: record.Correct}, notJudged("no golden_sql for sqlite"), notJudged(record.NotJudgedTaskCode)},
			&rundir.Skips{Term: "not judged", Reasons: []rundir.SkipReason{{Reason: record.NotJudgedTaskCode, Count: 2}, {Reason: "no golden_sql for sqlite", Count: 1}}}},
		{"spider2", []record.Record{{Verdict: record.Skipped, ErrorMessage: "needs BigQuery", Spider2Match: record.Spider2Match{Spider2Mode: "official"}}},
			&rundir.Skips{Term: "skipped", Reasons: []rundir.SkipReason{{Reason: "needs BigQuery", Count: 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, skipsOf(tt.recs)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := (&rundir.Skips{Reasons: []rundir.SkipReason{{Reason: "a", Count: 2}, {Reason: "b", Count: 1}}}).Why(); got != "a 2, b 1" {
		t.Errorf("Why of two reasons: %q", got)
	}
}
