package report

import (
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
	"io"
	"strings"
)

// The terminal explains every term it prints: each table is followed by a legend of the
// abbreviations it used, in words, taken from here. A new column label gets its entry
// here (legend_test.go fails for a headline label without one).

// metricTerms explain the registry's headline labels, by metric id.
var metricTerms = map[string]string{
	"ex":        "EX = execution accuracy (result equals the gold's)",
	"incorrect": "incorrect/error = wrong result / failed to run",
	"ex_bird":   "EX bird/spider = EX by BIRD's rules (rows as a set) / Spider's (a bag; ordered if gold is)",
	"esm":       "ESM = Spider's exact set match",
	"etm":       "ETM = Enhanced Tree Matching (SQL structure)",
	"soft_f1":   "Soft-F1 = BIRD's partial credit over result cells",
	"ves":       "VES/R-VES = BIRD's speed reward against the gold SQL (0 unless correct)",
	"flex":      "Flex = NL2SQL++'s flexible result comparison (extra or reordered columns allowed)",
}

// metricTermOrder is the order of the headline legend; error, ex_spider and rves share
// their pair's entry.
var metricTermOrder = []string{"ex", "incorrect", "ex_bird", "esm", "etm", "soft_f1", "ves", "flex"}

// legendPair is the metric whose label an entry explains with its own.
var legendPair = map[string]string{"incorrect": "error", "ex_bird": "ex_spider", "ves": "rves"}

// headlineLegend explains the headline table's labels, and n/a when a cell shows it.
func headlineLegend(s *rundir.Summary, t ScoreTable) []string {
	var out []string
	for _, id := range metricTermOrder {
		if t.has(id) || t.has(legendPair[id]) {
			out = append(out, metricTerms[id])
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
