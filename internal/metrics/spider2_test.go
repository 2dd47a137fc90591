package metrics

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestSpider2Scores: Final averages the judged tasks, Real every task (skipped = 0), each
// per backend too; the spider2 section counts both modes and lists disagreements.
func TestSpider2Scores(t *testing.T) {
	one, zero := 1, 0
	rec := func(id, backend string, v record.Verdict, ex, strict *int) record.Record {
		r := record.Record{QuestionID: id, Difficulty: backend, Verdict: v}
		r.Spider2Mode, r.Spider2Backend = "official", backend
		r.ExSpider2, r.Spider2Official, r.Spider2Strict = ex, ex, strict
		if ex != nil && strict != nil && *ex != *strict {
			r.Spider2Why = "NULL read as 0"
		}
		return r
	}
	recs := []record.Record{
		rec("local001", "sqlite", record.Correct, &one, &zero),
		rec("local002", "sqlite", record.Incorrect, &zero, &zero),
		rec("local003", "sqlite", record.Skipped, nil, nil),
		rec("bq001", "bigquery", record.Skipped, nil, nil),
	}
	sec := Aggregate(Declared(Options{}), []SystemRecords{{Name: "s", Records: recs}})
	for id, want := range map[string]string{"ex_spider2": "50.00", "ex_spider2_real": "25.00"} {
		_, v, ok := sec.Lookup("s", id)
		if !ok || v.Text != want {
			t.Fatalf("%s: %+v, want %s", id, v, want)
		}
		if id == "ex_spider2_real" {
			if v.Denominator != 4 {
				t.Errorf("Real over %d records, want 4", v.Denominator)
			}
			if b := v.In("sqlite"); b == nil || b.Text != "33.33" {
				t.Errorf("Real on sqlite: %+v, want 33.33", b)
			}
			if b := v.In("bigquery"); b == nil || b.Text != "0.00" {
				t.Errorf("Real on bigquery: %+v, want 0.00", b)
			}
		}
	}
	if sec.Has("ex_bird") || sec.Has("ex_spider") {
		t.Error("a Spider 2.0 run reports BIRD/Spider EX, which it never computed")
	}
	s, ok := SummarizeSpider2("s", recs)
	if !ok || s.Judged != 2 || s.Official != 1 || s.Strict != 0 || s.Skipped[""] != 2 || len(s.Disagreements) != 1 || s.Disagreements[0].QuestionID != "local001" {
		t.Errorf("spider2 section: %+v", s)
	}
}
