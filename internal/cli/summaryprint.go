package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	benchrun "github.com/nl2sqlbench/nl2sqlbench/internal/run"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// printSummary prints a judged run for people: the one-screen answer (report.WriteShort),
// or every table with --details (report.WriteTable), then where the run directory is and
// how to see more. Both render summary.json and compute nothing.
func printSummary(w io.Writer, res *benchrun.Result, questions int, out string, o runOutput) error {
	sum := res.Summary
	write := report.WriteShort
	if o.Details {
		write = writeDetails
	}
	if err := write(w, sum); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s x %s judged in %.2fs; run directory: %s\n",
		plural(questions, "question"), plural(len(res.Systems), "system"), res.Elapsed.Seconds(), out)
	if err != nil {
		return err
	}
	var more string
	if !o.Details {
		more = "every table (95% intervals, paired tests, ESM partial match, schema, candidates, usage, ETM): add --details; "
	}
	if !o.WritesReport {
		more += fmt.Sprintf("HTML report: nl2sqlbench report %s --html %s", out, filepath.Join(out, "report.html"))
	} else {
		more += fmt.Sprintf("per-question verdicts: %s", filepath.Join(out, "<system>", "records.jsonl"))
	}
	_, err = fmt.Fprintln(w, more)
	return err
}

// writeDetails is every table: the full report, then the confidence intervals and the
// paired comparisons of the systems (docs/statistics.md).
func writeDetails(w io.Writer, sum *rundir.Summary) error {
	if err := report.WriteTable(w, sum); err != nil {
		return err
	}
	return report.WriteTextTables(w, append(report.StatsTables(sum), report.SliceTables(sum)...))
}
