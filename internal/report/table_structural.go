package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlbench/nl2sqlbench/internal/match"
)

// writeStructural prints the structural-match section of the terminal summary: ESM per
// difficulty beside each system's execution accuracy. It prints nothing when the run
// computed no structural metric.
func writeStructural(w io.Writer, s *RunSummary) error {
	st := s.Structural
	if st == nil || len(st.Systems) == 0 {
		return nil
	}
	var diffs []string
	for _, g := range st.Systems[0].ByDifficulty {
		if g.Judged > 0 {
			diffs = append(diffs, g.Name)
		}
	}
	if len(diffs) == 1 {
		diffs = nil // one difficulty only: the overall column says it all
	}
	fmt.Fprintf(w, "\nexact set match (esm, %s) by difficulty, beside execution accuracy\n", st.ESMOptions)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := append(append([]string{"system"}, diffs...), "ESM all", "EX all", "ESM missing")
	fmt.Fprintf(tw, "%s\t\n", strings.Join(head, "\t"))
	for _, sys := range st.Systems {
		fmt.Fprintf(tw, "%s\t", sys.System)
		for _, d := range diffs {
			fmt.Fprintf(tw, "%s\t", pct(structuralRate(sys, d)))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t\n", pct(sys.Overall.ESMRate), pct(executionRate(s, sys.System)), sys.Overall.ESMMissing)
	}
	return tw.Flush()
}

func structuralRate(sys match.SystemSummary, d string) float64 {
	for _, g := range sys.ByDifficulty {
		if g.Name == d {
			return g.ESMRate
		}
	}
	return 0
}

// executionRate is the system's correct rate under the run's primary semantics.
func executionRate(s *RunSummary, system string) float64 {
	for _, sys := range s.Systems {
		if sys.System == system {
			return sys.Overall.Rates.Correct
		}
	}
	return 0
}
