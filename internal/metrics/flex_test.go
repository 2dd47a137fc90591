package metrics

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestSummarizeFlex(t *testing.T) {
	rec := func(diff string, v record.Verdict, fv string) record.Record {
		return record.Record{Difficulty: diff, Verdict: v, FlexMatch: record.FlexMatch{FlexVerdict: fv}}
	}
	recs := []record.Record{
		rec("simple", record.Correct, "exact"),
		rec("simple", record.Incorrect, "column_flexible"),
		rec("moderate", record.Error, "failure"),
		rec("moderate", record.Incorrect, "failure"),
		rec("moderate", record.GoldError, ""),  // not judged
		rec("challenging", record.Skipped, ""), // not judged
	}
	s, ok := SummarizeFlex(SystemRecords{Name: "sys", Records: recs})
	if !ok {
		t.Fatal("flex verdicts present but summary says none")
	}
	o := s.Overall
	if o.Compared != 4 || o.Exact != 1 || o.ColumnFlexible != 1 || o.Failure != 2 || o.Accuracy != 0.5 {
		t.Errorf("overall %+v, want 4 compared, 1 exact, 1 column_flexible, 2 failures, accuracy 0.5", o)
	}
	if len(s.ByDifficulty) != 3 || s.ByDifficulty[0].Name != "simple" || s.ByDifficulty[0].Accuracy != 1 || s.ByDifficulty[1].Accuracy != 0 {
		t.Errorf("by difficulty %+v", s.ByDifficulty)
	}
	if _, ok := SummarizeFlex(SystemRecords{Name: "none", Records: []record.Record{rec("simple", record.Correct, "")}}); ok {
		t.Error("no flex verdicts: want ok=false")
	}
}
