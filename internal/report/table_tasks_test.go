package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestTasksTablesEveryOutput: the tasks section's per-category rates and their Wilson
// intervals, read from summary.json, print on the terminal, in the Markdown and in the
// HTML report; a row of a summary written before rates were stored prints "-".
func TestTasksTablesEveryOutput(t *testing.T) {
	rate := metrics.RateValue(metrics.PrimaryID, 7, 10)
	recs := []record.Record{{Difficulty: "easy", Verdict: record.Correct}}
	srs := []metrics.SystemRecords{{Name: "alpha", Records: recs}}
	run := &rundir.Run{Summary: rundir.Summary{Settings: rundir.Settings{Semantics: "bird"},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs),
		Tasks: []rundir.TaskSummary{{System: "alpha", Rows: []rundir.TaskRow{
			{Phase: 1, Category: "Management", Tasks: 11, Judged: 10, Correct: 7, NotJudged: 1, Rate: &rate},
			{Phase: 2, Category: "Query", Tasks: 3, Judged: 2, Correct: 1}}}}}}
	var term, md bytes.Buffer
	if err := WriteDetails(&term, &run.Summary); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, run); err != nil {
		t.Fatal(err)
	}
	html := renderHTML(t, run, HTMLOptions{NoExec: true})
	for name, out := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": html} {
		for _, want := range []string{"95% CI", "70.00", "[39.68, 89.22]", "Management"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", name, want, out)
			}
		}
	}
	if strings.Contains(term.String(), "50.0") {
		t.Errorf("terminal: a rate not stored in summary.json was computed:\n%s", term.String())
	}
}

// TestTasksRewardOnlyWithPhases: BIRD-Interact's reward line is printed for a kind with
// follow-ups (livesql:) and not for EvalBench's single turns, where it means nothing.
func TestTasksRewardOnlyWithPhases(t *testing.T) {
	reward := 0.7
	for _, tt := range []struct {
		name string
		ts   rundir.TaskSummary
		want bool
	}{
		{"evalbench", rundir.TaskSummary{System: "s", Rows: []rundir.TaskRow{{Phase: 1, Category: "dql", Tasks: 3, Judged: 3, Correct: 2}}}, false},
		{"livesql", rundir.TaskSummary{System: "s", Reward: &reward, RewardN: 1, Rows: []rundir.TaskRow{{Phase: 1, Tasks: 1, Judged: 1, Correct: 1},
			{Phase: 2, Tasks: 1, Judged: 1, Correct: 0}}}, true},
	} {
		tables := TasksTables(&rundir.Summary{Tasks: []rundir.TaskSummary{tt.ts}})
		if got := strings.Contains(tables[0].Caption, "reward"); got != tt.want {
			t.Errorf("%s: reward in the caption %v, want %v: %q", tt.name, got, tt.want, tables[0].Caption)
		}
	}
}
