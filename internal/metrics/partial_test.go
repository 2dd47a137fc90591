package metrics

import (
	"math"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// partialRec is a judged record with an ESM verdict and the given component scores (the
// other components absent, i.e. zero: counted in no average).
func partialRec(difficulty string, esm int, scores map[string]record.PartialScore) record.Record {
	return record.Record{Verdict: record.Correct, Difficulty: difficulty, Structural: record.Structural{ESM: &esm, ESMPartial: scores}}
}

// TestSummarizePartial checks the averaging evaluation.py applies, on numbers worked out
// by hand: acc over questions with pred_total > 0, rec over label_total > 0, F1 of the
// two means, and F1 = 1 when both means are 0.
func TestSummarizePartial(t *testing.T) {
	sc := func(score, label, pred int) record.PartialScore {
		return record.PartialScore{Score: score, LabelTotal: label, PredTotal: pred}
	}
	recs := []record.Record{
		partialRec("easy", 1, map[string]record.PartialScore{"where": sc(1, 1, 1), "order": sc(0, 1, 0)}),
		partialRec("easy", 0, map[string]record.PartialScore{"where": sc(0, 2, 1), "order": sc(0, 0, 1)}),
		partialRec("hard", 0, map[string]record.PartialScore{"where": sc(0, 0, 1), "order": sc(0, 1, 1)}),
		// Not judged, or no ESM: in no average and not counted.
		{Verdict: record.Skipped, Difficulty: "easy", Structural: record.Structural{ESMPartial: map[string]record.PartialScore{"where": sc(1, 1, 1)}}},
		{Verdict: record.Incorrect, Difficulty: "hard"},
	}
	s, ok := SummarizePartial(SystemRecords{Name: "sys", Records: recs})
	if !ok {
		t.Fatal("no summary")
	}
	comp := func(g PartialGroup, name string) PartialComponent {
		for _, c := range g.Components {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("%s: no component %s", g.Name, name)
		return PartialComponent{}
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	o := s.Overall
	if o.Count != 3 || o.Exact != 1 || !near(o.ExactRate, 1.0/3) {
		t.Errorf("overall count %d exact %d rate %v, want 3, 1, 1/3", o.Count, o.Exact, o.ExactRate)
	}
	// where: pred_total > 0 on all three (scores 1, 0, 0): acc 1/3; label_total > 0 on
	// the first two (1, 0): rec 1/2; F1 = 2·(1/3)(1/2)/(1/3+1/2) = 0.4.
	if w := comp(o, "where"); !near(w.Acc, 1.0/3) || !near(w.Rec, 0.5) || !near(w.F1, 0.4) || w.AccN != 3 || w.RecN != 2 {
		t.Errorf("where = %+v, want acc 1/3 (n 3), rec 1/2 (n 2), f1 0.4", w)
	}
	// order: no question scores 1, so acc = rec = 0 and the reference's F1 is 1.
	if c := comp(o, "order"); c.Acc != 0 || c.Rec != 0 || c.F1 != 1 || c.AccN != 2 || c.RecN != 2 {
		t.Errorf("order = %+v, want acc 0, rec 0, f1 1 (the reference's quirk), n 2 and 2", c)
	}
	// A component no record has: no denominators, F1 1.
	if c := comp(o, "IUEN"); c.AccN != 0 || c.RecN != 0 || c.F1 != 1 {
		t.Errorf("IUEN = %+v", c)
	}
	if len(s.ByDifficulty) != 2 || s.ByDifficulty[0].Name != "easy" || s.ByDifficulty[1].Name != "hard" {
		t.Fatalf("difficulties %+v", s.ByDifficulty)
	}
	if e := comp(s.ByDifficulty[0], "where"); e.AccN != 2 || !near(e.Acc, 0.5) || e.RecN != 2 || !near(e.Rec, 0.5) || !near(e.F1, 0.5) {
		t.Errorf("easy where = %+v", e)
	}
	if _, ok := SummarizePartial(SystemRecords{Name: "none", Records: []record.Record{{Verdict: record.Correct}}}); ok {
		t.Error("a summary from records without esm_partial")
	}
}
