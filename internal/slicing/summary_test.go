package slicing

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// exMetric is the registry's ex, the headline the slices score.
func exMetric(t testing.TB) *metrics.Metric {
	t.Helper()
	for _, m := range metrics.Declared(metrics.Options{}) {
		if m.ID == "ex" {
			return &m
		}
	}
	t.Fatal("no ex metric declared")
	return nil
}

func TestSummarize(t *testing.T) {
	ds := &dataset.Dataset{}
	golds := []string{
		"SELECT a FROM t",                             // 0: no join
		"SELECT a FROM t JOIN u ON t.id = u.id",       // 1: one join
		"SELECT a FROM t JOIN u ON t.id = u.id",       // 2: one join
		"SELECT count(*) FROM t WHERE a > (SELECT 1)", // 3: nested, aggregation
		"SELEC broken",                                // 4: does not parse
	}
	for i, g := range golds {
		ds.Questions = append(ds.Questions, dataset.Question{Index: i, DBID: "db", Gold: []string{g}, Difficulty: []string{"easy", "hard"}[i%2]})
	}
	// A is right on 0-3, B only on 0 and 3; B's wrong answer on 1 returned no rows.
	verdicts := map[string][]record.Verdict{
		"A": {record.Correct, record.Correct, record.Correct, record.Correct, record.Incorrect},
		"B": {record.Correct, record.Incorrect, record.Error, record.Correct, record.Correct},
	}
	var systems []metrics.SystemRecords
	for _, name := range []string{"A", "B"} {
		s := metrics.SystemRecords{Name: name}
		for i, v := range verdicts[name] {
			r := record.Record{Index: i, Verdict: v, DBID: "db"}
			if v == record.Incorrect {
				r.Diff = &record.Diff{Kind: record.DiffEmpty}
			}
			s.Records = append(s.Records, r)
		}
		systems = append(systems, s)
	}
	sec := Summarize(exMetric(t), FactsOf(ds), systems)
	if sec.GoldUnparsed != 1 {
		t.Errorf("gold_unparsed %d, want 1", sec.GoldUnparsed)
	}
	byID := map[string]SliceResult{}
	for _, s := range sec.Slices {
		byID[s.ID] = s
	}
	if _, ok := byID["database"]; ok {
		t.Error("a slice with one group (one database) is kept")
	}
	joins := byID["joins"]
	if len(joins.Groups) != 2 || joins.Groups[0].Value != "0" || joins.Groups[1].Value != "1" {
		t.Fatalf("joins groups %+v, want 0 and 1", joins.Groups)
	}
	one := joins.Groups[1]
	if len(one.Questions) != 2 || one.Questions[0] != 1 || one.Questions[1] != 2 {
		t.Errorf("joins=1 questions %v, want [1 2]", one.Questions)
	}
	if a, b := one.Systems[0], one.Systems[1]; a.Text != "100.00" || b.Text != "0.00" || b.N != 2 || b.Judged != 2 {
		t.Errorf("joins=1: A %s, B %s (n %d of %d), want 100.00 and 0.00 of 2", a.Text, b.Text, b.N, b.Judged)
	}
	if got := one.Systems[1].ResultDiffs[record.DiffEmpty]; got != 1 {
		t.Errorf("joins=1 B empty_result %d, want 1", got)
	}
	if len(one.Paired) != 1 || one.Paired[0].Verdict != VerdictNone || *one.Paired[0].AOnly != 2 {
		t.Errorf("joins=1 paired %+v, want A 2 only, no detectable difference at n=2", one.Paired)
	}
	nested := byID["nested"]
	if nested.Groups[0].Value != "yes" || len(nested.Groups[0].Questions) != 1 {
		t.Errorf("nested groups %+v, want yes first with question 3", nested.Groups)
	}
	if d := byID["difficulty"]; len(d.Groups) != 2 || d.Groups[0].Value != "easy" {
		t.Errorf("difficulty groups %+v, want easy then hard", d.Groups)
	}
}

func TestSummarizeDiffs(t *testing.T) {
	recs := []record.Record{
		{Verdict: record.Incorrect, ResultDiff: record.ResultDiff{Diff: &record.Diff{Kind: record.DiffMissingRows, Clauses: []string{"where", "select"}}}},
		{Verdict: record.Incorrect, ResultDiff: record.ResultDiff{Diff: &record.Diff{Kind: record.DiffMissingRows}}},
		{Verdict: record.Incorrect}, // written before result_diff
		{Verdict: record.Correct},
	}
	sec := SummarizeDiffs([]metrics.SystemRecords{{Name: "A", Records: recs}})
	s := sec.Systems[0]
	if s.Incorrect != 3 || s.Unclassified != 1 || s.Kinds[record.DiffMissingRows] != 2 || s.WithClauses != 1 || s.Clauses["where"] != 1 {
		t.Errorf("got %+v", s)
	}
	if SummarizeDiffs([]metrics.SystemRecords{{Name: "A", Records: recs[3:]}}) != nil {
		t.Error("a run without incorrect records has a result_diffs section")
	}
}
