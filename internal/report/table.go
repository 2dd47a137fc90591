package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// WriteTable prints the run's scores for a terminal: one row per system, then execution
// accuracy per difficulty, then the error categories.
func WriteTable(w io.Writer, s *RunSummary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tjudged\tcorrect\tincorrect\terror\tEX bird\tEX spider\tskipped\tgold_error\t\n")
	for _, sys := range s.Systems {
		c, r := sys.Overall.Counts, sys.Overall.Rates
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t\n", sys.System, c.Judged,
			pct(r.Correct), pct(r.Incorrect), pct(r.Error), pct(r.ExBird), pct(r.ExSpider), c.Skipped, c.GoldError)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	diffs := difficulties(s.Systems)
	if len(diffs) > 0 {
		fmt.Fprintf(w, "\ncorrect rate (%s semantics) by difficulty\n", s.Settings.Semantics)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "system\t%s\tall\t\n", strings.Join(diffs, "\t"))
		fmt.Fprintf(tw, "count\t")
		for _, d := range diffs {
			fmt.Fprintf(tw, "%d\t", judgedIn(s.Systems[0], d))
		}
		fmt.Fprintf(tw, "%d\t\n", s.Systems[0].Overall.Counts.Judged)
		for _, sys := range s.Systems {
			fmt.Fprintf(tw, "%s\t", sys.System)
			for _, d := range diffs {
				fmt.Fprintf(tw, "%s\t", pct(rateIn(sys, d)))
			}
			fmt.Fprintf(tw, "%s\t\n", pct(sys.Overall.Rates.Correct))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	fmt.Fprintf(w, "\nerrors by category (count)\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\t")
	for _, c := range record.Categories {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintf(tw, "\n")
	for _, sys := range s.Systems {
		fmt.Fprintf(tw, "%s\t", sys.System)
		for _, c := range record.Categories {
			fmt.Fprintf(tw, "%d\t", sys.Overall.Counts.Categories[c])
		}
		fmt.Fprintf(tw, "\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeEfficiencyTable(w, s); err != nil {
		return err
	}
	if err := WriteModulesTable(w, s); err != nil {
		return err
	}
	return firstErr(writeStructural(w, s), writeETM(w, s), writeFlexTable(w, s))
}

func pct(x float64) string { return fmt.Sprintf("%.2f", 100*x) }

func difficulties(systems []metrics.Summary) []string {
	if len(systems) == 0 {
		return nil
	}
	var out []string
	for _, g := range systems[0].ByDifficulty {
		if g.Counts.Judged > 0 {
			out = append(out, g.Name)
		}
	}
	if len(out) == 1 {
		return nil // one difficulty only: the overall row says it all
	}
	return out
}

func group(sys metrics.Summary, d string) *metrics.Group {
	for i := range sys.ByDifficulty {
		if sys.ByDifficulty[i].Name == d {
			return &sys.ByDifficulty[i]
		}
	}
	return nil
}

func judgedIn(sys metrics.Summary, d string) int {
	if g := group(sys, d); g != nil {
		return g.Counts.Judged
	}
	return 0
}

func rateIn(sys metrics.Summary, d string) float64 {
	if g := group(sys, d); g != nil {
		return g.Rates.Correct
	}
	return 0
}
