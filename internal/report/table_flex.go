package report

import (
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"io"
	"text/tabwriter"
)

// writeFlexTable prints the NL2SQL++ flexible comparison's verdict counts per system,
// from summary.json's flex section; its accuracy is in the score tables. It prints
// nothing for a run that did not compute it.
func writeFlexTable(w io.Writer, s *rundir.Summary) error {
	if len(s.Flex) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nflexible comparison (NL2SQL++) verdicts (questions); Flex = exact + column-flexible\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tcompared\texact\tcolumn-flexible\tfailure\t\n")
	for _, f := range s.Flex {
		o := f.Overall
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", f.System, o.Compared, o.Exact, o.ColumnFlexible, o.Failure)
	}
	return tw.Flush()
}
