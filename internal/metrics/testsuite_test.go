package metrics

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestSummarizeTestSuiteKinds: realistic counterexamples count as found, robustness
// findings and gold-suspect ones apart; a question most searched systems got a realistic
// counterexample on is listed as a shared gold suspect, one that only a minority (or too
// few systems) got is not.
func TestSummarizeTestSuiteKinds(t *testing.T) {
	zero, one := 0, 1
	rec := func(idx, tsex int, c *record.Counterexample) record.Record {
		r := record.Record{}
		r.Index, r.Verdict, r.TSDBs, r.Counterexample = idx, record.Correct, 10, c
		if tsex == 0 {
			r.TSEX = &zero
		} else {
			r.TSEX = &one
		}
		return r
	}
	real := func() *record.Counterexample { return &record.Counterexample{Kind: "realistic"} }
	systems := []SystemRecords{
		{Name: "a", Records: []record.Record{rec(0, 0, real()), rec(1, 1, &record.Counterexample{Kind: "robustness", Assumes: []string{"x"}}), rec(2, 0, real())}},
		{Name: "b", Records: []record.Record{rec(0, 0, real()), rec(1, 1, &record.Counterexample{Kind: "realistic", GoldSuspect: "tie"}), rec(2, 1, nil)}},
		{Name: "c", Records: []record.Record{rec(0, 1, nil), rec(1, 1, nil), rec(2, 1, nil)}},
	}
	sum := SummarizeTestSuite("s", systems)
	for _, tc := range []struct {
		sys                      int
		found, robust, suspected int
	}{{0, 2, 1, 0}, {1, 1, 0, 1}, {2, 0, 0, 0}} {
		s := sum.Systems[tc.sys]
		if s.Found != tc.found || s.Robust != tc.robust || s.GoldSuspect != tc.suspected || len(s.Differ) != tc.found {
			t.Errorf("%s: found %d robust %d suspect %d; want %d %d %d", s.System, s.Found, s.Robust, s.GoldSuspect, tc.found, tc.robust, tc.suspected)
		}
	}
	if len(sum.SharedGold) != 1 || sum.SharedGold[0].Index != 0 || sum.SharedGold[0].Found != 2 || sum.SharedGold[0].Searched != 3 {
		t.Errorf("shared gold = %+v; want question 0, 2 of 3", sum.SharedGold)
	}
}
