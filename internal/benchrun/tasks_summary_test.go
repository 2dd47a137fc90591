package benchrun

import (
	"reflect"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestTaskSummaryCorrections: corrected mode's counts, per correction (both phases) and
// each way the verdict changed from the official one.
func TestTaskSummaryCorrections(t *testing.T) {
	recs := []record.Record{
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskOfficialVerdict: record.Incorrect, TaskCorrections: []string{"empty_result"},
			FollowUp: &record.FollowUp{Verdict: record.Incorrect, Category: "Query", OfficialVerdict: record.Correct, Corrections: []string{"distinct_kept", "decimal"}}}},
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskCorrections: []string{"decimal", "clean_up_sqls"}}},
		{Verdict: record.Incorrect, Task: record.Task{TaskCategory: "Query"}},
	}
	got := taskSummaries([]SystemRecords{{Name: "s", Records: recs}})
	if len(got) != 1 {
		t.Fatalf("%d summaries", len(got))
	}
	want := []rundir.TaskCorrection{{Name: "clean_up_sqls", Applied: 1}, {Name: "decimal", Applied: 2, Changed: 1}, {Name: "distinct_kept", Applied: 1, Changed: 1}, {Name: "empty_result", Applied: 1, Changed: 1}}
	if s := got[0]; !reflect.DeepEqual(s.Corrections, want) || s.ChangedToCorrect != 1 || s.ChangedToIncorrect != 1 {
		t.Errorf("corrections %+v, changed +%d -%d; want %+v, +1 -1", s.Corrections, s.ChangedToCorrect, s.ChangedToIncorrect, want)
	}
}
