package benchrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
)

// agreementRun is two systems on three questions: A right on 0 and 1, B right on 0;
// question 2 was skipped for both.
func agreementRun() []SystemRecords {
	mk := func(ex []int, sqls []string) []record.Record {
		var out []record.Record
		for i, e := range ex {
			v := record.Incorrect
			if e == 1 {
				v = record.Correct
			}
			if i == 2 {
				v = record.Skipped
			}
			out = append(out, record.Record{Index: i, QuestionID: "q" + string(rune('a'+i)), DBID: "db", Question: "Question " + string(rune('A'+i)) + "?",
				PredSQL: sqls[i], Verdict: v, ExBird: e, ExSpider: e})
		}
		return out
	}
	return []SystemRecords{
		{Name: "A", Records: mk([]int{1, 1, 0}, []string{"SELECT 1", "SELECT  2;", "SELECT 3"})},
		{Name: "B", Records: mk([]int{1, 0, 0}, []string{"SELECT 1", "SELECT 9", "SELECT 3"})},
	}
}

func idx(i int) *int { return &i }

func TestAgreementResolves(t *testing.T) {
	tests := []struct {
		name   string
		system string
		ls     review.Labels
		// want: ex_bird's confusion; labelled, not judged, other systems, unmatched.
		c                                      metrics.Confusion
		labelled, notJudged, others, unmatched int
	}{
		{"by index and question_id", "", review.Labels{Format: review.FormatLabels, Labels: []review.Label{
			{Line: 1, Index: idx(0), System: "A", Correct: true},
			{Line: 2, QuestionID: "qb", System: "A", Correct: false}, // A says correct: FP
			{Line: 3, Index: idx(1), QuestionID: "qb", System: "B", Correct: false},
			{Line: 4, Index: idx(2), System: "B", Correct: true}, // skipped
		}}, metrics.Confusion{TP: 1, FP: 1, TN: 1}, 3, 1, 0, 0},
		{"--system fills and filters", "B", review.Labels{Format: review.FormatLabels, Labels: []review.Label{
			{Line: 1, Index: idx(0), Correct: false}, // B correct: FP
			{Line: 2, Index: idx(1), System: "A", Correct: true},
			{Line: 3, Index: idx(1), System: "B", Correct: true}, // FN
		}}, metrics.Confusion{FP: 1, FN: 1}, 2, 0, 1, 0},
		{"the same label twice counts once", "", review.Labels{Format: review.FormatReviews, Labels: []review.Label{
			{Line: 1, Index: idx(0), System: "A", Correct: true},
			{Line: 5, QuestionID: "qa", System: "A", Correct: true},
		}}, metrics.Confusion{TP: 1}, 1, 0, 0, 0},
		{"nl2sql-bugs by question and SQL", "", review.Labels{Format: review.FormatNL2SQLBugs, Labels: []review.Label{
			{Line: 1, DBID: "db", Question: " Question  A? ", SQL: "SELECT 1", Correct: true},  // A and B
			{Line: 2, DBID: "db", Question: "Question B?", SQL: "SELECT 2", Correct: false},    // A, whitespace and ; aside: FP
			{Line: 3, DBID: "db", Question: "Question B?", SQL: "SELECT 7", Correct: false},    // no prediction
			{Line: 4, DBID: "other", Question: "Question A?", SQL: "SELECT 1", Correct: false}, // other database
		}}, metrics.Confusion{TP: 2, FP: 1}, 3, 0, 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls := tc.ls
			ls.Path = "labels.jsonl"
			a, err := Agreement(AgreementConfig{Systems: agreementRun(), Labels: &ls, System: tc.system})
			if err != nil {
				t.Fatal(err)
			}
			if a.Labelled != tc.labelled || a.NotJudged != tc.notJudged || a.OtherSystems != tc.others || a.Unmatched != tc.unmatched {
				t.Errorf("labelled %d not judged %d others %d unmatched %d, want %d %d %d %d", a.Labelled, a.NotJudged, a.OtherSystems, a.Unmatched,
					tc.labelled, tc.notJudged, tc.others, tc.unmatched)
			}
			if len(a.Verdicts) == 0 || a.Verdicts[0].ID != "ex_bird" || a.Verdicts[0].Confusion != tc.c {
				t.Errorf("verdicts %+v, want ex_bird first with %+v", a.Verdicts, tc.c)
			}
			if a.LabelsRead != len(tc.ls.Labels) || a.KappaMethod != metrics.KappaMethod {
				t.Errorf("labels read %d, method %q", a.LabelsRead, a.KappaMethod)
			}
		})
	}
}

func TestAgreementRefuses(t *testing.T) {
	tests := []struct {
		name, system string
		labels       []review.Label
		want         string
	}{
		{"no system in a run of two", "", []review.Label{{Line: 3, Index: idx(0)}},
			"labels.jsonl line 3: bad label: no key system, and the run has 2 systems (A, B)"},
		{"unknown system", "", []review.Label{{Line: 1, Index: idx(0), System: "C"}}, `line 1: bad label: key system: the run has no system "C"`},
		{"unknown index", "", []review.Label{{Line: 2, Index: idx(7), System: "A"}}, "line 2: bad label: key index: the run has no question 7 (system A)"},
		{"unknown question_id", "", []review.Label{{Line: 2, QuestionID: "zz", System: "A"}}, "key question_id: the run has no question zz"},
		{"index and question_id differ", "", []review.Label{{Line: 4, Index: idx(0), QuestionID: "qb", System: "A"}}, "line 4: bad label: key question_id: qb, but index 0 is question qa"},
		{"two labels differ", "", []review.Label{{Line: 1, Index: idx(0), System: "A", Correct: true}, {Line: 9, QuestionID: "qa", System: "A"}},
			"line 9: bad label: question 0 of system A is labelled otherwise at labels.jsonl line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Agreement(AgreementConfig{Systems: agreementRun(), System: tc.system,
				Labels: &review.Labels{Path: "labels.jsonl", Format: review.FormatLabels, Labels: tc.labels}})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, review.ErrBadLabel) {
				t.Errorf("error %v, want ErrBadLabel saying %q", err, tc.want)
			}
		})
	}
	_, err := Agreement(AgreementConfig{Systems: agreementRun(), System: "Z"})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "--system Z: the run has no such system (it has A, B)") {
		t.Errorf("--system Z: %v", err)
	}
}

// TestAgreementMatrixOnly: without labels, only the verdicts against each other.
func TestAgreementMatrixOnly(t *testing.T) {
	a, err := Agreement(AgreementConfig{Systems: agreementRun()})
	if err != nil {
		t.Fatal(err)
	}
	if a.Labels != "" || len(a.Verdicts) != 0 {
		t.Errorf("labels %q verdicts %v without labels", a.Labels, a.Verdicts)
	}
	// EX bird and EX spider are equal on the four judged records: kappa 1.
	p := a.Matrix.Pair("ex_bird", "ex_spider")
	if p == nil || p.N != 4 || p.KappaText != "1.00 [1.00, 1.00]" {
		t.Errorf("ex_bird x ex_spider = %+v", p)
	}
}
