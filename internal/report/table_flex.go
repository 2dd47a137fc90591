package report

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// writeFlexTable prints the NL2SQL++ flexible comparison per system: accuracy
// (exact + column-flexible) overall and per difficulty, and the verdict counts. It
// prints nothing for a run that did not compute it.
func writeFlexTable(w io.Writer, s *RunSummary) error {
	if len(s.Flex) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nflexible comparison (NL2SQL++): accuracy = exact + column-flexible\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\t")
	for _, g := range s.Flex[0].ByDifficulty {
		fmt.Fprintf(tw, "%s\t", g.Name)
	}
	fmt.Fprintf(tw, "all\texact\tcolumn-flexible\tfailure\t\n")
	for _, f := range s.Flex {
		fmt.Fprintf(tw, "%s\t", f.System)
		for _, g := range f.ByDifficulty {
			fmt.Fprintf(tw, "%s\t", pct(g.Accuracy))
		}
		o := f.Overall
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", pct(o.Accuracy), o.Exact, o.ColumnFlexible, o.Failure)
	}
	return tw.Flush()
}
