package report

import (
	"fmt"
	"io"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// WritePartialTable prints Spider evaluation.py's partial-match breakdown from
// summary.json's esm_partial section: for each system, the exact-match rate and each
// component's accuracy, recall and F1 per difficulty and overall, in % (the script
// prints fractions). It prints nothing when the run computed no ESM.
func WritePartialTable(w io.Writer, s *rundir.Summary) error {
	if len(s.ESMPartial) == 0 {
		return nil
	}
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "\nSpider partial match (%%, as evaluation.py --etype match; acc over questions whose prediction has the component, rec over those whose gold has it)\n")
	for _, sys := range s.ESMPartial {
		groups := append(append([]metrics.PartialGroup{}, sys.ByDifficulty...), sys.Overall)
		head, count, exact := []string{sys.System}, []string{" count"}, []string{" exact match"}
		for _, g := range groups {
			head, count = append(head, g.Name), append(count, fmt.Sprint(g.Count))
			exact = append(exact, fmt.Sprintf("%.2f", 100*g.ExactRate))
		}
		rows := [][]string{head, count, exact}
		for _, part := range []struct {
			name string
			val  func(metrics.PartialComponent) float64
		}{
			{"acc", func(c metrics.PartialComponent) float64 { return c.Acc }},
			{"rec", func(c metrics.PartialComponent) float64 { return c.Rec }},
			{"f1", func(c metrics.PartialComponent) float64 { return c.F1 }},
		} {
			for i, comp := range sys.Overall.Components {
				row := []string{" " + comp.Name + " " + part.name}
				for _, g := range groups {
					row = append(row, fmt.Sprintf("%.2f", 100*part.val(g.Components[i])))
				}
				rows = append(rows, row)
			}
		}
		writeGrid(ew, rows)
	}
	return ew.err
}
