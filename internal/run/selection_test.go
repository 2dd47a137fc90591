package run

import (
	"context"
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/linking"
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
			as, st, err := annotators(context.Background(), cfg, &dataset.Dataset{})
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
