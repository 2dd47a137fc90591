package benchrun

import (
	"context"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
)

// Issue 45, failure 11: a correction whose SQL fails to run printed "gold corrected:
// 2 -> 0" although the question was excluded (gold_error). The moved question says the
// corrected gold failed, and why.
func TestRescoreFailingCorrection(t *testing.T) {
	cfg := budgetDataset(t, "SELECT name FROM t", "SELECT name FROM t", time.Second)
	recs := []record.Record{{Index: 0, QuestionID: "q1", DBID: "d", PredSQL: "SELECT name FROM t", Verdict: record.Correct}}
	rc := RescoreConfig{DatasetSpec: cfg.DatasetSpec, DBRoot: cfg.DBRoot, Semantics: judge.Bird, Timeout: time.Second, MaxRows: 1000,
		Systems: []SystemRecords{{Name: "a", Records: recs}, {Name: "b", Records: recs}},
		Reviews: []review.Review{{Index: 0, Decision: review.GoldWrong, SQL: "SELECT nosuch FROM t"}}}
	_, moved, err := Rescore(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 1 {
		t.Fatalf("moved %+v", moved)
	}
	m := moved[0]
	if m.GoldError == "" || m.Before != 2 || m.After != 0 {
		t.Errorf("moved %+v: want the corrected gold's failure (no such column), 2 right before", m)
	}
	// A correction that runs is a correction, with no failure.
	rc.Reviews[0].SQL = "SELECT id FROM t"
	_, moved, err = Rescore(context.Background(), rc)
	if err != nil || len(moved) != 1 || moved[0].GoldError != "" || !moved[0].GoldFixed {
		t.Errorf("working correction: %v %+v", err, moved)
	}
}
