package metrics

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func rec(diff string, v record.Verdict, cat record.ErrorCategory, bird, spider int) record.Record {
	return record.Record{Difficulty: diff, Verdict: v, ErrorCategory: cat, ExBird: bird, ExSpider: spider}
}

func TestTally(t *testing.T) {
	recs := []record.Record{
		rec("simple", record.Correct, "", 1, 1),
		rec("simple", record.Correct, "", 1, 0),
		rec("moderate", record.Incorrect, "", 0, 1),
		rec("moderate", record.Error, record.NoSuchColumn, 0, 0),
		rec("moderate", record.Error, record.Timeout, 0, 0),
		rec("simple", record.Skipped, "", 0, 0),
		rec("challenging", record.GoldError, "", 0, 0),
	}
	g := Tally("all", recs)
	wantCounts := Counts{Total: 7, Judged: 5, Correct: 2, Incorrect: 1, Error: 2, Skipped: 1, GoldError: 1, ExBird: 2, ExSpider: 2,
		Categories: map[record.ErrorCategory]int{record.NoSuchColumn: 1, record.Timeout: 1}}
	if d := cmp.Diff(wantCounts, g.Counts); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("correct", g.Rates.Correct, 0.4)
	near("incorrect", g.Rates.Incorrect, 0.2)
	near("error", g.Rates.Error, 0.4)
	near("ex_spider", g.Rates.ExSpider, 0.4)
	near("no_such_column", g.Rates.Categories[record.NoSuchColumn], 0.2)

	s := Summarize(SystemRecords{Name: "sys", Records: recs})
	var names []string
	for _, d := range s.ByDifficulty {
		names = append(names, d.Name)
	}
	if d := cmp.Diff([]string{"simple", "moderate", "challenging"}, names); d != "" {
		t.Errorf("difficulty order (-want +got):\n%s", d)
	}
	if c := s.ByDifficulty[2].Counts; c.Judged != 0 || c.GoldError != 1 || s.ByDifficulty[2].Rates.Correct != 0 {
		t.Errorf("a difficulty with nothing judged: %+v", c)
	}
}

func TestDifficultyOrder(t *testing.T) {
	got := DifficultyOrder([]string{"unknown", "extra", "zeta", "easy", "hard", "medium"})
	want := []string{"easy", "medium", "hard", "extra", "zeta", "unknown"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestStatistics(t *testing.T) {
	recs := []record.Record{
		{DBID: "b", QuestionID: "10", Verdict: record.Correct},
		{DBID: "a", QuestionID: "9", Verdict: record.Error, ErrorMessage: "no such table: t"},
		{DBID: "a", QuestionID: "10", Verdict: record.Incorrect},
		{DBID: "a", QuestionID: "11", Verdict: record.Skipped},
		{DBID: "a", QuestionID: "12", Verdict: record.Correct, RevisionApplied: true,
			Candidates: []record.Candidate{{Verdict: record.Error, ErrorCategory: record.SyntaxError}}},
	}
	st := NewStatistics(recs)
	want := Statistics{
		Counts: map[string]ModuleCounts{
			KeyCandidateGeneration: {Correct: 1, Incorrect: 1, Error: 2, Total: 4},
			KeyRevision:            {Correct: 1, Total: 1},
		},
		IDs: map[string]ModuleIDs{
			KeyCandidateGeneration: {
				Correct:   [][]string{{"b", "10"}},
				Incorrect: [][]string{{"a", "10"}},
				Error:     [][]string{{"a", "9", "no such table: t"}, {"a", "12", "syntax_error"}},
			},
			KeyRevision: {Correct: [][]string{{"a", "12"}}, Incorrect: [][]string{}, Error: [][]string{}},
		},
	}
	if d := cmp.Diff(want, st); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
