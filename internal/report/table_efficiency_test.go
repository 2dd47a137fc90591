package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestWriteEfficiencyTable(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	mk := func(diff string, v record.Verdict, f1 float64, ves, rves float64) record.Record {
		r := record.Record{Difficulty: diff, Verdict: v, Efficiency: record.Efficiency{SoftF1: f(f1), Timing: "robust", VES: f(ves), RVESReward: f(rves)}}
		return r
	}
	a := []record.Record{mk("easy", record.Correct, 1, 1.2, 1.25), mk("hard", record.Incorrect, 0.4, 0, 0), mk("hard", record.Correct, 1, 0.7, 0.5)}
	s := &RunSummary{Settings: Settings{Semantics: "bird"},
		Systems:        []metrics.Summary{metrics.Summarize("alpha", a)},
		ExecEfficiency: []metrics.ExecEfficiencySummary{metrics.SummarizeExecEfficiency("alpha", a)}}
	var buf bytes.Buffer
	if err := writeEfficiencyTable(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "table/efficiency.txt", buf.Bytes())

	// Through WriteTable, the section comes last; without it, nothing is printed.
	buf.Reset()
	if err := WriteTable(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "VES and R-VES with robust timing") {
		t.Errorf("WriteTable lacks the efficiency section:\n%s", buf.String())
	}
	buf.Reset()
	s.ExecEfficiency = nil
	if err := writeEfficiencyTable(&buf, s); err != nil || buf.Len() != 0 {
		t.Errorf("no section: wrote %q, %v", buf.String(), err)
	}
}
