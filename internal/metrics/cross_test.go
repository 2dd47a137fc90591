package metrics

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func crossRec(id, diff string, v record.Verdict, tabR, colR *float64, cs ...record.Verdict) record.Record {
	return record.Record{QuestionID: id, Difficulty: diff, Verdict: v, Candidates: cands(cs...),
		SchemaLinking: record.SchemaLinking{SchemaTableR: tabR, SchemaColumnR: colR}}
}

func TestCrossSystem(t *testing.T) {
	one, half, zero := 1.0, 0.5, 0.0
	a := SystemRecords{Name: "A", Records: []record.Record{
		crossRec("1", "simple", C, &one, &one, C),
		crossRec("2", "simple", I, &one, &half, C, I), // CG correct, final wrong (revision broke it)
		crossRec("3", "moderate", C, &one, &one),
		crossRec("4", "moderate", E, &half, &zero, E),
		crossRec("5", "moderate", record.Skipped, nil, nil), // skipped: not matched
	}}
	b := SystemRecords{Name: "B", Records: []record.Record{
		{QuestionID: "1", Difficulty: "simple", Verdict: I},
		{QuestionID: "2", Difficulty: "simple", Verdict: C},
		{QuestionID: "3", Difficulty: "moderate", Verdict: C},
		{QuestionID: "4", Difficulty: "moderate", Verdict: I},
		{QuestionID: "5", Difficulty: "moderate", Verdict: C},
	}}
	eff := map[string]*TokenCost{
		"A": {Tokens: &Means{AllQuestions: 1000}, Cost: &Means{AllQuestions: 0.01}},
		"B": {Tokens: &Means{AllQuestions: 500}}, "C": {TokensUnknown: true},
	}
	cs := CrossSystemOf([]SystemRecords{a, b}, eff)
	if cs.Questions != 4 {
		t.Fatalf("matched %d questions, want 4", cs.Questions)
	}
	// Table 23 for A: full recall on q1, q3 (CG: C and C [q3 has no candidates: its verdict]; final C, C);
	// partial on q2, q4 (CG: C, E; final I, E).
	rc := cs.RecallCondition
	if len(rc) != 1 || rc[0].System != "A" || rc[0].Full != 2 || rc[0].Partial != 2 ||
		!near(rc[0].CGFull.Value(), 1) || !near(rc[0].CGPartial.Value(), 0.5) ||
		!near(rc[0].FinalFull.Value(), 1) || !near(rc[0].FinalPart.Value(), 0) {
		t.Errorf("recall conditioned: %+v", rc)
	}
	// Table 24 for A: correct q1, q3: column recall (1+1)/2; wrong q2, q4: (0.5+0)/2; tables 1 and 0.75.
	ro := cs.RecallOutcome[0]
	if !near(ro.ColumnRecallRight.Value(), 1) || !near(ro.ColumnRecallWrong.Value(), 0.25) ||
		!near(ro.TableRecallRight.Value(), 1) || !near(ro.TableRecallWrong.Value(), 0.75) {
		t.Errorf("recall by outcome: %+v", ro)
	}
	// Figure 7: q1 solved by 1 (A), q2 by 1 (B), q3 by 2, q4 by 0.
	wantAgree := []AgreementRow{
		{Difficulty: "simple", Questions: 2, Correct: []int{0, 2, 0}},
		{Difficulty: "moderate", Questions: 2, Correct: []int{1, 0, 1}},
		{Difficulty: "all", Questions: 4, Correct: []int{1, 2, 1}},
	}
	if d := cmp.Diff(wantAgree, cs.Agreement); d != "" {
		t.Errorf("agreement (-want +got):\n%s", d)
	}
	// Figure 6: wrong A = {2,4}, wrong B = {1,4}: ∩ = 1, ∪ = 3, Jaccard 1/3.
	o := cs.Overlaps
	if len(o) != 1 || o[0].Intersection != 1 || o[0].Union != 3 || !near(o[0].Jaccard.Value(), 1.0/3) {
		t.Errorf("overlap: %+v", o)
	}
	// Frontier: A (CR 1/2, 1000 tok), B (CR 1/2, 500 tok): B dominates A.
	if d := cmp.Diff([]FrontierPoint{{System: "B", CorrectRate: 0.5, Cost: 500}}, cs.TokenFrontier); d != "" {
		t.Errorf("token frontier (-want +got):\n%s", d)
	}
	if len(cs.TokenBudget) != 2 || cs.TokenBudget[0].System != "B" || cs.TokenBudget[1].Budget != 1000 {
		t.Errorf("token budget: %+v", cs.TokenBudget)
	}
	if len(cs.CostFrontier) != 1 || cs.CostFrontier[0].System != "A" {
		t.Errorf("cost frontier: %+v", cs.CostFrontier)
	}
}

func TestParetoFrontierAndBudget(t *testing.T) {
	pts := []FrontierPoint{
		{"cheap", 0.40, 100}, {"mid", 0.60, 1000}, {"wasteful", 0.55, 2000}, {"best", 0.70, 5000}, {"tie", 0.60, 1000},
	}
	got := ParetoFrontier(pts)
	want := []FrontierPoint{{"cheap", 0.40, 100}, {"mid", 0.60, 1000}, {"tie", 0.60, 1000}, {"best", 0.70, 5000}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("frontier (-want +got):\n%s", d)
	}
	if b, ok := BestWithin(pts, 2500); !ok || b.System != "mid" {
		t.Errorf("best within 2500: %+v %v", b, ok)
	}
	if _, ok := BestWithin(pts, 50); ok {
		t.Error("a system fits a budget below every cost")
	}
	curve := BudgetCurve(pts)
	if len(curve) != 4 || curve[2].Budget != 2000 || curve[2].System != "mid" || curve[3].CorrectRate != 0.70 {
		t.Errorf("curve %+v", curve)
	}
}

func TestCrossSystemNoOverlapIsNA(t *testing.T) {
	a := SystemRecords{Name: "A", Records: []record.Record{{QuestionID: "1", Verdict: C}}}
	b := SystemRecords{Name: "B", Records: []record.Record{{QuestionID: "1", Verdict: C}}}
	cs := CrossSystemOf([]SystemRecords{a, b}, nil)
	if cs.Overlaps[0].Jaccard.Defined() || cs.Overlaps[0].Jaccard.Percent() != "n/a" {
		t.Errorf("empty union: %+v", cs.Overlaps[0])
	}
	if len(cs.RecallCondition) != 0 || cs.TokenFrontier != nil {
		t.Errorf("no schema or usage data, yet: %+v", cs)
	}
}
