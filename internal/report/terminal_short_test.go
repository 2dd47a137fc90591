package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestExcludedNoteSaysWhySkipped: the one-line note names the reason questions were
// skipped; a Spider 2.0 run skips for reasons of its own, never "database missing".
func TestExcludedNoteSaysWhySkipped(t *testing.T) {
	row := ScoreRow{Judged: 6, Skipped: 541}
	tests := []struct {
		name    string
		spider2 []metrics.Spider2Summary
		want    string
	}{
		{"sql run", nil, " (6 of 547; 541 skipped: database missing)"},
		{"spider2, one reason", []metrics.Spider2Summary{{Skipped: map[string]int{"no prediction submitted for this task": 541}}},
			" (6 of 547; 541 skipped: no prediction submitted for this task)"},
		{"spider2, two reasons", []metrics.Spider2Summary{{Skipped: map[string]int{"no prediction submitted": 540, "needs BigQuery": 1}}},
			" (6 of 547; 541 skipped: reasons in the warning)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term, why := skipReason(&rundir.Summary{Spider2: tt.spider2})
			got := parenthesized(excludedNote(547, row, term, why))
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTaskRunSaysNotJudged: a task run's turns that wait for --task-code python are "not
// judged" with that reason, from summary.json's skips section, in every output: the
// one-screen caption, --details, the Markdown and the HTML report; never "database
// missing", which such a run cannot have.
func TestTaskRunSaysNotJudged(t *testing.T) {
	recs := []record.Record{{Difficulty: "easy", Verdict: record.Correct}, {Difficulty: "easy", Verdict: record.Incorrect},
		{Difficulty: "hard", Verdict: record.Skipped, Task: record.Task{TaskCategory: "Management", TaskNotJudged: record.NotJudgedTaskCode}}}
	srs := []metrics.SystemRecords{{Name: "sys", Records: recs}}
	run := &rundir.Run{Summary: rundir.Summary{Settings: rundir.Settings{Semantics: "bird"},
		Dataset: rundir.DatasetInfo{Kind: "livesql", Questions: 3},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs),
		Skips:   &rundir.Skips{Term: rundir.SkipTermNotJudged, Reasons: []rundir.SkipReason{{Reason: record.NotJudgedTaskCode, Count: 1}}}}}
	var short, details, md, html bytes.Buffer
	for _, err := range []error{WriteShort(&short, &run.Summary), WriteDetails(&details, &run.Summary), WriteMarkdown(&md, run),
		WriteHTML(context.Background(), &html, run, HTMLOptions{NoExec: true})} {
		if err != nil {
			t.Fatal(err)
		}
	}
	const want = "2 of 3; 1 not judged: needs --task-code python"
	for name, out := range map[string]string{"short": short.String(), "details": details.String(), "markdown": md.String(), "html": html.String()} {
		if name == "markdown" {
			out = strings.ReplaceAll(out, `\-`, "-")
		}
		if !strings.Contains(out, want) || strings.Contains(out, "database missing") {
			t.Errorf("%s lacks %q (or says database missing):\n%s", name, want, out)
		}
	}
	if !strings.Contains(details.String(), "not judged") || !strings.Contains(html.String(), "<th>not judged</th>") {
		t.Errorf("the column of such records is not named \"not judged\":\n%s", details.String())
	}
}
