package report

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
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
			got := excludedNote(547, row, skipReason(&rundir.Summary{Spider2: tt.spider2}))
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
