package metrics

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func cands(vs ...record.Verdict) []record.Candidate {
	out := make([]record.Candidate, len(vs))
	for i, v := range vs {
		out[i] = record.Candidate{Verdict: v}
		if v == record.Error {
			out[i].ErrorCategory = record.SyntaxError
		}
	}
	return out
}

const (
	C = record.Correct
	I = record.Incorrect
	E = record.Error
)

func TestPassAtAndCandidateRates(t *testing.T) {
	recs := []record.Record{
		// q1: correct only at the 3rd candidate.
		{QuestionID: "1", Verdict: I, Candidates: cands(I, E, C, I, I, I)},
		// q2: two candidates, never correct: fewer than 5.
		{QuestionID: "2", Verdict: E, ErrorCategory: record.SyntaxError, Candidates: cands(E, I)},
		// q3: no candidates reported: its judged SQL is its one candidate.
		{QuestionID: "3", Verdict: C},
		// q4: skipped, left out.
		{QuestionID: "4", Verdict: record.Skipped, Candidates: cands(C)},
	}
	cg := CandidateGenerationOf(recs, []int{1, 3, 5})
	// Pass@1: q3 = 1/3. Pass@3: q1, q3 = 2/3 (q2 and q3 have fewer than 3). Pass@5: 2/3.
	wantPass := []PassAtK{
		{K: 1, Questions: 3, Correct: 1, Rate: 1.0 / 3},
		{K: 3, Questions: 3, Correct: 2, Rate: 2.0 / 3, Short: 2},
		{K: 5, Questions: 3, Correct: 2, Rate: 2.0 / 3, Short: 2},
	}
	if d := cmp.Diff(wantPass, cg.PassAt, cmp.Comparer(near)); d != "" {
		t.Errorf("pass@k (-want +got):\n%s", d)
	}
	// All candidates: 6 + 2 + 1 = 9: correct 2, incorrect 5, error 2 (both syntax).
	if cg.Candidates != 9 || cg.MultiCandidate != 2 || !near(cg.AllCandidates.Correct, 2.0/9) ||
		!near(cg.AllCandidates.Incorrect, 5.0/9) || !near(cg.AllCandidates.Error, 2.0/9) ||
		!near(cg.AllCandidates.Categories[record.SyntaxError], 2.0/9) {
		t.Errorf("all candidates: %+v", cg)
	}
	// First candidates: I, E, C.
	if f := cg.FirstCandidate; f.N != 3 || !near(f.Correct, 1.0/3) || !near(f.Incorrect, 1.0/3) || !near(f.Error, 1.0/3) {
		t.Errorf("first candidates: %+v", f)
	}
	// Rates sum to 1.
	if a := cg.AllCandidates; !near(a.Correct+a.Incorrect+a.Error, 1) {
		t.Errorf("CR+IR+ER = %v", a.Correct+a.Incorrect+a.Error)
	}

	r := recs[0]
	FillPassAt(&r, []int{1, 3, 20})
	if d := cmp.Diff(map[string]int{"1": 0, "3": 1, "20": 1}, r.PassAt); d != "" || r.PassAtCandidates != 6 {
		t.Errorf("FillPassAt: %v, %d candidates", r.PassAt, r.PassAtCandidates)
	}
	s := recs[3]
	FillPassAt(&s, DefaultPassK)
	if s.PassAt != nil {
		t.Errorf("skipped record got pass_at %v", s.PassAt)
	}
}

func TestCandidateGenerationEmpty(t *testing.T) {
	cg := CandidateGenerationOf(nil, DefaultPassK)
	if cg.Questions != 0 || len(cg.PassAt) != 5 || cg.PassAt[0].Rate != 0 {
		t.Errorf("empty: %+v", cg)
	}
}

func TestParsePassK(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		bad  bool
	}{
		{"", []int{1, 5, 10, 15, 20}, false},
		{"10, 1,5,1", []int{1, 5, 10}, false},
		{"0", nil, true},
		{"1,x", nil, true},
	}
	for _, tt := range tests {
		got, err := ParsePassK(tt.in)
		if tt.bad != (err != nil) || (tt.bad && !errors.Is(err, ErrBadK)) {
			t.Errorf("ParsePassK(%q) err = %v", tt.in, err)
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ParsePassK(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}
