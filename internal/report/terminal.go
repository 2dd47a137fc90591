package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The terminal outputs print the sections of the one list (sections.go) placed in them,
// each from summary.json. Every terminal table is rows of ready cells that text/tabwriter
// lines up, two spaces apart: a section builds its rows, the functions here print them.

// WriteShort prints a run's answer on one screen: the headline table, one system's
// intervals or every system against the best (the vs_best section), EX per difficulty
// (up to two systems), one line on errors, and a legend of every term printed. Like every
// output it only prints summary.json's values.
func WriteShort(w io.Writer, s *rundir.Summary) error { return writeOutput(w, s, OutShort, Sections) }

// WriteDetails prints every table summary.json has, for eval --details and merge: the
// headline table (every headline metric of the registry), the same metrics per
// difficulty, the error categories, the sections the run has (modules, ETM disagreements,
// counterexample databases, Spider's partial match, flex verdicts, Spider 2.0's modes,
// tasks), then each system against the best, the confidence intervals and paired
// comparisons (docs/statistics.md), and the slices.
func WriteDetails(w io.Writer, s *rundir.Summary) error {
	return writeOutput(w, s, OutDetails, Sections)
}

// writeGrid prints rows right-aligned, so that counts and rates line up; every cell ends
// with a tab, the last column's too, so that it aligns as well.
func writeGrid(w io.Writer, rows [][]string) error {
	return printGrid(tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight), rows, "\t\n")
}

// writeWordGrid prints rows left-aligned, for columns of words. The last cell of a row
// runs on unpadded (a rule, a reason) unless padLast.
func writeWordGrid(w io.Writer, rows [][]string, padLast bool) error {
	end := "\n"
	if padLast {
		end = "\t\n"
	}
	return printGrid(tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), rows, end)
}

func printGrid(tw *tabwriter.Writer, rows [][]string, end string) error {
	for _, r := range rows {
		if _, err := io.WriteString(tw, strings.Join(r, "\t")+end); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// writeTitled prints t on a terminal: a blank line and its title as it is, its head and
// rows (writeGrid), then its caption when it has one.
func writeTitled(w io.Writer, t TextTable) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "\n%s\n", t.Title)
	writeGrid(ew, append([][]string{t.Head}, t.Rows...))
	if t.Caption != "" {
		fmt.Fprintf(ew, "%s\n", t.Caption)
	}
	return ew.err
}

// cells formats a row of a grid: strings as they are, numbers in decimal.
func cells(xs ...any) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// errWriter keeps the first write error so the section writers stay readable.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, nil
}
