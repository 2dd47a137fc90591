package benchrun

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestTaskSummaryCorrections: corrected mode's counts, per correction (both phases) and
// each way the verdict changed from the official one. A change is credited to the
// corrections that made it (task_changed_by), not to every one that applied (the fourth
// record: decimal did it, distinct_kept and clean_up_sqls applied too, and were credited
// before); a record without task_changed_by (written before it) credits every correction
// that applied but clean_up_sqls, several of them jointly.
func TestTaskSummaryCorrections(t *testing.T) {
	recs := []record.Record{
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskOfficialVerdict: record.Incorrect, TaskCorrections: []string{"empty_result"},
			FollowUp: &record.FollowUp{Verdict: record.Incorrect, Category: "Query", OfficialVerdict: record.Correct, Corrections: []string{"distinct_kept", "decimal"}}}},
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskCorrections: []string{"decimal", "clean_up_sqls"}}},
		{Verdict: record.Incorrect, Task: record.Task{TaskCategory: "Query"}},
		{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskOfficialVerdict: record.Incorrect,
			TaskCorrections: []string{"distinct_kept", "decimal", "clean_up_sqls"}, TaskChangedBy: []string{"decimal"}}},
	}
	got := taskSummaries([]SystemRecords{{Name: "s", Records: recs}})
	if len(got) != 1 {
		t.Fatalf("%d summaries", len(got))
	}
	want := []rundir.TaskCorrection{{Name: "clean_up_sqls", Applied: 2}, {Name: "decimal", Applied: 3, Changed: 2, Jointly: 1},
		{Name: "distinct_kept", Applied: 2, Changed: 1, Jointly: 1}, {Name: "empty_result", Applied: 1, Changed: 1}}
	if s := got[0]; !reflect.DeepEqual(s.Corrections, want) || s.ChangedToCorrect != 2 || s.ChangedToIncorrect != 1 {
		t.Errorf("corrections %+v, changed +%d -%d; want %+v, +2 -1", s.Corrections, s.ChangedToCorrect, s.ChangedToIncorrect, want)
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

// TestTaskSummaryNoRewardWithoutPhases: EvalBench's single turns have no reward, and no
// task is counted as lacking one; a livesql task whose turn is not judged is.
func TestTaskSummaryNoRewardWithoutPhases(t *testing.T) {
	eb := []record.Record{{Verdict: record.Correct, Task: record.Task{TaskCategory: "dql"}}, {Verdict: record.Incorrect, Task: record.Task{TaskCategory: "dml"}}}
	if s := taskSummaries([]SystemRecords{{Name: "s", Records: eb}})[0]; s.Reward != nil || s.RewardN != 0 || s.RewardNotJudged != 0 {
		t.Errorf("evalbench: reward %v over %d, %d without", s.Reward, s.RewardN, s.RewardNotJudged)
	}
	r := 0.7
	ls := []record.Record{{Verdict: record.Correct, Task: record.Task{TaskCategory: "Query", TaskReward: &r, FollowUp: &record.FollowUp{Verdict: record.Incorrect}}},
		{Verdict: record.Skipped, Task: record.Task{TaskCategory: "Management", TaskNotJudged: "needs --task-code python", FollowUp: &record.FollowUp{Verdict: record.Skipped}}}}
	if s := taskSummaries([]SystemRecords{{Name: "s", Records: ls}})[0]; s.Reward == nil || s.RewardN != 1 || s.RewardNotJudged != 1 {
		t.Errorf("livesql: reward %v over %d, %d without", s.Reward, s.RewardN, s.RewardNotJudged)
	}
}
