package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
)

// printSummary prints a judged run for people: the one-screen answer (report.WriteShort),
// or every table with --details (report.WriteDetails), then where the run directory is and
// how to see more. Both render summary.json and compute nothing.
func printSummary(w io.Writer, res *benchrun.Result, questions int, out string, o runOutput) error {
	sum := res.Summary
	write := report.WriteShort
	if o.Details {
		write = report.WriteDetails
	}
	if err := write(w, sum); err != nil {
		return err
	}
	judged := fmt.Sprintf("judged in %.2fs", res.Elapsed.Seconds())
	if res.Resumed > 0 && res.Resumed >= questions*len(res.Systems) {
		judged = "nothing left to judge: the run was complete" // --resume of a finished run
	}
	_, err := fmt.Fprintf(w, "\n%s x %s %s; run directory: %s\n",
		plural(questions, "question"), plural(len(res.Systems), "system"), judged, out)
	if err != nil {
		return err
	}
	var more string
	if !o.Details {
		// A run that remembers its arguments prints its tables again without judging:
		// "add --details" to the same command met the non-empty --out (round 54's trial).
		how := "add --details"
		if o.Args != nil {
			how = hintCommand(o.prog, "eval", "--resume", "--out", shellQuote(out), "--details")
		}
		more = "every table (" + strings.Join(report.DetailsHas(sum), ", ") + "): " + how + "; "
	}
	if !o.WritesReport {
		more += "HTML report: " + hintCommand(o.prog, "report", shellQuote(out), "--html", shellQuote(filepath.Join(out, "report.html")))
	} else {
		more += fmt.Sprintf("per-question verdicts: %s", filepath.Join(out, "<system>", "records.jsonl"))
	}
	_, err = fmt.Fprintln(w, more)
	return err
}
