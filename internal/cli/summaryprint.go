package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

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
		more = "every table (" + strings.Join(detailsHas(sum), ", ") + "): add --details; "
	}
	if !o.WritesReport {
		more += "HTML report: " + hintCommand(o.prog, "report", shellQuote(out), "--html", shellQuote(filepath.Join(out, "report.html")))
	} else {
		more += fmt.Sprintf("per-question verdicts: %s", filepath.Join(out, "<system>", "records.jsonl"))
	}
	_, err = fmt.Fprintln(w, more)
	return err
}

// detailsHas names what --details adds for this run: only what it has (a Spider 2.0 run
// has no ESM).
func detailsHas(s *rundir.Summary) []string {
	var out []string
	if len(s.Systems) > 2 && s.VsBest != nil {
		out = append(out, "EX by difficulty")
	}
	out = append(out, "95% intervals")
	if s.Paired != nil {
		out = append(out, "paired tests")
	}
	if len(s.ESMPartial) > 0 {
		out = append(out, "ESM partial match")
	}
	if s.Modules != nil {
		out = append(out, "schema, candidates, usage")
	}
	if s.ETM != nil {
		out = append(out, "ETM")
	}
	if len(s.Spider2) > 0 {
		out = append(out, "Spider 2.0 modes")
	}
	return out
}

// writeDetails is every table: the full report, then each system against the best, the
// confidence intervals and the paired comparisons of the systems (docs/statistics.md).
func writeDetails(w io.Writer, sum *rundir.Summary) error {
	if err := report.WriteTable(w, sum); err != nil {
		return err
	}
	ts := append(report.StatsTables(sum), report.SliceTables(sum)...)
	if c := report.ComparisonTable(sum); c != nil {
		ts = append([]report.TextTable{*c}, ts...)
	}
	return report.WriteTextTables(w, ts)
}
