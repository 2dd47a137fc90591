package benchrun

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/judge"
	"github.com/nl2sqlbench/nl2sqlbench/internal/linking"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestAnnotatorsFromSelection: the annotator list is built from what the chosen metrics
// need; EX alone gets none.
func TestAnnotatorsFromSelection(t *testing.T) {
	tests := []struct {
		metrics  []string
		esm, etm bool
		linking  bool
		n        int
	}{
		{nil, true, true, true, 2},
		{[]string{"ex"}, false, false, false, 0},
		{[]string{"bird"}, false, false, false, 0},
		{[]string{"spider"}, true, false, false, 1},
		{[]string{"etm"}, false, true, false, 1},
		{[]string{"ex", "schema_column_f1"}, false, false, true, 1},
		{[]string{"pass@1", "esm_partial"}, true, false, true, 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.metrics), func(t *testing.T) {
			cfg := Config{Metrics: tt.metrics}
			as, st, err := annotators(context.Background(), cfg, resolved(t, cfg), &dataset.Dataset{})
			if err != nil {
				t.Fatal(err)
			}
			defer closeAnnotators(as)
			hasLinking := false
			for _, a := range as {
				if _, ok := a.(*linking.Annotator); ok {
					hasLinking = true
				}
			}
			if len(as) != tt.n || (st.esm != nil) != tt.esm || (st.etm != nil) != tt.etm || hasLinking != tt.linking {
				t.Errorf("%d annotators (esm %v etm %v linking %v), want %d (%v %v %v)", len(as), st.esm != nil, st.etm != nil, hasLinking, tt.n, tt.esm, tt.etm, tt.linking)
			}
			if st.overBudget() != "" {
				t.Errorf("over budget before anything ran: %s", st.overBudget())
			}
		})
	}
}

// TestSummarizeSections: summary.json has only the chosen metrics and the sections of
// metrics that were computed (a section of one that was not would read as zeros).
func TestSummarizeSections(t *testing.T) {
	f1, one := 0.5, 1
	recs := []record.Record{
		{Index: 0, Verdict: record.Correct, ExBird: 1, ExSpider: 1, Difficulty: "easy", Efficiency: record.Efficiency{SoftF1: &f1}, Structural: record.Structural{ESM: &one, ETM: &one}},
		{Index: 1, Verdict: record.Incorrect, Difficulty: "hard", Efficiency: record.Efficiency{SoftF1: &f1}, Structural: record.Structural{ESM: &one, ETM: &one}},
	}
	sys := []SystemRecords{{Name: "a", Records: recs}, {Name: "b", Records: recs}}
	ds := &dataset.Dataset{Kind: "spider", Questions: make([]dataset.Question, 2)}
	tests := []struct {
		metrics                          []string
		ids                              []string
		efficiency, structural, etm, mod bool
	}{
		{nil, nil, true, true, true, true},
		{[]string{"ex"}, []string{"ex"}, false, false, false, false},
		{[]string{"bird"}, []string{"ex_bird", "soft_f1"}, true, false, false, false},
		{[]string{"esm", "etm"}, []string{"esm", "etm"}, false, true, true, false},
		{[]string{"tokens"}, nil, false, false, false, true}, // no record has tokens: the metric is absent, the modules section is there
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.metrics), func(t *testing.T) {
			cfg := Config{Metrics: tt.metrics}
			set := resolved(t, cfg)
			set.Semantics = judge.Spider
			sum := Summarize(context.Background(), cfg, set, ds, sys)
			var ids []string
			for _, d := range sum.Metrics.Definitions {
				ids = append(ids, d.ID)
			}
			if tt.metrics != nil && !slices.Equal(ids, tt.ids) {
				t.Errorf("metrics %v, want %v", ids, tt.ids)
			}
			if (sum.Metrics.Has("soft_f1")) != tt.efficiency || (sum.Structural != nil) != tt.structural || (sum.ETM != nil) != tt.etm || (sum.Modules != nil) != tt.mod {
				t.Errorf("sections: efficiency %v structural %v etm %v modules %v", sum.Metrics.Has("soft_f1"), sum.Structural != nil, sum.ETM != nil, sum.Modules != nil)
			}
			if !slices.Equal(sum.Settings.Metrics, set.metricsSetting()) {
				t.Errorf("settings.metrics %v", sum.Settings.Metrics)
			}
		})
	}
}
