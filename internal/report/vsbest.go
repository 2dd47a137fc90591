package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The first screen's answer to "which system is better, and how sure": summary.json's
// vs_best section (metrics/vsbest.go) as one table, printed by the terminal, the Markdown
// and the top of the HTML report. One system has nothing to compare: the terminal prints
// its intervals instead.

// comparisonHead names the comparison table's columns, without and with Holm's column.
var comparisonHead = []string{"metric", "system - best", "difference [95% CI]", "p", "verdict"}

// ComparisonTable is the vs_best section's shown metrics, one row per system against the
// best; nil when the run has no comparison (one system, or a summary written before the
// section existed).
func ComparisonTable(s *rundir.Summary) *TextTable {
	vb := s.VsBest
	if vb == nil || len(vb.Metrics) == 0 {
		return nil
	}
	t := &TextTable{Title: "Each system against the best (paired, same questions)"}
	corrected := false
	for _, m := range vb.Metrics {
		corrected = corrected || (m.Shown && m.Corrected)
	}
	t.Head = append([]string{}, comparisonHead[:4]...)
	if corrected {
		t.Head = append(t.Head, "Holm p")
	}
	t.Head = append(t.Head, comparisonHead[4])
	for _, m := range vb.Metrics {
		if !m.Shown {
			continue
		}
		u := unitOf(s, m.Metric)
		for i, r := range m.Rows {
			label := ""
			if i == 0 {
				label = m.Label
			}
			row := []string{label, r.System + " - " + m.Best, metrics.DiffText(u, r.Diff, r.DiffLow, r.DiffHigh), pText(r.P)}
			if corrected {
				row = append(row, pText(r.PHolm))
			}
			t.Rows = append(t.Rows, append(row, r.Verdict))
		}
	}
	t.Caption = comparisonCaption(s, vb, corrected)
	return t
}

// comparisonCaption says what the table holds, which metrics it leaves out, and how the
// p-values are made.
func comparisonCaption(s *rundir.Summary, vb *metrics.VsBestSection, corrected bool) string {
	var hidden []string
	for _, m := range vb.Metrics {
		if !m.Shown && m.SameAs == "" {
			hidden = append(hidden, m.Label)
		}
	}
	c := fmt.Sprintf("The best system per metric against each other on the questions both judged: %s always, every other metric where some system differs.",
		definition(s, vb.Headline).Label)
	if len(hidden) > 0 {
		c += " No detectable difference on " + strings.Join(hidden, ", ") + "."
	}
	c += " Exact McNemar test with Newcombe's interval for rates, paired bootstrap for means (docs/statistics.md)."
	if corrected {
		c += " Holm p: the p-value corrected for the comparisons of one metric (one per system but the best); the verdict reads it at 0.05."
	} else {
		c += " The verdict reads p at 0.05."
	}
	return c
}

// pText prints a p-value without its "p=" ("0.7289", "<0.0001").
func pText(p float64) string {
	s := metrics.FormatP(p)
	if rest, ok := strings.CutPrefix(s, "p="); ok {
		return rest
	}
	return strings.TrimPrefix(s, "p")
}

// pSign puts "=" before a p-value's text unless it is a bound ("<0.0001").
func pSign(p string) string {
	if strings.HasPrefix(p, "<") {
		return p
	}
	return "=" + p
}

// unitOf is metric id's unit as the summary defines it.
func unitOf(s *rundir.Summary, id string) metrics.Unit { return definition(s, id).Unit }

// writeShortComparison prints the comparison table for a terminal, its caption as one
// line above it.
func writeShortComparison(w io.Writer, s *rundir.Summary) error {
	t := ComparisonTable(s)
	if t == nil {
		return nil
	}
	corrected := len(t.Head) > len(comparisonHead)
	title := "each system against the best, paired on the same questions"
	if corrected {
		title += " (Holm p: corrected for each metric's comparisons)"
	}
	fmt.Fprintf(w, "\n%s\n", title)
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		// Without a header row the p-values name themselves.
		r = append([]string{}, r...)
		r[0], r[3] = "  "+r[0], "p"+pSign(r[3])
		if corrected {
			r[4] = "Holm p" + pSign(r[4])
		}
		rows[i] = r
	}
	return writeWordGrid(w, rows, false) // left-aligned: the verdicts are words
}

// writeShortIntervals prints one system's headline intervals on one line (wrapped like
// the legend): what "how sure" means when there is no other system.
func writeShortIntervals(w io.Writer, s *rundir.Summary) error {
	if len(s.Systems) != 1 || s.Metrics == nil {
		return nil
	}
	var parts []string
	for _, d := range Scores(s).Columns {
		_, v, ok := s.Metrics.Lookup(s.Systems[0].System, d.ID)
		if ok && v.CIText != "" && metrics.DisplayOf(d.ID).Compare {
			parts = append(parts, d.Label+" "+v.CIText)
		}
	}
	writeLegend(w, "95% intervals: ", parts)
	return nil
}
