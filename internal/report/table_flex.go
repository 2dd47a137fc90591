package report

import (
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// writeFlexTable prints the NL2SQL++ flexible comparison's verdict counts per system,
// from summary.json's flex section; its accuracy is in the score tables. It prints
// nothing for a run that did not compute it.
func writeFlexTable(w io.Writer, s *rundir.Summary) error {
	if len(s.Flex) == 0 {
		return nil
	}
	t := TextTable{Title: "flexible comparison (NL2SQL++) verdicts (questions); Flex = exact + column-flexible",
		Head: []string{"system", "compared", "exact", "column-flexible", "failure"}}
	for _, f := range s.Flex {
		o := f.Overall
		t.Rows = append(t.Rows, cells(f.System, o.Compared, o.Exact, o.ColumnFlexible, o.Failure))
	}
	return writeTitled(w, t)
}
