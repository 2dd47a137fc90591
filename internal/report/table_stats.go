package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The statistics tables: every headline value with its 95% confidence interval, and the
// paired comparisons between systems (docs/statistics.md). Both print summary.json's
// texts (metrics.Value.CIText, metrics.PairedTest.Text); nothing is computed here.
//
// Their first header cell is never plain "system", so that readers of the score tables
// (the consistency test among them) do not take these for score tables.

// TextTable is a table of ready texts that every output prints as it is.
type TextTable struct {
	Title   string
	Caption string
	Head    []string
	Rows    [][]string
}

// withCI joins a value and its interval: "83.23 [80.81, 85.40]".
func withCI(v *metrics.Value) string {
	if v == nil {
		return "n/a"
	}
	if !v.Applicable || v.CIText == "" {
		return v.Text
	}
	return v.Text + " " + v.CIText
}

// IntervalTables are the headline metrics with their intervals, and the primary metric
// (EX) per difficulty with its intervals; none when the summary has no interval (a run
// written before they existed).
func IntervalTables(s *rundir.Summary) []TextTable {
	if !hasIntervals(s) {
		return nil
	}
	t := TextTable{Title: "Scores with 95% confidence intervals (%)",
		Caption: "Wilson score intervals for rates, percentile bootstrap over questions (2000 resamples, fixed seed) for means.",
		Head:    []string{"system (95% CI)"}}
	cols := s.Metrics.Group("headline")
	for _, d := range cols {
		t.Head = append(t.Head, d.Label)
	}
	for _, sv := range s.Metrics.Systems {
		row := []string{sv.System}
		for _, d := range cols {
			_, v, _ := s.Metrics.Lookup(sv.System, d.ID)
			row = append(row, withCI(v))
		}
		t.Rows = append(t.Rows, row)
	}
	out := []TextTable{t}
	diffs := difficulties(s.Systems)
	if len(diffs) == 0 || !s.Metrics.Has("ex") {
		return out
	}
	d := TextTable{Title: "EX by " + Grouping(s) + " with 95% confidence intervals (%)", Head: append(append([]string{"system (EX, 95% CI)"}, diffs...), "all")}
	for _, sv := range s.Metrics.Systems {
		_, v, _ := s.Metrics.Lookup(sv.System, "ex")
		row := []string{sv.System}
		for _, name := range append(append([]string{}, diffs...), "all") {
			row = append(row, withCI(v.In(name)))
		}
		d.Rows = append(d.Rows, row)
	}
	return append(out, d)
}

func hasIntervals(s *rundir.Summary) bool {
	if s.Metrics == nil {
		return false
	}
	for _, sv := range s.Metrics.Systems {
		for _, v := range sv.Values {
			if v.CIMethod != "" {
				return true
			}
		}
	}
	return false
}

// PairedTable lists the comparisons of every two systems; nil with fewer than two.
func PairedTable(s *rundir.Summary) *TextTable {
	if s.Paired == nil || len(s.Paired.Pairs) == 0 {
		return nil
	}
	t := &TextTable{Title: "Paired comparisons (same questions)",
		Caption: "difference A - B in points; exact McNemar test on the discordant questions (a_only: A right and B wrong) for EX, paired bootstrap (95% interval of the difference) for means. A p-value under 0.05 says the two systems differ on these questions.",
		Head:    []string{"pair", "metric", "n", "A", "B", "A - B, test"}}
	for _, p := range s.Paired.Pairs {
		for _, x := range p.Tests {
			// EX and the headline means (metrics.Display.Paired); every other metric's
			// test is in summary.json's paired section.
			if !metrics.DisplayOf(x.Metric).Paired {
				continue
			}
			d := definition(s, x.Metric)
			t.Rows = append(t.Rows, []string{p.A + " vs " + p.B, d.Label, fmt.Sprint(x.N), d.Unit.Format(x.A), d.Unit.Format(x.B), x.Text})
		}
	}
	return t
}

func definition(s *rundir.Summary, id string) metrics.Definition {
	for _, d := range s.Metrics.Definitions {
		if d.ID == id {
			return d
		}
	}
	return metrics.Definition{ID: id, Label: id, Unit: metrics.Percent}
}

// StatsTables are the interval tables and the paired table, those the run has.
func StatsTables(s *rundir.Summary) []TextTable {
	out := IntervalTables(s)
	if p := PairedTable(s); p != nil {
		out = append(out, *p)
	}
	return out
}

// WriteTextTables prints tables for a terminal.
func WriteTextTables(w io.Writer, ts []TextTable) error {
	for _, t := range ts {
		t.Title = lowerFirst(t.Title)
		if err := writeTitled(w, t); err != nil {
			return err
		}
	}
	return nil
}

// lowerFirst lowercases a title's first letter for a terminal, unless it starts an
// abbreviation ("EX by ..." stays, not "eX by ...").
func lowerFirst(s string) string {
	if len(s) > 1 && strings.ToUpper(s[1:2]) == s[1:2] && strings.ToLower(s[1:2]) != s[1:2] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// mdTextTables appends tables to a Markdown document.
func mdTextTables(b *strings.Builder, ts []TextTable) {
	for _, t := range ts {
		fmt.Fprintf(b, "\n### %s\n\n", mdEsc(t.Title))
		mdGrid(b, append([][]string{t.Head}, t.Rows...))
		if t.Caption != "" {
			fmt.Fprintf(b, "\n%s\n", mdEsc(t.Caption))
		}
	}
}
