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

// TestWriteDetails: every table (eval --details, merge) is the full report followed by
// the statistics tables; DetailsHas names only what the run has.
func TestWriteDetails(t *testing.T) {
	recs := []record.Record{{Difficulty: "easy", Verdict: record.Correct, ExBird: 1}, {Difficulty: "hard", Verdict: record.Incorrect}}
	srs := []metrics.SystemRecords{{Name: "alpha", Records: recs}}
	s := &rundir.Summary{Settings: rundir.Settings{Semantics: "bird"}, Dataset: rundir.DatasetInfo{Questions: 2},
		Systems: []metrics.Summary{metrics.Summarize(srs[0])},
		Metrics: metrics.Aggregate(metrics.Declared(metrics.Options{}), srs)}
	var table, details bytes.Buffer
	if err := WriteTable(&table, s); err != nil {
		t.Fatal(err)
	}
	if err := WriteDetails(&details, s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(details.String(), table.String()) {
		t.Errorf("the details do not start with the full report:\n%s", details.String())
	}
	tests := []struct {
		name string
		edit func(*rundir.Summary)
		want string
	}{
		{"one system", func(*rundir.Summary) {}, "95% intervals"},
		{"ETM", func(s *rundir.Summary) { s.ETM = &match.ETMSummary{} }, "95% intervals, ETM"},
	}
	for _, tt := range tests {
		c := *s
		tt.edit(&c)
		if got := strings.Join(DetailsHas(&c), ", "); got != tt.want {
			t.Errorf("%s: DetailsHas %q, want %q", tt.name, got, tt.want)
		}
	}
}
