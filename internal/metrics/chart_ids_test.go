package metrics

import (
	"slices"
	"testing"
)

// TestChartIDs: the HTML report's two registry charts draw, in the registry's order,
// what they drew when their ids were written in the report (issue 42: one list).
func TestChartIDs(t *testing.T) {
	for chart, want := range map[string][]string{
		ChartStructure:  {"ex", "esm", "etm", "flex"},
		ChartEfficiency: {"soft_f1", "ves", "rves"},
	} {
		if got := ChartIDs(chart); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", chart, got, want)
		}
	}
}
