package match

import (
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func etmRec(index int, diff string, v record.Verdict, etm *int, rules ...string) record.Record {
	r := record.Record{Index: index, Difficulty: diff, Verdict: v}
	r.ETM = etm
	r.ETMRules = rules
	return r
}

func TestSummarizeETM(t *testing.T) {
	one, zero := 1, 0
	recs := []record.Record{
		etmRec(0, "easy", record.Correct, &one, "P0", "6"),
		etmRec(1, "easy", record.Correct, &zero),         // EX yes, ETM no
		etmRec(2, "hard", record.Incorrect, &one, "P0"),  // ETM yes, EX no
		etmRec(3, "hard", record.Error, nil),             // ETM missing
		etmRec(4, "hard", record.Skipped, &one, "P0"),    // not judged: ignored
		etmRec(5, "hard", record.Incorrect, &zero, "P3"), // both no
	}
	s := SummarizeETM([]metrics.SystemRecords{{Name: "sys", Records: recs}})
	if s == nil || len(s.Systems) != 1 {
		t.Fatalf("summary = %+v", s)
	}
	got := s.Systems[0]
	o := got.Overall
	if o.Judged != 5 || o.ETM != 2 || o.Missing != 1 || o.EXOnly != 1 || o.ETMOnly != 1 {
		t.Errorf("overall = %+v", o)
	}
	if o.Rate != 0.4 {
		t.Errorf("rate = %v, want 0.4", o.Rate)
	}
	if !slices.Equal(got.EXOnly, []int{1}) || !slices.Equal(got.ETMOnly, []int{2}) {
		t.Errorf("lists = %v / %v, want [1] / [2]", got.EXOnly, got.ETMOnly)
	}
	if len(got.ByDifficulty) != 2 || got.ByDifficulty[0].Name != "easy" || got.ByDifficulty[1].Judged != 3 {
		t.Errorf("by difficulty = %+v", got.ByDifficulty)
	}
	if got.RuleCounts["P0"] != 2 || got.RuleCounts["6"] != 1 || got.RuleCounts["P3"] != 1 {
		t.Errorf("rule counts = %v", got.RuleCounts)
	}
	if SummarizeETM([]metrics.SystemRecords{{Name: "sys", Records: []record.Record{etmRec(0, "", record.Correct, nil)}}}) != nil {
		t.Error("a run without ETM must have no etm section")
	}
}
