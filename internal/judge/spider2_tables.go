package judge

import (
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
)

// ReadSpider2Golds reads a task's gold variants; a variant missing from this copy has a
// nil Frame. A gold file that cannot be read is an error (the task cannot be judged).
func ReadSpider2Golds(t *dataset.Spider2Task) ([]Spider2Gold, error) {
	out := make([]Spider2Gold, len(t.Gold))
	for i, g := range t.Gold {
		out[i].File = g
		if g.Missing {
			continue
		}
		f, err := pandascsv.ReadFile(g.Path)
		if err != nil {
			return nil, fmt.Errorf("gold result %s: %w", g.Name, err)
		}
		out[i].Frame = f
	}
	return out, nil
}
