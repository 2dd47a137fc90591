package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestSections: the one list places each section in the outputs that print it, each
// output in the order it always printed (eval's one screen, --details and merge, report
// --md), every placement has its output's renderer, and DetailsHas names only what the
// run has, in --details' order.
func TestSections(t *testing.T) {
	order := func(out Output) string {
		var ids []string
		for _, sec := range Sections {
			if sec.In&out != 0 {
				ids = append(ids, sec.ID)
				if (out == OutShort && sec.Short == nil) || (out == OutDetails && sec.Details == nil) || (out == OutMarkdown && sec.Markdown == nil) || (out == OutHTML && sec.HTML == nil && sec.Template == "") {
					t.Errorf("section %s is placed in output %d without its renderer", sec.ID, out)
				}
			}
		}
		return strings.Join(ids, " ")
	}
	for out, want := range map[Output]string{
		OutShort:    "scores tasks intervals vs_best ex_by_difficulty errors legend",
		OutDetails:  "scores legend by_difficulty errors modules etm test_suite esm_partial flex spider2 tasks vs_best stats slices",
		OutMarkdown: "scores vs_best by_difficulty modules tasks stats slices reviewed audit agreement errors test_suite",
		// The page draws these in this order (each with its template; TestPageSections).
		OutHTML: "scores vs_best charts score_tables by_difficulty modules tasks stats reviewed agreement slices audit",
	} {
		if got := order(out); got != want {
			t.Errorf("output %d prints %q, want %q", out, got, want)
		}
	}
	recs := []record.Record{{Difficulty: "easy", Verdict: record.Correct, ExBird: 1}, {Difficulty: "hard", Verdict: record.Incorrect}}
	srs := []metrics.SystemRecords{{Name: "alpha", Records: recs}}
	s := &rundir.Summary{Settings: rundir.Settings{Semantics: "bird"}, Dataset: rundir.DatasetInfo{Questions: 2},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs)}
	var details bytes.Buffer
	if err := WriteDetails(&details, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(details.String(), "95% intervals") && !strings.Contains(details.String(), "95%") {
		t.Errorf("the details lack the intervals:\n%s", details.String())
	}
	tests := []struct {
		name string
		edit func(*rundir.Summary)
		want string
	}{
		{"one system", func(*rundir.Summary) {}, "95% intervals"},
		// In the order --details prints them: ETM before the statistics.
		{"ETM", func(s *rundir.Summary) { s.ETM = &match.ETMSummary{} }, "ETM, 95% intervals"},
	}
	for _, tt := range tests {
		c := *s
		tt.edit(&c)
		if got := strings.Join(DetailsHas(&c), ", "); got != tt.want {
			t.Errorf("%s: DetailsHas %q, want %q", tt.name, got, tt.want)
		}
	}
}
