package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
)

// writeEfficiencyTable prints Soft-F1 and, for timed runs, VES and R-VES per system,
// overall and per difficulty. It prints nothing for a summary without the section.
func writeEfficiencyTable(w io.Writer, s *RunSummary) error {
	if len(s.ExecEfficiency) == 0 {
		return nil
	}
	type metric struct {
		name string
		get  func(metrics.ExecEfficiencyGroup) string
	}
	ms := []metric{{"Soft-F1", func(g metrics.ExecEfficiencyGroup) string { return fmt.Sprintf("%.2f", g.SoftF1) }}}
	timing := ""
	for _, e := range s.ExecEfficiency {
		if e.Overall.VES != nil && timing == "" {
			timing = e.Timing
		}
	}
	if timing != "" {
		opt := func(p *float64) string {
			if p == nil {
				return "-"
			}
			return fmt.Sprintf("%.2f", *p)
		}
		ms = append(ms,
			metric{"VES", func(g metrics.ExecEfficiencyGroup) string { return opt(g.VES) }},
			metric{"R-VES", func(g metrics.ExecEfficiencyGroup) string { return opt(g.RVES) }})
	}
	var diffs []string
	for _, g := range s.ExecEfficiency[0].ByDifficulty {
		if g.Judged > 0 {
			diffs = append(diffs, g.Name)
		}
	}
	if len(diffs) == 1 {
		diffs = nil
	}
	title := "\nefficiency and partial credit (scores x 100)"
	if timing != "" {
		title += fmt.Sprintf("; VES and R-VES with %s timing", timing)
	}
	fmt.Fprintln(w, title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tmetric\t")
	for _, d := range diffs {
		fmt.Fprintf(tw, "%s\t", d)
	}
	fmt.Fprintf(tw, "all\t\n")
	for _, e := range s.ExecEfficiency {
		groups := map[string]metrics.ExecEfficiencyGroup{}
		for _, g := range e.ByDifficulty {
			groups[g.Name] = g
		}
		for _, m := range ms {
			fmt.Fprintf(tw, "%s\t%s\t", e.System, m.name)
			for _, d := range diffs {
				fmt.Fprintf(tw, "%s\t", m.get(groups[d]))
			}
			fmt.Fprintf(tw, "%s\t\n", m.get(e.Overall))
		}
	}
	return tw.Flush()
}
