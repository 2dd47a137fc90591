package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestSummarize(t *testing.T) {
	one, zero := 1, 0
	mk := func(diff string, v record.Verdict, esm *int) record.Record {
		r := record.Record{Difficulty: diff, Verdict: v}
		r.ESM = esm
		return r
	}
	recs := []record.Record{
		mk("hard", record.Correct, &one),
		mk("easy", record.Correct, &one),
		mk("easy", record.Incorrect, &one), // EX false negative or ESM false positive: both count
		mk("easy", record.Error, &zero),
		mk("easy", record.Correct, nil),    // judged, ESM not computed: counts as no match
		mk("easy", record.Skipped, nil),    // not judged: excluded
		mk("hard", record.GoldError, &one), // not judged: excluded
	}
	got := Summarize(Options{Values: true}, []metrics.SystemRecords{{Name: "sys", Records: recs}})
	want := &Summary{ESMOptions: "values", Systems: []SystemSummary{{
		System:  "sys",
		Overall: Group{Name: "all", Judged: 5, ESM: 3, ESMMissing: 1, ESMRate: 0.6},
		ByDifficulty: []Group{
			{Name: "easy", Judged: 4, ESM: 2, ESMMissing: 1, ESMRate: 0.5},
			{Name: "hard", Judged: 1, ESM: 1, ESMRate: 1},
		},
	}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Summarize (-want +got):\n%s", d)
	}
}
