package report

import (
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The terminal explains every term it prints: each table is followed by a legend of the
// abbreviations it used, in words, from the registry's declarations (metrics.Display's
// Legend; TestEveryMetricHasALegend fails for a metric without one).

// headlineLegend explains the headline table's labels, in its order (a label explained
// with another's entry shares it), and n/a when a cell shows it.
func headlineLegend(s *rundir.Summary, t ScoreTable) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range t.Columns {
		if l := metrics.LegendOf(c.ID); l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	if showsNA(t) {
		out = append(out, `"n/a: covers n of N" = too few questions to score`)
	}
	return out
}

// showsNA reports whether some cell of t reads n/a with a coverage.
func showsNA(t ScoreTable) bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.NA && strings.Contains(c.Text, "covers") {
				return true
			}
		}
	}
	return false
}

// legendWidth is where legend lines wrap.
const legendWidth = 110

// writeLegend prints terms after prefix, separated by "; ", wrapped at legendWidth with
// continuation lines indented.
func writeLegend(w io.Writer, prefix string, terms []string) {
	if len(terms) == 0 {
		return
	}
	line := prefix
	for i, t := range terms {
		sep := "; "
		if i == len(terms)-1 {
			sep = ""
		}
		piece := t + sep
		if len(line) > len(prefix) && len(line)+len(piece) > legendWidth {
			io.WriteString(w, strings.TrimRight(line, " ")+"\n")
			line = strings.Repeat(" ", len(prefix))
		}
		line += piece
	}
	io.WriteString(w, line+"\n")
}
