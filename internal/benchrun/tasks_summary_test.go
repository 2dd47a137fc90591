package benchrun

import (
	"fmt"
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

// TestTaskSummaryRates: every row carries its correct rate with Wilson's interval, per
// phase and per category, over the judged turns only.
func TestTaskSummaryRates(t *testing.T) {
	recs := []record.Record{
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", FollowUp: &record.FollowUp{Verdict: record.Correct, Category: "Query"}}},
		{Verdict: record.Incorrect, Task: record.Task{TaskCategory: "Query"}},
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Management"}},
		{Verdict: record.Skipped, Task: record.Task{TaskCategory: "Management", TaskNotJudged: "needs --task-code python"}},
	}
	got := taskSummaries([]SystemRecords{{Name: "s", Records: recs}})
	want := map[string]string{"1/": "66.67 [20.77, 93.85]", "1/Query": "50.00 [9.45, 90.55]", "1/Management": "100.00 [20.65, 100.00]", "2/Query": "100.00 [20.65, 100.00]"}
	seen := 0
	for _, r := range got[0].Rows {
		key := fmt.Sprintf("%d/%s", r.Phase, r.Category)
		w, ok := want[key]
		if !ok || r.Difficulty != "" {
			continue
		}
		seen++
		if r.Rate == nil || r.Rate.Text+" "+r.Rate.CIText != w {
			t.Errorf("phase/category %s: rate %+v, want %s", key, r.Rate, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d rows checked, want %d: %+v", seen, len(want), got[0].Rows)
	}
}
